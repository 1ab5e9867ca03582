"""Kernel-level records from the platform profilers, as metrics ``bench compare`` compares.

Readers (pure functions over the text a profiler wrote; a bad row is a problem with its file and line, the
rest still loads):

- **Nsight Compute** (NVIDIA): ``ncu --csv --print-units base --metrics <METRICS> CMD`` (:data:`NCU_METRICS`):
  one row per launch and metric, after whatever the program printed. Durations in ns; thousands separators.
- **rocprofv3** (AMD): ``rocprofv3 --kernel-trace --output-format csv -d DIR -- CMD`` writes
  ``*_kernel_trace.csv`` with one row per dispatch: ``Kernel_Name``, ``Start_Timestamp``/``End_Timestamp`` (ns),
  ``LDS_Block_Size``, ``VGPR_Count``, ``Accum_VGPR_Count``, ``SGPR_Count``, ``Workgroup_Size_*``, ``Grid_Size_*``
  (the columns of the rocprofiler-sdk documentation, "Kernel naming and filtering using rocprofv3").

Each launch becomes a sample of ``kernel/<key>/time_s``; static facts (registers, shared memory/LDS per block,
block size, achieved occupancy, DRAM throughput) become ``kernel/<key>/<fact>`` metrics with one value per
launch. ``<key>`` is the kernel's name without its parameter list and blanks (``scale(float *, float, int)``
and ``scale(float*, float, int)`` are both ``scale``), so the same kernel matches across platforms; a mapping
(``--kernel-map``) renames kernels that were renamed in the port. Two overloads of one name keep their
signatures in the key.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: what ``bench kernels`` asks ncu for (base units)
NCU_METRICS = ("gpu__time_duration.sum", "launch__registers_per_thread", "launch__shared_mem_per_block_static",
               "launch__shared_mem_per_block_dynamic", "launch__block_size", "launch__grid_size",
               "sm__warps_active.avg.pct_of_peak_sustained_active",
               "dram__throughput.avg.pct_of_peak_sustained_elapsed")
_NCU_FACTS = {
    "launch__registers_per_thread": ("registers", "registers/thread"),
    "launch__block_size": ("block_size", "threads"),
    "sm__warps_active.avg.pct_of_peak_sustained_active": ("achieved_occupancy_pct", "%"),
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": ("dram_throughput_pct", "%"),
}
_SHARED = ("launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic")
_NCU_HEADER = ('"ID"', '"Process ID"')
ROCPROF_COLUMNS = ("Kernel_Name", "Start_Timestamp", "End_Timestamp")


@dataclass
class Launch:
    """One kernel launch: its name as the profiler wrote it, its duration and what else the profiler gave."""

    name: str
    seconds: float
    facts: dict[str, float] = field(default_factory=dict)  # registers, shared_bytes, block_size, ...


@dataclass(frozen=True)
class Parsed:
    launches: list[Launch]
    problems: list[str]
    profiler: str


def is_ncu_csv(text: str) -> bool:
    return any(line.startswith(",".join(_NCU_HEADER)) for line in text.splitlines()[:200])


def is_rocprof_trace(text: str) -> bool:
    head = text.lstrip().splitlines()[0] if text.strip() else ""
    return all(f'"{c}"' in head or c in head.split(",") for c in ROCPROF_COLUMNS)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def parse_ncu(text: str, where: str = "<ncu>") -> Parsed:
    """Launches from ``ncu --csv --print-units base`` output (raw page, one row per metric)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(",".join(_NCU_HEADER))), None)
    if start is None:
        return Parsed([], [f"{where}: no ncu CSV header (\"ID\",\"Process ID\",...) found"], "ncu")
    by_id: dict[str, Launch] = {}
    problems: list[str] = []
    reader = csv.DictReader(io.StringIO("\n".join(lines[start:])))
    for number, row in enumerate(reader, start + 2):
        if None in row or not row.get("Metric Name"):
            problems.append(f"{where}:{number}: not an ncu metric row")
            continue
        value = _number(row.get("Metric Value") or "")
        if value is None:
            problems.append(f"{where}:{number}: {row['Metric Name']}: not a number: {row.get('Metric Value')!r}")
            continue
        launch = by_id.setdefault(row["ID"], Launch(row.get("Kernel Name") or "?", float("nan")))
        metric, unit = row["Metric Name"], (row.get("Metric Unit") or "")
        if metric == "gpu__time_duration.sum":
            launch.seconds = value * _TIME_SCALE.get(unit, 1e-9)
        elif metric in _SHARED:
            launch.facts["shared_bytes"] = launch.facts.get("shared_bytes", 0.0) + value
        elif metric in _NCU_FACTS:
            launch.facts[_NCU_FACTS[metric][0]] = value
    launches = [launch for launch in by_id.values() if launch.seconds == launch.seconds]
    problems.extend(f"{where}: launch of {launch.name} has no gpu__time_duration.sum" for launch in by_id.values()
                    if launch.seconds != launch.seconds)
    return Parsed(launches, problems, "ncu")


