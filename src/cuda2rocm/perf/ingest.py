"""Load results into metrics: our JSONL, pytest-benchmark JSON, nccl-tests / rccl-tests text output.

Each loader takes a path and returns metrics, the env fingerprint found in the file (if any) and
problems ("file:line: message"); a bad file never stops the others from loading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda2rocm.perf import kernels, metrics, records
from cuda2rocm.perf.metrics import Metric


@dataclass
class Loaded:
    metrics: dict[str, Metric] = field(default_factory=dict)
    env: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rename: dict[str, str] = field(default_factory=dict)  # kernel names/keys -> keys of the other platform


def load_jsonl(path: Path, into: Loaded) -> None:
    got = records.read_jsonl(path)
    into.problems.extend(got.problems)
    table, problems = metrics.from_records(got.records)
    into.problems.extend(f"{path}: {p}" for p in problems)
    names = {str(r.get("key")): str(r.get("name")) for r in got.records if r.get("kind") == "kernel"}
    for name, m in table.items():
        metrics.add(into.metrics, _renamed(name, names, into.rename), m.samples, unit=m.unit, better=m.better,
                    env=m.env)
    for rec in got.records:
        env = rec.get("env")
        if isinstance(env, dict) and not into.env:
            into.env = dict(env)


def _renamed(metric: str, names: dict[str, str], rename: dict[str, str]) -> str:
    """``kernel/<key>/time_s`` under the other platform's key (by key or by the kernel's full name)."""
    parts = metric.split("/")
    if not rename or len(parts) < 3 or parts[0] != "kernel":
        return metric
    key = "/".join(parts[1:-1])
    new = rename.get(key) or rename.get(names.get(key, ""), key)
    return f"kernel/{new}/{parts[-1]}"


def load_pytest_benchmark(path: Path, data: dict[str, Any], into: Loaded) -> None:
    """pytest-benchmark's --benchmark-json: per-round times when saved (--benchmark-save-data)."""
    for bench in data.get("benchmarks", []):
        name = str(bench.get("fullname") or bench.get("name") or "?")
        st = bench.get("stats") or {}
        samples = st.get("data") or ([st["median"]] if isinstance(st.get("median"), (int, float)) else [])
        if not samples:
            into.problems.append(f"{path}: benchmark {name!r} has no timings")
            continue
        metrics.add(into.metrics, f"{name}/time_s", [float(s) for s in samples], unit="s", better="lower")
    info = data.get("machine_info")
    if isinstance(info, dict) and not into.env:
        into.env = {"machine_info": info, "commit_info": data.get("commit_info", {})}


_NCCL_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\w+)\s+(\w+)\s+(-?\d+)\s+(.*)$")
_NCCL_OP = re.compile(r"(all_reduce|all_gather|reduce_scatter|alltoall|broadcast|reduce|sendrecv|hypercube|"
                      r"scatter|gather)_perf")


def _nccl_op(text: str, path: Path) -> str:
    m = _NCCL_OP.search(text) or _NCCL_OP.search(path.name)
    op = m.group(1) if m else "unknown"
    return "all_to_all" if op == "alltoall" else op


def parse_nccl_tests(text: str, path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows of an nccl-tests/rccl-tests table: size, count, type, redop, root, then out-of-place and
    in-place (time, algbw, busbw, #wrong). Rows with fewer columns (one placement) are accepted."""
    op, rows, problems = _nccl_op(text, path), [], []
    for number, line in enumerate(text.splitlines(), 1):
        m = _NCCL_ROW.match(line)
        if not m or line.lstrip().startswith("#"):
            continue
        rest = m.group(6).split()
        if len(rest) not in (4, 8):
            problems.append(f"{path}:{number}: expected 4 or 8 timing columns, got {len(rest)}")
            continue
        for place, cols in zip(("oop", "ip"), (rest[:4], rest[4:]), strict=False):
            if cols:
                rows.append(_nccl_cell(op, m, place, cols))
    if not rows:
        problems.append(f"{path}: no nccl-tests result rows found")
    return rows, problems


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _nccl_cell(op: str, m: re.Match[str], place: str, cols: list[str]) -> dict[str, Any]:
    return {"op": op, "bytes": int(m.group(1)), "count": int(m.group(2)), "type": m.group(3),
            "redop": m.group(4), "root": int(m.group(5)), "placement": place, "time_us": _number(cols[0]),
            "algbw_gbps": _number(cols[1]), "busbw_gbps": _number(cols[2]), "wrong": _number(cols[3])}


def load_nccl_tests(path: Path, text: str, into: Loaded) -> None:
    rows, problems = parse_nccl_tests(text, path)
    into.problems.extend(problems)
    for row in rows:
        if row["busbw_gbps"] is not None:
            name = f"nccl/{row['op']}/{row['type']}/{row['placement']}/{row['bytes']}/busbw_gbps"
            metrics.add(into.metrics, name, [row["busbw_gbps"]], unit="GB/s", better="higher")


def load_file(path: Path, into: Loaded) -> None:
    """Dispatch on content: JSON object with 'benchmarks', JSON lines, or nccl-tests text."""
    try:
        text = records.read_text(path)
    except (OSError, ValueError) as exc:
        into.problems.append(str(exc) if str(path) in str(exc) else f"{path}: {exc}")
        return
    stripped = text.lstrip()
    if stripped.startswith("{") and '"benchmarks"' in text[:100000]:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            into.problems.append(f"{path}:{exc.lineno}: not JSON ({exc.msg})")
            return
        if isinstance(data, dict) and "benchmarks" in data:
            load_pytest_benchmark(path, data, into)
            return
    if stripped.startswith("{"):
        load_jsonl(path, into)
    elif kernels.is_ncu_csv(text) or kernels.is_rocprof_trace(text):
        load_kernels(path, text, into)
    else:
        load_nccl_tests(path, text, into)


def load_kernels(path: Path, text: str, into: Loaded, rename: dict[str, str] | None = None) -> None:
    """Per-launch kernel times from ncu CSV or a rocprofv3 kernel trace (:mod:`cuda2rocm.perf.kernels`)."""
    parsed = kernels.parse(text, str(path))
    into.problems.extend(parsed.problems)
    table, _ = metrics.from_records(kernels.metric_records(parsed.launches, rename or into.rename, parsed.profiler))
    for name, m in table.items():
        metrics.add(into.metrics, name, m.samples, unit=m.unit, better=m.better)


def load(paths: Sequence[Path], rename: dict[str, str] | None = None) -> Loaded:
    """Pool several files (e.g. repeated runs) into one sample set per metric; ``rename``: kernel names of
    these files -> the keys they have on the other side (``bench compare --kernel-map``)."""
    out = Loaded(rename=dict(rename or {}))
    for path in paths:
        load_file(path, out)
    return out
