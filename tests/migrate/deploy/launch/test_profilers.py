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


# issue 30, class 10: options with a separate value, ncu's regex: filter, readers of the old report
VALUE_CASES = {
    "ncu --clock-control none ./app\n": "rocprofv3 --kernel-trace --stats -- ./app\n",
    "ncu --replay-mode kernel -k regex:gemm.* -o out ./app x\n":
        "rocprofv3 --kernel-trace --stats --kernel-include-regex 'gemm.*' -o out -- ./app x\n",
    "nsys profile --cuda-memory-usage true -o t ./app\n":
        "rocprofv3 --hip-trace --kernel-trace --memory-copy-trace --marker-trace --output-format pftrace -o t -- "
        "./app\n",
    "nvprof --profile-from-start off --log-file log.txt ./app\n":
        "rocprofv3 --hip-trace --kernel-trace --stats -- ./app\n",
}


@pytest.mark.parametrize(("before", "after"), list(VALUE_CASES.items()))
def test_an_option_value_is_not_the_profiled_program(before: str, after: str) -> None:
    done = shell.migrate("prof.sh", before, DeployOptions(rocm="6.4"))
    assert apply_edits(before, done.edits) == after
    left = [f.message for f in done.findings if f.rule == "C2R-M412"]
    assert left and all("=" in m.split(" left out")[0] for m in left), left  # each option named with its value


def test_an_option_no_table_knows_is_reported_not_guessed() -> None:
    text = "ncu --some-future-option x ./app\n"
    done = shell.migrate("prof.sh", text, DeployOptions(rocm="6.4"))
    assert not done.edits
    (finding,) = done.findings
    assert finding.rule == "C2R-M411" and "--some-future-option" in finding.message


@pytest.mark.parametrize("text", ["nsys stats t.nsys-rep\n", "nsys export --type sqlite rep.nsys-rep\n",
                                  "ncu --import out.ncu-rep --page raw\n", "ncu -i out.ncu-rep\n"])
def test_a_reader_of_the_nvidia_report_is_reported(text: str) -> None:
    done = shell.migrate("prof.sh", text, DeployOptions(rocm="6.4"))
    assert not done.edits
    assert [f.rule for f in done.findings] == ["C2R-M411"] and "rocprofv3" in done.findings[0].message


def test_every_option_of_the_mapping_table_has_its_arity_listed_once() -> None:
    from cuda2rocm.datafiles import packaged_csv
    from cuda2rocm.migrate.deploy import profilers

    arity = packaged_csv("cuda2rocm.migrate.deploy", "data/profiler_options.csv")
    keys = [(r["tool"], r["option"]) for r in arity]
    assert len(keys) == len(set(keys)) and {r["value"] for r in arity} == {"yes", "no"}
    listed = {(r["tool"], r["option"]): r["value"] == "yes" for r in arity}
    for r in packaged_csv("cuda2rocm.migrate.deploy", "data/profilers.csv"):
        if r["option"].startswith("-"):  # the two tables agree wherever both name an option
            assert listed.get((r["tool"], r["option"]), r["value"] == "yes") == (r["value"] == "yes"), r
            assert profilers.takes_value(r["tool"], r["option"]) is not None
