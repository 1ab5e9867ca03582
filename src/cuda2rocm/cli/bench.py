"""``cuda2rocm bench``: run, compare, service metrics and soak. Parses, calls the library, prints."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cuda2rocm import envelope, report
from cuda2rocm.perf import compare as cmp
from cuda2rocm.perf import cost, fingerprint, ingest, kernels, records, runner, service, soak, telemetry
from cuda2rocm.perf.stats import summarize
from cuda2rocm.report._bench import fmt_number as _fmt
from cuda2rocm.results.perf import Report


def load_side(paths: Sequence[str], console: Console, rename: dict[str, str] | None = None) -> ingest.Loaded:
    loaded = ingest.load([Path(p) for p in paths], rename)
    for problem in loaded.problems:
        console.print(f"[yellow]warning[/]: {escape(problem)}")
    return loaded


def compare_paths(base: Sequence[str], cand: Sequence[str], policy: cmp.Policy, console: Console,
                  kernel_map: dict[str, str] | None = None) -> Report | None:
    b, c = load_side(base, console, kernel_map), load_side(cand, console)
    if not b.metrics or not c.metrics:
        console.print("[red]error[/]: no metrics found in " + ("the baseline" if not b.metrics else "the candidate"))
        return None
    try:
        report = cmp.compare(b.metrics, c.metrics, policy)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    return cmp.with_env(report, b.env, c.env)


def _costs(report: Report, metric: str, prices: tuple[float, float], gpus: int) -> dict[str, str]:
    row = next((r for r in report.results if r.name == metric), None)
    if row is None:
        raise click.BadParameter(f"--task-metric {metric!r} is not among the compared metrics")
    base = cost.per_task(row.base.median, row.direction, prices[0], gpus)
    cand = cost.per_task(row.cand.median, row.direction, prices[1], gpus)
    return {metric: f"baseline {base:.6g}, candidate {cand:.6g} (x{cand / base:.3f})" if base else "-"}


@click.group(name="bench")
def command() -> None:
    """Benchmark a command or callable, compare baseline vs candidate, service metrics, soak."""


@command.command(name="compare")
@click.argument("base", type=click.Path(exists=True, dir_okay=False))
@click.argument("cand", type=click.Path(exists=True, dir_okay=False))
@click.option("--also-base", multiple=True, type=click.Path(exists=True, dir_okay=False), help="More baseline runs.")
@click.option("--also-cand", multiple=True, type=click.Path(exists=True, dir_okay=False), help="More candidate runs.")
@click.option("-t", "--threshold", multiple=True, help="e.g. 'tokens_per_s>=0.9x', 'p99*<=1.1x', 'mem_gb<=70'.")
@click.option("--alpha", default=0.05, show_default=True, help="Significance level of the Mann-Whitney U test.")
@click.option("--tolerance", default=0.05, show_default=True, help="Changes below this fraction are never flagged.")
@click.option("--task-metric", help="Metric that is time per task (s) or tasks/s, for cost per task.")
@click.option("--price", nargs=2, type=float, metavar="BASE CAND", help="Price per GPU-hour of each platform.")
@click.option("--gpus", default=1, show_default=True, help="GPUs per task (for cost).")
@click.option("--kernel-map", type=click.Path(exists=True, dir_okay=False),
              help="YAML: baseline kernel name -> candidate kernel name, for kernels renamed in the port.")
def compare_command(base: str, cand: str, also_base: tuple[str, ...], also_cand: tuple[str, ...],
                    threshold: tuple[str, ...], alpha: float, tolerance: float, task_metric: str | None,
                    price: tuple[float, float] | None, gpus: int, kernel_map: str | None) -> int:
    """Compare BASE vs CAND (our JSONL, pytest-benchmark JSON or nccl-tests output) metric by metric."""
    console = Console()
    try:
        policy = cmp.policy_from(threshold, alpha, tolerance)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    result = compare_paths([base, *also_base], [cand, *also_cand], policy, console, _kernel_map(kernel_map))
    if result is None:
        return 2
    if task_metric and price:
        result = Report(result.results, result.env_differences, _costs(result, task_metric, price, gpus))
    envelope.publish("bench-compare", result)
    for role, paths in (("baseline", [base, *also_base]), ("candidate", [cand, *also_cand])):
        for path in paths:
            envelope.attach(role, path)
    console.print(report.render(result, "rich"))
    return result.exit_code


def _workload(call: str | None, argv: tuple[str, ...]) -> tuple[str, Callable[[], Any]]:
    if call and argv:
        raise click.UsageError("give either --callable or a command after --, not both")
    if call:
        try:
            return call, runner.load_callable(call)
        except (ImportError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--callable") from None
    if not argv:
        raise click.UsageError("nothing to run: give --callable MODULE:FUNC or -- COMMAND ARGS")

    def run_once() -> None:
        res = runner.run_command(argv, runs=1, warmup=0)
        if res.errors:
            raise RuntimeError(res.errors[0])

    return " ".join(argv), run_once


def _write(out: str | None, recs: list[dict[str, Any]], force: bool) -> None:
    if out:
        try:
            records.write_jsonl(Path(out), recs, force=force)
        except FileExistsError as exc:
            raise click.UsageError(str(exc)) from None


def _telemetry(enabled: bool, console: Console) -> telemetry.Sampler | None:
    if not enabled:
        return None
    name, source = telemetry.find_source()
    if source is None:
        console.print("[yellow]telemetry[/]: no NVML, nvidia-smi, amd-smi or rocm-smi here; not sampled")
        return None
    console.print(f"telemetry: sampling every second via {name}")
    return telemetry.Sampler(source).start()


def _show_telemetry(console: Console, summary: dict[str, dict[str, Any]]) -> None:
    for gpu, entry in summary.items():
        power = entry.get("power_w", {})
        console.print(f"{gpu}: power {_fmt(power.get('mean', float('nan')), '.0f')} W mean "
                      f"{entry.get('power_spark', '')}  throttled {entry['throttled_fraction']:.0%}  "
                      f"ECC +{entry.get('ecc_increase') or 0}")


@command.command(name="run", context_settings={"ignore_unknown_options": True})
@click.option("--callable", "call", help="MODULE:FUNCTION to call (GPU work is timed with device events).")
@click.option("-n", "--runs", default=10, show_default=True)
@click.option("--warmup", default=2, show_default=True)
@click.option("--name", help="Metric name (default: the command or callable, with /time_s).")
@click.option("--telemetry", "with_telemetry", is_flag=True, help="Sample GPU power/temp/clocks/ECC every second.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write JSONL metric records here.")
@click.option("--force", is_flag=True, help="Overwrite --out.")
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def run_command(call: str | None, runs: int, warmup: int, name: str | None, with_telemetry: bool, out: str | None,
                force: bool, argv: tuple[str, ...]) -> int:
    """Time a command (after --) or a callable RUNS times after WARMUP runs."""
    console = Console()
    label, _ = _workload(call, argv)
    sampler = _telemetry(with_telemetry, console)
    try:
        result = (runner.time_callable(runner.load_callable(call), runs, warmup, label) if call
                  else runner.run_command(argv, runs, warmup))
    finally:
        summary = telemetry.summarize(sampler.stop()) if sampler else {}
    recs = runner.to_records(result, fingerprint.fingerprint(), f"{name}/time_s" if name else "")
    if summary:
        recs.append({"kind": "run", "telemetry": summary})
        _show_telemetry(console, summary)
    _write(out, recs, force)
    envelope.publish("bench-run", recs, machine=envelope.machine_id(recs[0]["env"]) if "env" in recs[0] else None)
    st = summarize(result.samples)
    console.print(f"{label}: {st.n} runs ({result.timer}), median {_fmt(st.median)} s, "
                  f"IQR {_fmt(st.iqr)} s, CV {_fmt(st.cv, '.1%')}, errors {len(result.errors)}")
    for error in result.errors[:5]:
        console.print(f"[red]error[/]: {escape(error)}")
    return 1 if result.errors else 0


def _kernel_map(path: str | None) -> dict[str, str]:
    """``--kernel-map``: YAML mapping of baseline kernel names (or keys) -> the candidate's keys."""
    if not path:
        return {}
    from ruamel.yaml import YAML, YAMLError

    try:
        data = YAML(typ="safe").load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--kernel-map") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise click.BadParameter(f"{path}: expected a mapping of kernel names to kernel names",
                                 param_hint="--kernel-map")
    return dict(data)


