"""Real torch.distributed runs (torchrun + gloo on CPU): the same code paths the GPUs use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from cuda2rocm.cli.main import main
from cuda2rocm.perf import collectives, compare, ingest

ALL_OPS = "all_reduce,all_gather,reduce_scatter,all_to_all,broadcast,sendrecv"


@pytest.mark.parametrize("world", [2, 4])
def test_every_collective_is_correct_on_n_ranks(tmp_path, comm_runner, world):
    rc, recs, log = comm_runner(tmp_path, world, "--ops", ALL_OPS, "-b", "1K", "-e", "16K", "-f", "16",
                                "--dtypes", "float32,bfloat16", "--timing", "wall", "--reps", "2", "--max-iters", "3")
    assert rc == 0, log
    header, results = recs[0], recs[1:]
    assert header["kind"] == "comm-run" and header["world_size"] == world
    assert header["backend_library"] == "gloo" and "NOT NCCL/RCCL" in header["backend"]
    assert header["env"]["fingerprint_source"]
    # 6 ops, 2 dtypes, 2 sizes; all_gather and reduce_scatter in- and out-of-place
    assert len(results) == (6 + 2) * 2 * 2
    assert all(r["correct"] is True and r["wrong"] == 0 and not r.get("error") for r in results), log
    for r in results:
        assert r["world_size"] == world and len(r["samples_us"]) == 2
        assert r["busbw_gbps"] == pytest.approx(r["algbw_gbps"] * _factor(r["op"], world))
    assert "gloo on CPU" in log


def _factor(op, n):
    return {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0, "sendrecv": 1.0}.get(op, (n - 1) / n)


RESULTS = Path(__file__).parents[2] / "benchmarks/results/comm-h200x2-2026-11-30"


def test_compare_two_comm_runs_reuses_bench(capsys):
    """Two H200 runs of the same sweep: >= 16 MB they agree within 5%; the eager loops at 1-4 MB are
    CPU-launch bound and varied between the runs, which the comparison must flag."""
    a, b = RESULTS / "first-run/allreduce.jsonl", RESULTS / "allreduce.jsonl"
    policy = compare.policy_from(["*/events/*>=0.95x", "*/wall/*>=0.95x"])
    report = compare.compare(ingest.load([a]).metrics, ingest.load([b]).metrics, policy)
    failing = {int(r.name.split("/")[4]) for r in report.results if r.verdict == "fail"}
    assert failing and max(failing) <= 4 << 20
    assert len(report.results) == 42
    assert main(["comm", "--compare", str(a), str(b), "--threshold", "*/events/*>=0.95x"]) == 1
    assert main(["comm", "--compare", str(a), str(b), "--threshold", "*busbw_gbps>=0.5x"]) == 0
    assert "ok=42" in capsys.readouterr().out


def test_the_help_example_threshold_gates_comm_metrics(capsys):
    """`--threshold` in `comm --help` names the metric's last part; it must match the full metric paths
    (comm/all_reduce/.../busbw_gbps) and fail the 1-4 MB eager sizes that differ between the two runs."""
    import re

    from click.testing import CliRunner

    from cuda2rocm.cli.comm import command

    help_text = CliRunner().invoke(command, ["--help"], terminal_width=200).output
    example = re.search(r"e\.g\. '([^']+)'", help_text)
    assert example and example.group(1) == "busbw_gbps>=0.95x"
    a, b = RESULTS / "first-run/allreduce.jsonl", RESULTS / "allreduce.jsonl"
    assert main(["comm", "--compare", str(a), str(b), "--threshold", example.group(1)]) == 1
    assert main(["comm", "--compare", str(a), str(b), "--threshold", "busbw<=1.1x"]) == 2
    assert "matches no metric" in capsys.readouterr().err


def test_usage_errors_exit_2(tmp_path):
    assert main(["comm", "--ops", "allreduce", "--nproc", "2"]) == 2
    assert main(["comm", "-b", "1G", "-e", "1M", "--nproc", "2"]) == 2
    assert main(["comm", "--ops", "all_reduce"]) == 2  # not under torchrun and no --nproc
    if not torch.cuda.is_available():
        assert main(["comm", "--backend", "nccl", "--nproc", "2"]) == 2  # refused before starting torchrun


def test_wrong_results_are_counted():
    case = collectives.Case("all_reduce", 10, torch.float32, True, 0, 1, torch.device("cpu"))
    p = collectives.pattern(10, torch.float32, case.device)
    assert p.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    good = collectives.Buffers(p.clone(), p.clone(), p.clone(), lambda: None)
    assert collectives.mismatches(good) == 0
    good.output[3] += 1
    assert collectives.mismatches(good) == 1


@pytest.mark.parametrize(("op", "world", "count"), [("all_reduce", 3, 256), ("all_gather", 3, 255),
                                                    ("all_to_all", 4, 256), ("reduce_scatter", 3, 255)])
def test_element_counts_split_evenly(op, world, count):
    assert collectives.element_count(op, 1024, torch.float32, world) == count


def test_quiet_run_prints_no_table(tmp_path, comm_runner):
    """`comm --quiet` printed the full table anyway (the parent of torchrun ignored it)."""
    rc, recs, log = comm_runner(tmp_path, 2, "-b", "1K", "-e", "1K", "--timing", "wall", "--reps", "2",
                                "--max-iters", "2", "--quiet")
    assert rc == 0 and len(recs) == 2, log
    assert "busbw GB/s" not in log and "link peak" not in log and "FAILED" not in log


_HEADER = {"kind": "comm-run", "backend": "gloo", "world_size": 2, "warnings": ["asked for NCCL, got gloo"],
           "backend_problems": ["asked for NCCL, got gloo"]}
_WRONG = {"kind": "comm", "op": "all_reduce", "dtype": "float32", "bytes": 1024, "in_place": True,
          "correct": False, "wrong": 3, "time_us": 10.0, "algbw_gbps": 0.1, "busbw_gbps": 0.1}


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_failures_are_explained(tmp_path, quiet):
    """With --quiet an exit code of 1 came with no output (backend problems): rank 0 prints the lines that
    explain it, and the torchrun parent adds the table only without --quiet."""
    from rich.console import Console

    from cuda2rocm.cli.comm import _show, _verdict

    console = Console(record=True, width=200)
    assert _verdict(console, _HEADER, [_WRONG], quiet) == 1
    text = console.export_text()
    assert "FAILED all_reduce float32 1K: 3 wrong elements" in text
    assert ("FAILED backend: asked for NCCL, got gloo" in text) is quiet
    console = Console(record=True, width=200)
    assert _verdict(console, {**_HEADER, "warnings": []}, [], True) == 1
    assert console.export_text().strip() == "FAILED backend: asked for NCCL, got gloo"
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (_HEADER, _WRONG)) + "\n")
    console = Console(record=True, width=200)
    assert _show(path, console, False, quiet=quiet) == 1
    assert ("busbw GB/s" in console.export_text()) is not quiet


def test_quiet_compare_prints_only_the_failing_metrics(capsys):
    a, b = RESULTS / "first-run/allreduce.jsonl", RESULTS / "allreduce.jsonl"
    assert main(["comm", "--compare", str(a), str(b), "-q"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines and all(line.startswith("FAILED comm/all_reduce/") for line in lines)
    assert "fail, ratio 0.657 (threshold *busbw_gbps >= 0.95x)" in out and "metric" not in out
    assert main(["comm", "--compare", str(a), str(b), "-q", "--threshold", "*busbw_gbps>=0.5x"]) == 0
    assert capsys.readouterr().out == ""
