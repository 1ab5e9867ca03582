"""``cuda2rocm convert`` / ``verify`` through the real CLI entry point: every option and exit code."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cuda2rocm.cli.main import cli

CLEAN = "#include <cuda_runtime.h>\nvoid f(void** p) { cudaMalloc(p, 4); }\n"
BAD_API = "#include <cuda_runtime.h>\nvoid f(double* d) { cudaSetDoubleForDevice(d); }\n"
KERNEL = "__global__ void k(float* x) { x[0] = 1.f; }\nvoid g(float* d) { k<<<1, 1>>>(d); }\n"


class Result:
    """Exit code as ``cuda2rocm.cli.main.main`` returns it (click's standalone mode would drop it)."""

    def __init__(self, r) -> None:
        self.stdout, self.stderr = r.stdout, r.stderr
        self.stdout_bytes: bytes = r.stdout_bytes
        if isinstance(r.exception, click.ClickException):
            self.exit_code = r.exception.exit_code
        elif r.exception is not None:
            raise r.exception
        else:
            self.exit_code = int(r.return_value or 0)


def invoke(args: list[str], stdin: str | bytes | None = None) -> Result:
    return Result(CliRunner().invoke(cli, args, input=stdin, standalone_mode=False))


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return invoke(["convert", *args], stdin)


@pytest.fixture
def src(tmp_path: Path) -> Path:
    d = tmp_path / "src"
    d.mkdir()
    (d / "a.cu").write_text(CLEAN)
    (d / "b.cu").write_text(KERNEL)
    return d


def test_single_file_to_stdout(src):
    r = run(str(src / "a.cu"))
    assert r.exit_code == 0 and "hipMalloc" in r.stdout


def test_stdin_to_stdout():
    r = run("-", stdin=CLEAN)
    assert r.exit_code == 0 and r.stdout == CLEAN.replace("cuda_runtime.h", "hip/hip_runtime.h").replace(
        "cudaMalloc", "hipMalloc")


def test_output_dir_and_stats_json(src, tmp_path):
    r = run(str(src), "-o", str(tmp_path / "out"), "--stats", "json")
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["totals"]["files"] == 2 and doc["totals"]["by_library"]["runtime"]["function"] == 1
    assert (tmp_path / "out" / "a.hip").exists() and (tmp_path / "out" / "b.hip").exists()


def test_stats_csv_and_text(src):
    r = run(str(src), "--dry-run", "--stats", "csv")
    rows = list(csv.DictReader(io.StringIO(_csv_part(r.stdout))))
    assert rows[-1]["path"] == "TOTAL" and int(rows[-1]["converted"]) >= 3
    r = run(str(src), "--check", "--stats", "text")
    assert "TOTAL 2 files" in r.stdout


def _csv_part(out: str) -> str:
    return out[out.index("path,status"):]


def test_cu_suffix_and_extensions(src, tmp_path):
    (src / "c.cxx").write_text(CLEAN)
    run(str(src), "-o", str(tmp_path / "o"), "--cu-suffix", "", "--extensions", ".cu")
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["a.cu", "b.cu"]


def test_in_place_and_no_backup(src):
    assert run(str(src), "--in-place").exit_code == 0
    assert (src / "a.cu.orig").read_text() == CLEAN and "hipMalloc" in (src / "a.cu").read_text()
    (src / "a.cu").write_text(CLEAN)
    assert run(str(src), "--in-place").exit_code == 2  # would clobber the backup
    assert run(str(src), "--in-place", "--force").exit_code == 0
    (src / "a.cu").write_text(CLEAN)
    assert run(str(src), "--in-place", "--no-backup", "--force").exit_code == 0


def test_force_overwrites_outputs(src, tmp_path):
    out = tmp_path / "o.hip"
    out.write_text("keep")
    assert run(str(src / "a.cu"), "-o", str(out)).exit_code == 2 and out.read_text() == "keep"
    assert run(str(src / "a.cu"), "-o", str(out), "--force").exit_code == 0 and "hipMalloc" in out.read_text()


def test_diff_check_dry_run_write_nothing(src):
    before = {p: p.read_text() for p in src.iterdir()}
    d = run(str(src), "--diff")
    assert d.exit_code == 0 and "-void f(void** p) { cudaMalloc(p, 4); }" in d.stdout
    assert run(str(src), "--check").exit_code == 1
    dry = run(str(src), "--dry-run", "-o", str(src.parent / "o"))
    assert "would write" in dry.stdout and not (src.parent / "o").exists()
    assert {p: p.read_text() for p in src.iterdir()} == before


def test_fail_on_levels(src):
    (src / "bad.cu").write_text(BAD_API)
    assert run(str(src / "bad.cu")).exit_code == 1  # high finding, default --fail-on high
    assert run(str(src / "bad.cu"), "--fail-on", "critical").exit_code == 0
    r = run(str(src / "bad.cu"), "--fail-on", "critical")
    assert "C2R-A101" in r.stderr and "bad.cu:2:" in r.stderr
    assert "C2R-A101" not in run(str(src / "bad.cu"), "-q", "--fail-on", "critical").stderr


def test_quiet_failures_still_say_why(src, tmp_path):
    """Issue 18: with -q an exit code of 1 came with no output at all. Issue 31: -q printed every finding at or
    above --fail-on. Now -q prints errors only, and on exit 1 one line counting the findings behind it."""
    (src / "bad.cu").write_text(BAD_API)
    (src / "low.cu").write_text(CLEAN)
    r = run(str(src), "-o", str(tmp_path / "o"), "-q")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines() == ["1 finding(s) at or above high (exit 1); run without -q to see them"]
    assert "C2R-A101" in run(str(src), "-o", str(tmp_path / "o2")).stderr
    r = run(str(src / "low.cu"), "--check", "-q")
    assert r.exit_code == 1 and r.stderr.strip() == "1 file(s) would change"
    r = run("-", "--check", "-q", stdin=CLEAN)
    assert r.exit_code == 1 and r.stderr.strip() == "1 file(s) would change"
    r = run(str(src / "low.cu"), "-q")
    assert r.exit_code == 0 and r.stderr == ""


@pytest.mark.parametrize("args", [
    ["--launch-syntax", "ggl"], ["--roc"], ["--experimental"], ["--use-hip-data-types"], ["--fix-hazards"],
    ["--target-rocm", "5.2"], ["--jobs", "2"], ["--max-size", "1"],
])
def test_translation_options_accepted(src, args):
    r = run(str(src), "--check", *args)
    assert r.exit_code == 1  # files would change


def test_launch_syntax_ggl_output(src):
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d)" in run(str(src / "b.cu"), "--launch-syntax",
                                                                     "ggl").stdout


