"""Bad input gets a clear per-file message (file and, where known, line) and the rest is still scanned."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cuda2rocm.files.config import ScanConfig
from cuda2rocm.scan.api import ScanInputError, scan

GOOD_CU = "__global__ void k(float* x) { x[0] = 1.0f; }\n"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "good.cu").write_text(GOOD_CU)
    return tmp_path


def _problems(result, path: str) -> list[str]:
    return [p.message for p in result.problems if p.path == path]


def _still_scanned(result) -> None:
    assert ("C2R-S103", "good.cu", 1) in {(f.rule, f.path, f.line) for f in result.findings}


def test_binary_junk_named_cu(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "junk.cu").write_bytes(os.urandom(2048) + b"\x00\x00\x7fELF")
    result = scan(root)
    assert any("binary content" in m for m in _problems(result, "junk.cu"))
    assert ("C2R-E102", "junk.cu", 0) in {(f.rule, f.path, f.line) for f in result.findings}
    _still_scanned(result)


def test_invalid_utf8_is_reported_with_line_and_still_scanned(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "latin.cu").write_bytes(b"// caf\xe9\n#include <cublas_v2.h>\n")
    result = scan(root)
    assert [p.line for p in result.problems if p.path == "latin.cu"] == [1]
    assert any("not valid UTF-8" in m and "0xe9" in m for m in _problems(result, "latin.cu"))
    assert ("C2R-S112", "latin.cu", 2) in {(f.rule, f.path, f.line) for f in result.findings}
    _still_scanned(result)


def test_200mb_file_is_skipped_without_reading(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    with open(root / "huge.cu", "wb") as f:
        f.truncate(200 * 2**20)  # sparse: 200 MB on paper, nothing on disk
    result = scan(root)
    assert any("200.0 MB" in m and "limit" in m for m in _problems(result, "huge.cu"))
    _still_scanned(result)


def test_size_limit_is_configurable(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "big.cu").write_text("// filler line of a generated table\n" * 40000)  # ~1.4 MB
    result = scan(root, config=ScanConfig(max_file_mb=1))
    assert _problems(result, "big.cu")
    assert not _problems(scan(root), "big.cu")


def test_symlink_loops_and_cycles(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to("..")  # directory cycle
    (root / "self").symlink_to("self")  # ELOOP
    (root / "dangling.cu").symlink_to("missing.cu")
    result = scan(root)
    assert any("symlink loop" in m for m in _problems(result, "self"))
    assert any("cycle" in m for m in _problems(result, "sub/up"))
    assert any("broken symlink" in m for m in _problems(result, "dangling.cu"))
    assert [f.path for f in result.files] == ["good.cu"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads mode-000 files; the next test covers the error path")
def test_unreadable_file_chmod_000(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    secret = root / "secret.cu"
    secret.write_text(GOOD_CU)
    secret.chmod(0)
    try:
        result = scan(root)
    finally:
        secret.chmod(0o644)
    assert any("cannot read" in m for m in _problems(result, "secret.cu"))
    _still_scanned(result)


def test_unreadable_file_even_as_root(tmp_path: Path) -> None:
    """A directory where a file is expected raises IsADirectoryError (an OSError) on open, for root too."""
    root = _tree(tmp_path)
    (root / "notafile.cu").mkdir()
    (root / "notafile.cu" / "inner.txt").write_text("x")
    from cuda2rocm.files.walk import Candidate
    from cuda2rocm.scan.filescan import scan_file

    report = scan_file(Candidate(str(root / "notafile.cu"), "notafile.cu", "cuda", 10), "MI300X", 2**20)
    assert [p.extra["rule"] for p in report.problems] == ["C2R-E101"]
    assert "cannot read file" in report.problems[0].message


@pytest.mark.parametrize(
    ("name", "text", "line", "needle"),
    [
        pytest.param("k8s.yaml", "apiVersion: v1\nkind: Pod\nspec: [a, b\n  c: d\n", 4, "invalid YAML", id="yaml"),
        pytest.param("Dockerfile", "FROM ubuntu:22.04\nRUNN apt-get update\n", 2, "unknown Dockerfile", id="docker"),
        pytest.param("CMakeLists.txt", "project(x)\nadd_library(foo\n  a.cu\n", 2, "never closed", id="cmake"),
        pytest.param("pyproject.toml", "[project\nname = 1\n", 1, "invalid TOML", id="toml"),
        pytest.param("bad.py", "import torch.cuda\ns = '''unterminated\n", 2, "tokenizer stopped", id="python"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path: Path, name: str, text: str, line: int, needle: str) -> None:
    root = _tree(tmp_path)
    (root / name).write_text(text)
    result = scan(root)
    problems = [p for p in result.problems if p.path == name]
    assert len(problems) == 1 and needle in problems[0].message and problems[0].line == line
    assert ("C2R-E105", name, line) in {(f.rule, f.path, f.line) for f in result.findings}
    _still_scanned(result)


def test_internal_error_in_one_file_does_not_stop_the_scan(tmp_path: Path, monkeypatch) -> None:
    root = _tree(tmp_path)
    (root / "x.sh").write_text("echo hi\n")
    from cuda2rocm.scan import filescan

    def boom(report, text):
        raise RuntimeError("analyzer bug")

    monkeypatch.setitem(filescan._TEXT, "shell", boom)
    result = scan(root)
    assert any("internal error" in m and "analyzer bug" in m for m in _problems(result, "x.sh"))
    _still_scanned(result)


def test_missing_root_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(ScanInputError, match="no such file"):
        scan(tmp_path / "nope")


def test_outside_symlink_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "k.cu").write_text(GOOD_CU)
    root = tmp_path / "root"
    root.mkdir()
    (root / "good.cu").write_text(GOOD_CU)
    (root / "link").symlink_to(outside)
    result = scan(root)
    assert any("outside the scanned tree" in m for m in _problems(result, "link"))
    assert [f.path for f in result.files] == ["good.cu"]


@pytest.mark.parametrize(("gpu", "why"), [("MI300", "unknown target GPU 'MI300'"), ("MI999", "unknown target GPU"),
                                          ("H100", "is an NVIDIA GPU")])
def test_an_unknown_target_gpu_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], gpu: str,
                                                why: str) -> None:
    """Issue 18: these were accepted silently (rc 0, no K402 findings, PYTORCH_ROCM_ARCH=MI300 in the PoC)."""
    from cuda2rocm.cli.main import main
    from cuda2rocm.hazards.targets import known_targets

    assert main(["scan", str(_tree(tmp_path)), "--target-gpu", gpu]) == 2
    err = capsys.readouterr().err
    assert why in err and "known: " + ", ".join(known_targets()) in err
    assert {"MI300X", "MI250X", "Radeon RX 7900 XTX", "gfx942", "gfx1100"} <= set(known_targets())
    (tmp_path / "cuda2rocm.toml").write_text(f'target-gpu = "{gpu}"\n')
    assert main(["scan", str(tmp_path)]) == 2
    assert "cuda2rocm.toml: target-gpu: " in capsys.readouterr().err


@pytest.mark.parametrize("gpu", ["gfx942", "mi250x", "AMD Instinct MI300X", "Radeon RX 7900 XTX"])
def test_known_target_gpus_are_accepted(tmp_path: Path, gpu: str) -> None:
    assert scan(_tree(tmp_path), target_gpu=gpu).target_gpu == gpu