_TIME_SCALE = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3, "s": 1.0,
               "second": 1.0}


def parse_rocprof(text: str, where: str = "<rocprofv3>") -> Parsed:
    """Launches from a rocprofv3 ``kernel_trace.csv``."""
    problems: list[str] = []
    launches: list[Launch] = []
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in ROCPROF_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        return Parsed([], [f"{where}: not a rocprofv3 kernel trace (no {', '.join(missing)} column)"], "rocprofv3")
    for number, row in enumerate(reader, 2):
        start, end = _number(row.get("Start_Timestamp") or ""), _number(row.get("End_Timestamp") or "")
        if start is None or end is None or end < start:
            problems.append(f"{where}:{number}: bad timestamps {row.get('Start_Timestamp')!r}.."
                            f"{row.get('End_Timestamp')!r}")
            continue
        facts: dict[str, float] = {}
        vgpr, agpr = _number(row.get("VGPR_Count") or ""), _number(row.get("Accum_VGPR_Count") or "0")
        if vgpr is not None:
            facts["registers"] = vgpr + (agpr or 0.0)
        lds = _number(row.get("LDS_Block_Size") or "")
        if lds is not None:
            facts["shared_bytes"] = lds
        sizes = [_number(row.get(f"Workgroup_Size_{a}") or "") for a in "XYZ"]
        if all(s is not None for s in sizes):
            facts["block_size"] = float((sizes[0] or 0) * (sizes[1] or 0) * (sizes[2] or 0))
        launches.append(Launch(row.get("Kernel_Name") or "?", (end - start) * 1e-9, facts))
    return Parsed(launches, problems, "rocprofv3")


def parse(text: str, where: str) -> Parsed:
    """Whichever profiler wrote ``text``."""
    if is_ncu_csv(text):
        return parse_ncu(text, where)
    return parse_rocprof(text, where)


def base_name(name: str) -> str:
    """``void scale<float>(float *, int)`` -> ``scale<float>``: no return type, no parameters, blanks only where
    C++ needs them (``unsigned int``, never ``float *``). ``(anonymous namespace)`` is part of the name."""
    depth, cut = 0, len(name)
    for i, ch in enumerate(name):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and not name.startswith(_ANONYMOUS, i):
            cut = i
            break
    head = name[:cut].strip()
    head = re.sub(r"^(?:void|__global__)\s+", "", head)
    return _tidy(head)


def signature(name: str) -> str:
    """The whole name with the same blanks as :func:`base_name` (``void at::k<float>(float*, int)`` ->
    ``void at::k<float>(float*,int)``): two spellings of one signature are one key, and words stay apart."""
    return _tidy(name)


_ANONYMOUS = "(anonymous namespace)"


def _tidy(text: str) -> str:
    """Runs of blanks as one, and none beside punctuation: ``void  at::f<float, 2> (float *)`` ->
    ``void at::f<float,2>(float*)`` (ncu and rocprofv3 spell the same kernel with different blanks)."""
    return re.sub(r"\s*([^\w\s])\s*", r"\1", " ".join(text.split()))


def keys(launches: Iterable[Launch], rename: Mapping[str, str] | None = None) -> dict[str, str]:
    """Profiler name -> metric key (:func:`base_name`, or the full signature where two overloads share one
    base name); ``rename`` maps keys (or full names) of one platform onto the other's."""
    names = {launch.name for launch in launches}
    by_base: dict[str, set[str]] = {}
    for name in names:
        by_base.setdefault(base_name(name), set()).add(signature(name))
    out = {}
    for name in names:
        key = base_name(name) if len(by_base[base_name(name)]) == 1 else signature(name)
        if rename:
            key = rename.get(name, rename.get(key, key))
        out[name] = key
    return out


@dataclass(frozen=True)
class KernelSummary:
    key: str
    name: str
    calls: int
    total_s: float
    mean_s: float
    facts: dict[str, float]


