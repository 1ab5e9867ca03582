"""``convert`` over real trees and processes: symlinks, killing the CLI, output inside the input, listings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cuda2rocm.cli.main import cli

KERNEL = "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n" \
         "void go(float* d) { k<<<1, 32>>>(d); cudaDeviceSynchronize(); }\n"
SRC = str(Path(__file__).resolve().parents[2] / "src")


def convert(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["convert", *args], standalone_mode=False)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return int(r.return_value or 0), r.stdout, r.stderr


def files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink())


def test_links_that_leave_the_tree_are_reported_and_outputs_stay_relative(tmp_path: Path) -> None:
    src, outside = tmp_path / "src", tmp_path / "outside"
    src.mkdir()
    outside.mkdir()
    (src / "main.cu").write_text(KERNEL)
    (outside / "shared.cuh").write_text("inline void f(void* p) { cudaFree(p); }\n")
    (src / "shared.cuh").symlink_to(outside / "shared.cuh")
    (src / "dangling.cu").symlink_to(tmp_path / "nowhere.cu")
    code, _, err = convert(str(src), "-o", str(tmp_path / "out"))
    assert code == 0
    assert files(tmp_path / "out") == ["main.hip"]  # nothing under out/<absolute path>/...
    assert f"shared.cuh: warning: symlink points outside the scanned tree ({outside / 'shared.cuh'})" in err
    assert "dangling.cu: warning: broken symlink" in err and str(tmp_path / "nowhere.cu") in err


def test_in_place_never_touches_a_link_target_outside_the_tree(tmp_path: Path) -> None:
    src, outside = tmp_path / "src", tmp_path / "outside"
    src.mkdir()
    outside.mkdir()
    target = outside / "lib.cu"
    target.write_text(KERNEL)
    (src / "lib.cu").symlink_to(target)
    (src / "own.cu").write_text(KERNEL)
    code, _, err = convert(str(src), "--in-place")
    assert code == 0 and "lib.cu: warning: symlink points outside" in err
    assert target.read_text() == KERNEL and files(outside) == ["lib.cu"]  # no rewrite, no .orig there
    assert (src / "lib.cu").is_symlink() and "hipDeviceSynchronize" in (src / "own.cu").read_text()


def test_output_inside_the_input_is_not_translated_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "main.cu").write_text(KERNEL)
    (tmp_path / "util.cuh").write_text("inline void f(void* p) { cudaFree(p); }\n")
    monkeypatch.chdir(tmp_path)
    assert convert(".", "-o", "hip")[0] == 0
    assert convert(".", "-o", "hip", "--force")[0] == 0
    assert files(tmp_path / "hip") == ["main.hip", "util.cuh"]


def test_check_and_dry_run_list_the_files_that_would_change(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(KERNEL)
    (tmp_path / "plain.cpp").write_text("int main() { return 0; }\n")
    code, out, _ = convert(str(tmp_path), "--check")
    assert code == 1 and out == "would change a.cu\n"
    code, out, _ = convert(str(tmp_path), "--dry-run")
    assert code == 0 and out == "would change a.cu\n"
    assert files(tmp_path) == ["a.cu", "plain.cpp"]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]  # a zombie has exited


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_the_cli_kills_its_workers(tmp_path: Path, sig: signal.Signals) -> None:
    work = tmp_path / "w"
    work.mkdir()
    unit = "".join(KERNEL.replace("k(", f"k{i}(").replace("k<<<", f"k{i}<<<") for i in range(300))
    for i in range(24):
        (work / f"f{i}.cu").write_text(unit)
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen([sys.executable, "-m", "cuda2rocm", "convert", str(work), "--in-place", "-j", "2",
                             "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            workers = [c for c in _children(proc.pid) if _running(c)]
            time.sleep(0.02)
        assert len(workers) >= 2, "the workers did not start"
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if _running(w)], "workers outlived the CLI"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # whatever the kill left half-written, a new run removes and finishes
    rerun = subprocess.run([sys.executable, "-m", "cuda2rocm", "convert", str(work), "--in-place", "--force",
                            "-j", "1", "-q"], env=env, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert not [p.name for p in work.iterdir() if p.name.endswith(".tmp")]


def test_gitignored_sources_are_skipped_unless_no_gitignore(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "a.cu").write_text(KERNEL)
    (tmp_path / "build" / "gen.cu").write_text(KERNEL)
    assert convert(str(tmp_path), "--check")[1] == "would change a.cu\n"
    assert convert(str(tmp_path), "--check", "--no-gitignore")[1] == "would change a.cu\nwould change build/gen.cu\n"
    assert convert(str(tmp_path / "build" / "gen.cu"), "--check")[0] == 1  # a named file is always taken


def test_a_symlink_loop_is_reported(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.cu").write_text(KERNEL)
    (tmp_path / "sub" / "loop").symlink_to(tmp_path / "sub", target_is_directory=True)
    code, out, err = convert(str(tmp_path), "--check")
    assert code == 1 and out == "would change sub/a.cu\n"
    assert "sub/loop: warning: symlink cycle" in err
