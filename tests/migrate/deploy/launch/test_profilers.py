"""Profiling command lines in scripts: nsys / ncu / nvprof -> rocprofv3 (data/profilers.csv), every written
script passing ``bash -n``, unmapped options reported, nothing done for ROCm releases without rocprofv3."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.deploy import shell
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.source.edits import apply_edits

CASES = {
    "nsys profile -t cuda,nvtx -o rep python train.py --epochs 1\n":
        "rocprofv3 --hip-trace --kernel-trace --memory-copy-trace --marker-trace --output-format pftrace -o rep -- "
        "python train.py --epochs 1\n",
    "ncu --csv -k gemm --export out ./app 3\n":
        "rocprofv3 --kernel-trace --stats --output-format csv --kernel-include-regex gemm -o out -- ./app 3\n",
    "nvprof --print-gpu-trace ./app\n": "rocprofv3 --hip-trace --kernel-trace --stats -- ./app\n",
    "/usr/local/cuda/bin/nsys profile --stats=false -o 'my report' ./app\n":
        "rocprofv3 --hip-trace --kernel-trace --memory-copy-trace --marker-trace --output-format pftrace -o "
        "'my report' -- ./app\n",
}


@pytest.mark.parametrize(("before", "after"), list(CASES.items()))
def test_profiler_commands_become_rocprofv3(before: str, after: str, tmp_path: Path) -> None:
    done = shell.migrate("prof.sh", before, DeployOptions(rocm="6.4"))
    out = apply_edits(before, done.edits)
    assert out == after
    assert {f.rule for f in done.findings} >= {"C2R-M411"}
    assert apply_edits(out, shell.migrate("prof.sh", out, DeployOptions(rocm="6.4")).edits) == out
    if shutil.which("bash"):
        (tmp_path / "p.sh").write_text(out)
        assert subprocess.run(["bash", "-n", str(tmp_path / "p.sh")], check=False).returncode == 0


def test_options_without_a_counterpart_are_reported() -> None:
    text = "nsys profile -t cuda,osrt --capture-range=cudaProfilerApi ./app\nncu --set full --metrics a,b ./app\n"
    done = shell.migrate("prof.sh", text, DeployOptions(rocm="6.4"))
    left = sorted(f.message.split(" left out")[0] for f in done.findings if f.rule == "C2R-M412")
    assert left == ["ncu --metrics a", "ncu --metrics b", "ncu --set=full", "nsys --capture-range=cudaProfilerApi",
                    "nsys -t osrt"]


def test_before_rocprofv3_the_command_is_reported_not_rewritten() -> None:
    text = "nsys profile -o rep ./app\n"
    done = shell.migrate("prof.sh", text, DeployOptions(rocm="6.1"))
    assert not done.edits and [f.rule for f in done.findings] == ["C2R-M411"]


def test_other_nsys_subcommands_and_a_bare_tool_are_left() -> None:
    for text in ("nsys stats report.nsys-rep\n", "ncu --version\n", "echo ncu\n"):
        assert not shell.migrate("prof.sh", text, DeployOptions(rocm="6.4")).edits, text


def test_table_rows_are_well_formed() -> None:
    import csv
    import io
    from importlib import resources

    text = resources.files("cuda2rocm.migrate.deploy").joinpath("data/profilers.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO("\n".join(ln for ln in text.splitlines() if ln and not ln.startswith("#")))))
    assert all(len(r) == 6 for r in rows), [r for r in rows if len(r) != 6]
    assert {r[3] for r in rows[1:]} <= {"map", "drop", "report"}


def test_ncu_metrics_become_counters_where_rocprof_has_them() -> None:
    text = ("ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,"
            "sm__warps_active.avg.pct_of_peak_sustained_active ./app\n")
    done = shell.migrate("prof.sh", text, DeployOptions(rocm="6.4"))
    assert apply_edits(text, done.edits) == "rocprofv3 --kernel-trace --stats --pmc FETCH_SIZE L2CacheHit -- ./app\n"
    (left,) = [f.message for f in done.findings if f.rule == "C2R-M412"]
    assert "sm__warps_active" in left and "bench occupancy" in left