@command.command(name="kernels", context_settings={"ignore_unknown_options": True})
@click.option("--profiler", type=click.Choice(["auto", *kernels.PROFILERS]), default="auto", show_default=True,
              help="ncu on NVIDIA, rocprofv3 on AMD.")
@click.option("--from", "from_file", type=click.Path(exists=True, dir_okay=False),
              help="Read an existing ncu CSV or rocprofv3 kernel_trace.csv instead of running a command.")
@click.option("--keep", type=click.Path(file_okay=False), help="Keep the profiler's raw output in this directory.")
@click.option("--profiler-option", "profiler_options", multiple=True, metavar="OPT",
              help="Pass OPT to the profiler before the command (repeatable; a value is its own OPT: "
                   "--profiler-option=--clock-control --profiler-option=base). ncu runs with --clock-control none "
                   "unless one is given; the clock mode is recorded with each kernel.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write JSONL records (bench compare reads them).")
@click.option("--force", is_flag=True, help="Overwrite --out.")
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def kernels_command(profiler: str, from_file: str | None, keep: str | None, profiler_options: tuple[str, ...],
                    out: str | None, force: bool, argv: tuple[str, ...]) -> int:
    """Per-kernel records of a command (after --) run under the platform's profiler: calls, total and mean
    time, registers, shared memory/LDS per block, achieved occupancy, DRAM throughput where the profiler gives
    them. `bench compare` compares two such files kernel by kernel (--kernel-map for renamed kernels)."""
    import tempfile

    console = Console()
    if from_file and argv:
        raise click.UsageError("give a command or --from FILE, not both")
    status = 0
    clock = ""
    if from_file:
        if profiler_options:
            raise click.UsageError("--profiler-option applies to a command run here, not to --from FILE")
        parsed = kernels.parse(records.read_text(Path(from_file)), from_file)
    elif argv:
        try:
            chosen = kernels.pick_profiler(profiler)
        except FileNotFoundError as exc:
            raise click.UsageError(str(exc)) from None
        clock = kernels.clock_control(chosen, profiler_options)
        with tempfile.TemporaryDirectory(prefix="c2r-kernels-") as tmp:
            parsed, status, _ = kernels.profile(argv, chosen, keep or tmp, options=profiler_options)
    else:
        raise click.UsageError("give the command to profile after --, or --from FILE")
    for problem in parsed.problems[:20]:
        console.print(f"[yellow]warning[/]: {escape(problem)}")
    if not parsed.launches:
        console.print("[red]error[/]: no kernel launches recorded")
        return 2 if from_file else 1
    recs = kernels.metric_records(parsed.launches, profiler=parsed.profiler, clock=clock)
    _write(out, recs, force)
    envelope.publish("bench-run", recs)
    table = Table(title=f"kernels ({parsed.profiler})")
    for column in ("kernel", "calls", "total s", "mean s", "registers", "shared B", "occupancy %"):
        table.add_column(column, justify="left" if column == "kernel" else "right")
    for s in kernels.summarize(parsed.launches):
        table.add_row(escape(s.key), str(s.calls), _fmt(s.total_s), _fmt(s.mean_s),
                      _fmt(s.facts.get("registers", float("nan")), ".0f"),
                      _fmt(s.facts.get("shared_bytes", float("nan")), ".0f"),
                      _fmt(s.facts.get("achieved_occupancy_pct", float("nan")), ".1f"))
    console.print(table)
    return 1 if status else 0


