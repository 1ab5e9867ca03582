"""Markdown tables from ``comm`` results: busbw per size and timing mode against a reference, and
busbw per size and GPU count with scaling efficiency (busbw is rank-count-normalised, so ideal is 1.0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cuda2rocm.perf.bandwidth import format_size

#: nccl-tests all_reduce_perf busbw (GB/s) on 2 H200s (NV18), from the project's design notes
#: (../shared/DESIGN.md, measured 2026-11-29 on the lent nvidia-h200-x2 machine).
NCCL_TESTS_H200X2_ALL_REDUCE = {1 << 20: 50.0, 16 << 20: 212.0, 1 << 30: 332.0}


def busbw(recs: Iterable[dict[str, Any]], op: str, mode: str) -> dict[int, float]:
    return {int(r["bytes"]): float(r["busbw_gbps"]) for r in recs
            if r.get("op") == op and r.get("timing_requested", r.get("timing")) == mode and not r.get("error")}


def best_of(*series: Mapping[int, float]) -> dict[int, float]:
    sizes = set().union(*series)
    return {s: max(x[s] for x in series if s in x) for s in sizes}


def target(size: int) -> float:
    """Issue 7's bar: >= 0.95x nccl-tests at >= 16 MB, >= 0.5x at 1 MB."""
    return 0.95 if size >= 16 << 20 else 0.5


def mode_table(recs: list[dict[str, Any]], op: str, reference: Mapping[int, float], modes: tuple[str, ...]) -> str:
    cols = [*modes, "best"]
    series = {m: busbw(recs, op, m) for m in modes}
    series["best"] = best_of(*(series[m] for m in modes if m in ("graph", "events")))
    lines = ["| size | " + " | ".join(cols) + " | nccl-tests | best / ref | target |",
             "|---:|" + "---:|" * len(cols) + "---:|---:|:--|"]
    for size in sorted(series["best"]):
        ref = reference.get(size)
        ratio = series["best"][size] / ref if ref else None
        verdict = "" if ratio is None else f"{'met' if ratio >= target(size) else 'MISSED'} (>= {target(size)}x)"
        cells = [f"{series[c][size]:.1f}" if size in series[c] else "-" for c in cols]
        lines.append(f"| {format_size(size)} | " + " | ".join(cells) + f" | {ref if ref else '-'} | "
                     f"{f'{ratio:.2f}' if ratio else '-'} | {verdict} |")
    return "\n".join(lines)


def scaling_table(runs: Mapping[int, list[dict[str, Any]]], op: str, mode: str, peak_gbps: float | None) -> str:
    """Rows: sizes; columns: busbw per GPU count, % of peak at the largest count, efficiency max vs min count."""
    worlds = sorted(runs)
    series = {w: busbw(runs[w], op, mode) for w in worlds}
    sizes = sorted(set().union(*series.values()))
    head = " | ".join(f"{w} GPUs" for w in worlds)
    lines = [f"| size | {head} | % peak ({worlds[-1]}) | efficiency {worlds[0]}->{worlds[-1]} |",
             "|---:|" + "---:|" * (len(worlds) + 2)]
    for size in sizes:
        cells = [f"{series[w][size]:.1f}" if size in series[w] else "-" for w in worlds]
        lo, hi = series[worlds[0]].get(size), series[worlds[-1]].get(size)
        frac = f"{hi / peak_gbps:.0%}" if hi and peak_gbps else "-"
        eff = f"{hi / lo:.2f}" if hi and lo else "-"
        lines.append(f"| {format_size(size)} | " + " | ".join(cells) + f" | {frac} | {eff} |")
    return "\n".join(lines)
