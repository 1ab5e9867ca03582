"""Issue 31, item 9: what the tool says about itself agrees with what it does (help texts, advice)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cuda2rocm.cli.main import cli
from cuda2rocm.scan.api import scan


def _help(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def test_migrate_help_shows_the_end_to_end_options() -> None:
    """`migrate --help` listed only build and deploy: the options of `migrate PATH -o OUT` were nowhere."""
    text = _help("migrate")
    section = text[text.index("Options of `cuda2rocm migrate [PATH] -o OUT`"):]
    for option in ("--output", "--offload-arch", "--target-rocm", "--no-fix-hazards", "--no-verify"):
        assert option in section, option


def test_verify_help_states_one_default_for_target_rocm() -> None:
    """verify's description (hipcc's HIP release) and its option (the newest in the tables) disagreed."""
    text = " ".join(_help("verify").split())
    assert "verify, the release of the HIP that hipcc reports" in text


def test_scan_advice_for_a_cuda_toolkit_root_is_what_migrate_does(tmp_path: Path) -> None:
    """scan said CUDA_HOME has "no known ROCm counterpart" while migrate deploy moves it to ROCM_PATH."""
    (tmp_path / "Dockerfile").write_text("FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\nENV CUDA_HOME=/usr/local/cuda\n")
    found = [f for f in scan(tmp_path).findings if "CUDA_HOME" in f.message]
    assert found and all("ROCM_PATH" in f.message and "no known" not in f.message for f in found), found
    out = tmp_path / "out"
    assert CliRunner().invoke(cli, ["migrate", "deploy", str(tmp_path), "-o", str(out)]).exit_code in (0, 1)
    assert "ROCM_PATH" in (out / "Dockerfile").read_text()