@command.command(name="occupancy")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--target-gpu", default="MI300X,MI250X", show_default=True, metavar="GPU,...",
              help="AMD GPUs (knowledge base) to estimate for.")
@click.option("--block-size", type=click.IntRange(min=1, max=1024), default=256, show_default=True,
              help="Threads per block the kernels are launched with.")
@click.option("-I", "includes", multiple=True, metavar="DIR", help="Include directory for the compile.")
@click.option("--json", "as_json", is_flag=True, help="JSON on stdout instead of the table.")
def occupancy_command(sources: tuple[str, ...], target_gpu: str, block_size: int, includes: tuple[str, ...],
                      as_json: bool) -> int:
    """Static occupancy of translated HIP kernels on AMD GPUs, from hipcc's own resource report (registers,
    LDS) and the GPU's limits: which kernels run fewer waves per SIMD than the hardware allows, and why."""
    import json as _json

    from cuda2rocm import knowledge
    from cuda2rocm.perf import occupancy as occ

    console = Console()
    gpus = [g.strip() for g in target_gpu.split(",") if g.strip()]
    for name in gpus:
        gpu = knowledge.get_gpu(name)
        if gpu is None or not gpu.gfx_target:
            raise click.BadParameter(f"not an AMD GPU the knowledge base knows: {name}", param_hint="--target-gpu")
    rows: list[occ.Estimate] = []
    failed = False
    for name in gpus:
        gpu = knowledge.get_gpu(name)
        assert gpu is not None
        for source in sources:
            kernels_found, error = occ.compile_report(Path(source), gpu.gfx_target, extra=[f"-I{d}" for d in includes])
            if error:
                console.print(f"[red]error[/]: {escape(error)}", highlight=False)
                failed = True
            compiled = occ.COMPILE_AS.get(gpu.gfx_target, gpu.gfx_target) if kernels_found else gpu.gfx_target
            rows.extend(occ.estimate(k, name, block_size, compiled_for=compiled) for k in kernels_found)
    if as_json:
        click.echo(_json.dumps([{"kernel": occ.demangle(e.kernel.function), "gpu": e.gpu, "gfx": e.gfx,
                                 "compiled_for": e.compiled_for, "vgprs": e.kernel.vgprs, "agprs": e.kernel.agprs,
                                 "sgprs": e.kernel.sgprs, "lds_bytes": e.kernel.lds_bytes,
                                 "block_size": e.block_size, "waves_per_simd": e.waves_per_simd,
                                 "max_waves_per_simd": e.max_waves_per_simd, "limited_by": e.limited_by}
                                for e in rows], indent=2))
    else:
        table = Table(title=f"static occupancy, blocks of {block_size} threads")
        for column in ("kernel", "GPU", "VGPR+AGPR", "SGPR", "LDS B", "waves/SIMD", "of max", "limited by"):
            table.add_column(column, justify="left" if column in ("kernel", "GPU", "limited by") else "right")
        for e in rows:
            gpu_text = e.gpu + (f" ({e.compiled_for})" if e.compiled_for != e.gfx else "")
            table.add_row(escape(occ.demangle(e.kernel.function)), gpu_text, str(e.kernel.vgprs + e.kernel.agprs),
                          str(e.kernel.sgprs), str(e.kernel.lds_bytes), str(e.waves_per_simd),
                          f"{e.fraction:.0%}", e.limited_by)
        console.print(table)
    return 2 if failed and not rows else 0