@pytest.mark.parametrize("args", [
    ["--target-rocm", "9.9"], ["--launch-syntax", "x"], ["--fail-on", "bogus"], ["--jobs", "-1"],
])
def test_usage_errors_exit_2(src, args):
    assert run(str(src / "a.cu"), *args).exit_code == 2


def test_usage_conflicts_exit_2(src, tmp_path):
    assert run(str(src)).exit_code == 2  # a directory needs -o or --in-place
    assert run(str(src), "-o", str(tmp_path / "x"), "--in-place").exit_code == 2
    assert run(str(tmp_path / "missing.cu")).exit_code == 2
    assert run("-", str(src)).exit_code == 2


def test_bad_input_exit_2_others_written(src, tmp_path):
    (src / "junk.cu").write_bytes(b"\x00\x01\x02binary")
    r = run(str(src), "-o", str(tmp_path / "o"))
    assert r.exit_code == 2 and "junk.cu: error: binary file" in r.stderr
    assert (tmp_path / "o" / "a.hip").exists() and not (tmp_path / "o" / "junk.hip").exists()


def test_stdin_non_utf8_bytes_pass_through():
    """Issue 16: bytes that are not UTF-8 (legacy comments) are translated around and written back as they came."""
    r = run("-", stdin=b"// r\xe9sum\xe9\nvoid f(float** p) { cudaMalloc(p, 4); }\n")
    assert r.exit_code == 0, r.stderr
    assert r.stdout_bytes.startswith(b"// r\xe9sum\xe9\n") and b"hipMalloc(p, 4)" in r.stdout_bytes


def test_stdin_binary_exit_2():
    r = run("-", stdin=b"int a;\x00\n")
    assert r.exit_code == 2 and "binary" in r.stderr


@pytest.mark.hipcc
def test_verify_passes_and_maps_errors(tmp_path):
    from cuda2rocm.toolchain.discover import find_hipcc

    if find_hipcc() is None:
        pytest.skip("hipcc not installed")
    (tmp_path / "ok.cu").write_text(KERNEL + "int main() { return 0; }\n")
    (tmp_path / "broken.cu").write_text("// one\n// two\n__global__ void k() { undefined_thing(); }\n")
    r = invoke(["verify", str(tmp_path / "ok.cu")])
    assert r.exit_code == 0 and "PASS ok.cu" in r.stdout
    r = invoke(["verify", str(tmp_path / "broken.cu")])
    # the HIP file has the include inserted at line 1, so the error is on HIP line 4 but CUDA line 3
    assert r.exit_code == 1 and "FAIL broken.cu" in r.stdout and "broken.cu:3:" in r.stdout
    r = run(str(tmp_path / "ok.cu"), "--check", "--verify")
    assert "1/1 translation units compiled" in r.stdout
