"""Small CLI fixes of issue 31 item 9: `convert -q` prints errors only, a resumed stage with no files of its own
does not say "resumed: 0 files", `init` does not create a whole missing path, and `migrate`'s help names the hazard
fixes it applies as `convert --help` does. Each failed before the change."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cuda2rocm.cli.main import cli, main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llm-service"
CLEAN_CU = "__global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }\n"


def test_convert_quiet_prints_no_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-record", "convert", str(EXAMPLE), "-o", str(tmp_path / "out"), "-q"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert not any("C2R-" in line for line in lines), lines
    assert len(lines) == 1 and "finding(s) at or above high (exit 1)" in lines[0]


def test_resumed_stage_without_files_does_not_count_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "fill.cu").write_text(CLEAN_CU, encoding="utf-8")
    args = ["--no-record", "migrate", str(src), "-o", str(tmp_path / "out"), "--no-verify"]
    assert main(args) in (0, 1)
    capsys.readouterr()
    assert main(args) in (0, 1)
    again = capsys.readouterr().err
    assert "resumed: 0 files" not in again
    assert "[1/6] scan: resumed (finished by an earlier run)" in again
    assert "convert: resumed: 1 files" in again


def test_init_refuses_a_path_whose_parent_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "nonexistent" / "deep" / "dir"
    assert main(["init", str(deep)]) == 2
    assert "--parents" in capsys.readouterr().err
    assert not (tmp_path / "nonexistent").exists()
    assert main(["init", "--parents", str(deep)]) == 0
    assert (deep / "cuda2rocm.toml").is_file()
    one = tmp_path / "one"  # PATH itself may be missing when its parent exists
    assert main(["init", str(one)]) == 0 and (one / "cuda2rocm.toml").is_file()


def test_migrate_help_names_the_unsafe_fix_it_applies() -> None:
    runner = CliRunner()
    convert = " ".join(runner.invoke(cli, ["convert", "--help"], terminal_width=1000).stdout.split())
    assert "C2R-K202's unsafe type widening" in convert
    for args in (["migrate", "--help"], ["migrate", "pipeline", "--help"]):
        text = " ".join(runner.invoke(cli, args, terminal_width=1000).stdout.split())
        assert "C2R-K202's unsafe type widening" in text, args
        assert "with the safe hazard fixes" not in text and "Do not apply the safe" not in text