def _levels(text: str) -> list[int]:
    try:
        levels = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"not a list of integers: {text!r}", param_hint="--concurrency") from None
    if not levels or min(levels) < 1:
        raise click.BadParameter("concurrency levels must be >= 1", param_hint="--concurrency")
    return levels


@command.command(name="service")
@click.option("--log", type=click.Path(exists=True, dir_okay=False), help="JSONL request log.")
@click.option("--callable", "call", help="MODULE:FUNCTION serving one request (an iterator = streaming).")
@click.option("--concurrency", default="1,4,16", show_default=True, help="Concurrency levels for --callable.")
@click.option("--requests", default=64, show_default=True, help="Requests per concurrency level.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write JSONL metric records here.")
@click.option("--force", is_flag=True)
def service_command(log: str | None, call: str | None, concurrency: str, requests: int, out: str | None,
                    force: bool) -> int:
    """p50/p95/p99 latency, TTFT and throughput from a request log or a callable under load."""
    console = Console()
    if bool(log) == bool(call):
        raise click.UsageError("give exactly one of --log or --callable")
    if log:
        loaded = records.read_jsonl(Path(log))
        reqs = [r for r in (service.request_from_record(x) for x in loaded.records) if r is not None]
        for problem in loaded.problems:
            console.print(f"[yellow]warning[/]: {escape(problem)}")
        if not reqs:
            console.print(f"[red]error[/]: {escape(str(log))}: no request records "
                          "(need latency_s, latency_ms or start/end)")
            return 2
        values = service.summarize(reqs)
    else:
        _, fn = _workload(call, ())
        values = service.sweep(fn, _levels(concurrency), requests)
    table = Table("metric", "value")
    for key, value in values.items():
        table.add_row(key, _fmt(value))
    console.print(table)
    env = fingerprint.fingerprint()
    recs = [{"metric": k, "value": v, "env": env} for k, v in values.items()]
    _write(out, recs, force)
    envelope.publish("bench-run", recs, machine=envelope.machine_id(env))
    return 0


@command.command(name="soak", context_settings={"ignore_unknown_options": True})
@click.option("--duration", default=600.0, show_default=True, help="Seconds to keep the workload running.")
@click.option("--callable", "call", help="MODULE:FUNCTION, one iteration.")
@click.option("--max-drift", default=0.05, show_default=True, help="Allowed slow-down, last vs first fifth.")
@click.option("--telemetry/--no-telemetry", "with_telemetry", default=True, show_default=True)
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Write a JSONL summary here.")
@click.option("--force", is_flag=True)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def soak_command(duration: float, call: str | None, max_drift: float, with_telemetry: bool, out: str | None,
                 force: bool, argv: tuple[str, ...]) -> int:
    """Sustained stability: drift, throttling and errors over DURATION seconds."""
    console = Console()
    label, fn = _workload(call, argv)
    _, source = telemetry.find_source() if with_telemetry else ("none", None)
    result = soak.soak(fn, duration, source)
    problems = result.problems(max_drift)
    console.print(f"{label}: {len(result.times)} iterations, drift {_fmt(result.drift(), '+.1%')}, "
                  f"slope {_fmt(result.slope_per_hour(), '+.1%')}/h, errors {len(result.errors)}")
    _show_telemetry(console, result.telemetry)
    for line in problems:
        console.print(f"[red]problem[/]: {escape(line)}")
    env = fingerprint.fingerprint()
    recs = [{"metric": f"{label}/iteration_s", "values": [d for _, d in result.times], "better": "lower",
             "drift": result.drift(), "errors": result.errors, "telemetry": result.telemetry, "env": env}]
    _write(out, recs, force)
    envelope.publish("bench-run", recs, machine=envelope.machine_id(env))
    return 1 if problems else 0