def summarize(launches: Sequence[Launch], rename: Mapping[str, str] | None = None) -> list[KernelSummary]:
    """Per kernel: calls, total and mean time, and the median of each fact; slowest total first."""
    names = keys(launches, rename)
    groups: dict[str, list[Launch]] = {}
    for launch in launches:
        groups.setdefault(names[launch.name], []).append(launch)
    out = []
    for key, group in groups.items():
        total = sum(launch.seconds for launch in group)
        facts: dict[str, float] = {}
        for fact in sorted({f for launch in group for f in launch.facts}):
            values = sorted(launch.facts[fact] for launch in group if fact in launch.facts)
            facts[fact] = values[len(values) // 2]
        out.append(KernelSummary(key, group[0].name, len(group), total, total / len(group), facts))
    return sorted(out, key=lambda s: (-s.total_s, s.key))


def metric_records(launches: Sequence[Launch], rename: Mapping[str, str] | None = None,
                   profiler: str = "", clock: str = "") -> list[dict[str, object]]:
    """Our JSONL records: per kernel, the metric ``kernel/<key>/time_s`` (one value per launch) that ``bench
    compare`` compares, then a ``kind: kernel`` record with its calls, times and facts (registers, shared
    memory, occupancy: shown, not compared; a port changes them by design) and, for a run of ours, the clock mode
    (``clock_control``: ``none`` for ncu unless ``--profiler-option`` said otherwise, ``unlocked`` for rocprofv3)."""
    names = keys(launches, rename)
    grouped: dict[str, list[Launch]] = {}
    for launch in launches:
        grouped.setdefault(names[launch.name], []).append(launch)
    out: list[dict[str, object]] = []
    summaries = {s.key: s for s in summarize(launches, rename)}
    for key in sorted(grouped):
        summary = summaries[key]
        out.append({"metric": f"kernel/{key}/time_s", "values": [launch.seconds for launch in grouped[key]],
                    "unit": "s", "better": "lower"})
        out.append({"kind": "kernel", "key": key, "name": summary.name, "calls": summary.calls,
                    "total_s": summary.total_s, "mean_s": summary.mean_s, "facts": summary.facts,
                    "profiler": profiler, **({"clock_control": clock} if clock else {})})
    return out


# -- running a command under the platform's profiler ---------------------------------------------------------

PROFILERS = ("ncu", "rocprofv3")


def pick_profiler(wanted: str = "auto") -> str:
    """``ncu`` or ``rocprofv3``: the one asked for, else the one installed (ncu where an NVIDIA driver is)."""
    import shutil

    if wanted != "auto":
        if shutil.which(wanted) is None:
            raise FileNotFoundError(f"{wanted} is not on PATH")
        return wanted
    if shutil.which("ncu") and shutil.which("nvidia-smi"):
        return "ncu"
    if shutil.which("rocprofv3"):
        return "rocprofv3"
    if shutil.which("ncu"):
        return "ncu"
    raise FileNotFoundError("neither ncu (Nsight Compute) nor rocprofv3 is on PATH")


#: ncu's default clock mode for ``bench kernels``: the GPU's own clocks. ncu locks them to base by default, and
#: times under locked clocks do not compare with unlocked runs (a fixture recorded locked shows 94.6 us where
#: unlocked runs give 73.8 us) nor with rocprofv3, which locks nothing.
NCU_CLOCK_CONTROL = "none"


def clock_control(profiler: str, options: Sequence[str] = ()) -> str:
    """The clock mode a run uses: ncu's ``--clock-control`` from ``options``, else :data:`NCU_CLOCK_CONTROL`;
    ``unlocked`` for rocprofv3 (it sets no clocks)."""
    if profiler != "ncu":
        return "unlocked"
    for i, opt in enumerate(options):
        if opt == "--clock-control" and i + 1 < len(options):
            return options[i + 1]
        if opt.startswith("--clock-control="):
            return opt.split("=", 1)[1]
    return NCU_CLOCK_CONTROL


def profiler_command(profiler: str, argv: Sequence[str], out_dir: str, options: Sequence[str] = ()) -> list[str]:
    """The command line: the profiler, our options, the user's ``options`` (``--profiler-option``), the program."""
    if profiler == "ncu":
        clock = [] if any(o.startswith("--clock-control") for o in options) else ["--clock-control",
                                                                                 NCU_CLOCK_CONTROL]
        return ["ncu", "--csv", "--print-units", "base", "--metrics", ",".join(NCU_METRICS), *clock, *options,
                *argv]
    return ["rocprofv3", "--kernel-trace", "--output-format", "csv", "-d", out_dir, "-o", "run", *options, "--",
            *argv]


def profile(argv: Sequence[str], profiler: str, out_dir: str, timeout: float = 3600,
            options: Sequence[str] = ()) -> tuple[Parsed, int, str]:
    """Run ``argv`` under ``profiler``; (launches, the command's exit status, the profiler's raw output path)."""
    import subprocess
    from pathlib import Path

    command = profiler_command(profiler, argv, out_dir, options)
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    if profiler == "ncu":
        raw = Path(out_dir) / "ncu.csv"
        raw.write_text(done.stdout, encoding="utf-8")
        return parse_ncu(done.stdout, str(raw)), done.returncode, str(raw)
    traces = sorted(Path(out_dir).rglob("*kernel_trace.csv"))
    if not traces:
        return Parsed([], [f"rocprofv3 wrote no kernel_trace.csv under {out_dir}: {done.stderr.strip()[-300:]}"],
                      profiler), done.returncode, ""
    launches: list[Launch] = []
    problems: list[str] = []
    for trace in traces:
        got = parse_rocprof(trace.read_text(encoding="utf-8"), str(trace))
        launches.extend(got.launches)
        problems.extend(got.problems)
    return Parsed(launches, problems, profiler), done.returncode, str(traces[0])
