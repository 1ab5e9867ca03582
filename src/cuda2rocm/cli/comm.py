"""``cuda2rocm comm``: collective bandwidth over torch.distributed (NCCL/RCCL on GPUs, gloo on CPU)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape

from cuda2rocm import envelope, report
from cuda2rocm.cli._extras import require_torch
from cuda2rocm.perf import bandwidth, comm_table, commnames, launch

if TYPE_CHECKING:
    from cuda2rocm.perf.commbench import SweepConfig


def _csv(value: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    items = tuple(v.strip() for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise click.BadParameter(f"unknown {what} {bad or value!r}; choose from {', '.join(allowed)}")
    return items


def _config(p: dict[str, Any]) -> SweepConfig:
    from cuda2rocm.perf.commbench import SweepConfig

    try:
        sizes = bandwidth.size_sweep(bandwidth.parse_size(p["begin"]), bandwidth.parse_size(p["end"]), p["factor"])
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return SweepConfig(
        ops=_csv(p["ops"], commnames.COLLECTIVES, "op"), sizes=tuple(sizes),
        dtypes=_csv(p["dtypes"], commnames.DTYPES, "dtype"), placement=p["placement"],
        timing=_csv(p["timing"], ("auto", "graph", "events", "wall"), "timing mode"),
        warmup=p["warmup"], reps=p["reps"],
        max_iters=p["max_iters"], check=not p["no_check"], labels=dict(_labels(p["label"])),
    )


def _labels(items: tuple[str, ...]) -> list[tuple[str, str]]:
    pairs = [item.split("=", 1) for item in items]
    if any(len(pair) != 2 for pair in pairs):
        raise click.BadParameter("--label takes KEY=VALUE")
    return [(k, v) for k, v in pairs]


def _worker_args(p: dict[str, Any], out: Path) -> list[str]:
    args = ["--ops", p["ops"], "--begin", p["begin"], "--end", p["end"], "--factor", str(p["factor"]),
            "--dtypes", p["dtypes"], "--placement", p["placement"], "--timing", p["timing"],
            "--warmup", str(p["warmup"]), "--reps", str(p["reps"]), "--max-iters", str(p["max_iters"]),
            "--backend", p["backend"], "--out", str(out), "--force", "--quiet"]
    args += ["--no-check"] if p["no_check"] else []
    for label in p["label"]:
        args += ["--label", label]
    return args


def _spawn(p: dict[str, Any], console: Console) -> int:
    """Start torchrun with --nproc ranks on this node, then show the rank-0 results."""
    out = Path(p["out"]) if p["out"] else Path(tempfile.mkdtemp(prefix="c2r-comm-")) / "comm.jsonl"
    if out.exists() and not p["force"]:
        raise click.UsageError(f"{out} exists (use --force to overwrite)")
    argv = launch.torchrun_argv(p["nproc"], _worker_args(p, out))
    done = subprocess.run(argv, check=False)
    if done.returncode != 0 or not out.exists():
        console.print(f"[red]torchrun exited with {done.returncode}[/]")
        return 1
    return _show(out, console, p["json"], p["quiet"])


def _exit_code(header: dict[str, Any], recs: list[dict[str, Any]]) -> int:
    return 1 if comm_table.failures(recs) or header.get("backend_problems") else 0


def _verdict(console: Console, header: dict[str, Any], recs: list[dict[str, Any]], quiet: bool) -> int:
    """Rank 0's lines that explain a failing run (wrong results, errors; with --quiet also the backend problems,
    which the table's header shows otherwise) and the exit code: --quiet never fails silently. Under
    ``--nproc`` the workers run with --quiet, so these lines come from rank 0 and the parent adds the table."""
    for line in comm_table.failures(recs):
        console.print(f"[red]FAILED[/] {escape(line)}", soft_wrap=True)
    for problem in header.get("backend_problems") or [] if quiet else []:
        console.print(f"[red]FAILED[/] backend: {escape(str(problem))}", soft_wrap=True)
    return _exit_code(header, recs)


def _show(path: Path, console: Console, as_json: bool, quiet: bool = False) -> int:
    from cuda2rocm.perf.commrun import load

    run, problems = load(path)
    for problem in problems:
        console.print(f"[yellow]{problem}[/]")
    envelope.publish("comm", run, machine=_machine(run))
    if as_json:
        click.echo(path.read_text(encoding="utf-8"), nl=False)
    elif not quiet:
        console.print(report.render(run, "rich"))
    return _exit_code(run.header, run.records)  # rank 0 (run with --quiet) printed the lines explaining it


def _in_process(p: dict[str, Any], console: Console) -> int:
    from cuda2rocm.perf import comm as comm_lib

    out = Path(p["out"]) if p["out"] else None
    if out is not None and out.exists() and not p["force"] and os.environ.get("RANK", "0") == "0":
        raise click.UsageError(f"{out} exists (use --force to overwrite)")
    run = comm_lib.run(_config(p), p["backend"], out)
    if run is None:
        return 0
    envelope.publish("comm", run, machine=_machine(run))
    if not p["quiet"]:
        console.print(report.render(run, "rich"))
    return _verdict(console, run.header, run.records, p["quiet"])


def _machine(run: Any) -> str | None:
    env = run.header.get("env")
    return envelope.machine_id(env) if isinstance(env, dict) else None


def _compare(p: dict[str, Any], console: Console) -> int:
    from cuda2rocm.cli.bench import compare_paths
    from cuda2rocm.perf import compare

    try:
        policy = compare.policy_from(p["threshold"] or ("*busbw_gbps>=0.95x",))
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    result = compare_paths([p["compare"][0]], [p["compare"][1]], policy, console)
    if result is None:
        return 2
    envelope.publish("bench-compare", result)
    envelope.attach("baseline", p["compare"][0])
    envelope.attach("candidate", p["compare"][1])
    if p["quiet"]:
        for line in result.failures():
            console.print(f"[red]FAILED[/] {escape(line)}", soft_wrap=True)
    else:
        console.print(report.render(result, "rich"))
    return result.exit_code


@click.command(name="comm")
@click.option("--ops", default="all_reduce", show_default=True,
              help=f"Comma list of: {', '.join(commnames.COLLECTIVES)}.")
@click.option("-b", "--begin", default="1M", show_default=True, help="Smallest size (nccl-tests' -b).")
@click.option("-e", "--end", default="64M", show_default=True, help="Largest size (nccl-tests' -e).")
@click.option("-f", "--factor", default=2, show_default=True, help="Size multiplier (nccl-tests' -f).")
@click.option("--dtypes", default="float32", show_default=True, help=f"Comma list of: {', '.join(commnames.DTYPES)}.")
@click.option("--placement", type=click.Choice(["in", "out", "both"]), default="both", show_default=True,
              help="In-place and/or out-of-place buffers (where torch.distributed offers both).")
@click.option("--timing", default="auto", show_default=True,
              help="Comma list of auto (faster of graph/events), graph (CUDA graph replay), events (eager loop "
                   "between device events), wall (plain Python loop, host clock).")
@click.option("--warmup", default=5, show_default=True)
@click.option("--reps", default=5, show_default=True, help="Timed repetitions (samples) per size.")
@click.option("--max-iters", default=100, show_default=True, help="Most calls per timed repetition.")
@click.option("--no-check", is_flag=True, help="Skip the result check (it is on by default, every size).")
@click.option("--backend", type=click.Choice(["auto", "nccl", "rccl", "gloo"]), default="auto", show_default=True)
@click.option("--nproc", type=int, default=0, help="Start torchrun with this many ranks on this node.")
@click.option("--label", multiple=True, help="KEY=VALUE stored in every record (e.g. platform=h200).")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write results as JSONL here.")
@click.option("--force", is_flag=True, help="Overwrite --out.")
@click.option("--json", "json_", is_flag=True, help="Print the JSONL instead of the table.")
@click.option("-q", "--quiet", is_flag=True, help="No table: only the lines explaining a failure (rank 0 still "
              "writes --out).")
@click.option("--compare", nargs=2, type=click.Path(exists=True, dir_okay=False), metavar="BASE CAND",
              help="Compare two comm JSONL files with bench's statistics instead of running.")
@click.option("--threshold", multiple=True, help="For --compare, e.g. 'busbw_gbps>=0.95x'.")
def command(**p: Any) -> int:
    """Collective-communication benchmark (all-reduce, all-gather, ... with nccl-tests' busbw).

    Run under torchrun (torchrun --nproc-per-node N -m cuda2rocm comm ...), or give --nproc N to have
    this command start torchrun. Multi-node: run torchrun on every node with --nnodes, --node-rank,
    --rdzv-backend c10d --rdzv-endpoint HOST:PORT.
    """
    console = Console()
    p["json"] = p.pop("json_")
    if p["compare"]:
        return _compare(p, console)
    require_torch("comm")
    _config(p)  # validate arguments before starting processes
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        return _in_process(p, console)
    if p["nproc"] < 1:
        raise click.UsageError("not under torchrun: give --nproc N (or launch with torchrun -m cuda2rocm comm)")
    if p["backend"] in ("nccl", "rccl") and not _gpu_visible():
        raise click.UsageError(f"--backend {p['backend']} needs GPUs and torch sees none (use --backend gloo on CPU)")
    return _spawn(p, console)


def _gpu_visible() -> bool:
    import torch

    return bool(torch.cuda.is_available())
