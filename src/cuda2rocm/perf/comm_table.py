"""Rows for the ``comm`` table (pure: records in, strings out), nccl-tests' columns plus % of peak."""

from __future__ import annotations

from typing import Any

from cuda2rocm.perf.bandwidth import format_size

COLUMNS = ("op", "dtype", "place", "size", "time us", "algbw GB/s", "busbw GB/s", "% peak", "#wrong", "timing")


def _num(value: Any, fmt: str) -> str:
    return format(value, fmt) if isinstance(value, (int, float)) else "-"


def row(rec: dict[str, Any]) -> tuple[str, ...]:
    place = "in" if rec.get("in_place") else "out"
    size = format_size(int(rec.get("bytes", 0)))
    if rec.get("error"):
        return (rec.get("op", "?"), rec.get("dtype", "?"), place, size, "-", "-", "-", "-", "ERROR",
                str(rec["error"]))  # whole: the table wraps it
    frac = rec.get("peak_fraction")
    return (
        str(rec["op"]), str(rec["dtype"]), place, size,
        _num(rec.get("time_us"), ".2f"), _num(rec.get("algbw_gbps"), ".2f"), _num(rec.get("busbw_gbps"), ".2f"),
        _num(frac * 100 if isinstance(frac, float) else None, ".1f"),
        str(rec.get("wrong", "-")),
        str(rec.get("timing", "")) + ("*" if fell_back(rec) else ""),
    )


def fell_back(rec: dict[str, Any]) -> bool:
    """Did the timing use another mode than asked because the asked one could not run?"""
    note = str(rec.get("timing_note", ""))
    return "failed" in note or "needs" in note


def failures(recs: list[dict[str, Any]]) -> list[str]:
    """One line per record with wrong results or an error."""
    out = []
    for r in recs:
        if r.get("error") or r.get("correct") is False:
            what = r.get("error") or f"{r.get('wrong')} wrong elements"
            out.append(f"{r.get('op')} {r.get('dtype')} {format_size(int(r.get('bytes', 0)))}: {what}")
    return out
