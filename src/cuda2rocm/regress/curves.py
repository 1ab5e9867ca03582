"""Training curves from CSV, JSONL and TensorBoard event files, compared with a band and a convergence check.

TensorBoard event files are read with the ``tensorboard`` package (optional extra
``cuda2rocm[tensorboard]``; no TensorFlow needed): its ``EventFileLoader`` parses the TFRecord framing
and protobufs, and copes with a file still being written.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.results.regress import Curve, CurveReport

STEP_KEYS = ("step", "global_step", "iteration", "iter", "epoch")
SKIP_KEYS = ("wall_time", "time", "timestamp")


def is_curve_file(path: str | Path) -> bool:
    p = Path(path)
    return p.suffix.lower() in (".csv", ".jsonl", ".ndjson") or "tfevents" in p.name or (
        p.is_dir() and any("tfevents" in c.name for c in p.iterdir())
    )


def read_curves(path: str | Path) -> dict[str, Curve]:
    """Every numeric series in the file, keyed by tag/column name."""
    p = Path(path)
    if p.is_dir():
        files = sorted(c for c in p.iterdir() if "tfevents" in c.name)
        return _merge(_read_events(f) for f in files)
    if "tfevents" in p.name:
        return _read_events(p)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RegressInputError(str(p), f"cannot read: {exc}") from None
    rows = _jsonl_rows(text, str(p)) if p.suffix.lower() in (".jsonl", ".ndjson") else _csv_rows(text, str(p))
    return _from_rows(rows, str(p))


def _csv_rows(text: str, path: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(text.splitlines())
    if not reader.fieldnames:
        raise RegressInputError(path, "empty CSV (no header)")
    return [(i + 2, row) for i, row in enumerate(reader)]


def _jsonl_rows(text: str, path: str) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RegressInputError(path, f"malformed JSON line: {exc.msg}", i) from None
        if not isinstance(obj, dict):
            raise RegressInputError(path, "each line must be a JSON object", i)
        rows.append((i, obj))
    return rows


def _from_rows(rows: list[tuple[int, dict[str, Any]]], path: str) -> dict[str, Curve]:
    series: dict[str, list[tuple[float, float]]] = {}
    for index, (line, row) in enumerate(rows):
        lowered = {str(k).strip().lower(): v for k, v in row.items() if k is not None}
        step_key = next((k for k in STEP_KEYS if k in lowered), None)
        step = _number(lowered[step_key], path, line, step_key) if step_key else float(index)
        for key, value in row.items():
            name = str(key).strip()
            if name.lower() in STEP_KEYS or name.lower() in SKIP_KEYS or value in ("", None):
                continue
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                series.setdefault(name, []).append((step, _number(value, path, line, name)))
    if not series:
        raise RegressInputError(path, "no numeric columns found")
    return {k: Curve(k, tuple(s for s, _ in v), tuple(x for _, x in v)) for k, v in series.items()}


def _number(value: Any, path: str, line: int, key: str | None) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise RegressInputError(path, f"{key}: not a number: {value!r}", line) from None


def _read_events(p: Path) -> dict[str, Curve]:
    try:
        from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
        from tensorboard.util import tensor_util
    except ImportError:
        raise RegressInputError(str(p), "reading TensorBoard event files needs the optional extra: "
                                "pip install 'cuda2rocm[tensorboard]'") from None
    series: dict[str, list[tuple[float, float]]] = {}
    try:
        for event in EventFileLoader(str(p)).Load():
            for v in event.summary.value:
                value = _event_scalar(v, tensor_util)
                if value is not None:
                    series.setdefault(v.tag, []).append((float(event.step), value))
    except Exception as exc:  # the loader raises protobuf/IO errors of several kinds on corrupt files
        raise RegressInputError(str(p), f"corrupt TensorBoard event file: {type(exc).__name__}: {exc}") from None
    if not series:
        raise RegressInputError(str(p), "no scalar summaries found")
    return {k: Curve(k, tuple(s for s, _ in v), tuple(x for _, x in v)) for k, v in series.items()}


def _event_scalar(v: Any, tensor_util: Any) -> float | None:
    if v.HasField("tensor"):
        arr = tensor_util.make_ndarray(v.tensor)
        return float(arr.reshape(-1)[0]) if arr.size == 1 and arr.dtype.kind in "fiu" else None
    return float(v.simple_value) if v.WhichOneof("value") == "simple_value" else None


def _merge(parts: Iterable[dict[str, Curve]]) -> dict[str, Curve]:
    out: dict[str, Curve] = {}
    for part in parts:
        for tag, c in part.items():
            old = out.get(tag)
            out[tag] = c if old is None else Curve(tag, old.steps + c.steps, old.values + c.values)
    if not out:
        raise RegressInputError("event directory", "no TensorBoard event files with scalars found")
    return out


@dataclass(frozen=True)
class Band:
    rtol: float = 0.05  # |cand - base| <= atol + rtol * |base| at each shared step (after smoothing)
    atol: float = 0.0
    max_outside_fraction: float = 0.0
    smooth: int = 1  # moving-average window applied to both curves first
    final_window: int = 5  # points averaged for the start/final values of the convergence check
    final_rtol: float = 0.02  # candidate's final may be this much worse than the baseline's
    lower_is_better: bool = True


def compare_curves(base: Curve, cand: Curve, band: Band = Band()) -> CurveReport:
    b_map = dict(zip(base.steps, _smooth(base.values, band.smooth), strict=True))
    c_map = dict(zip(cand.steps, _smooth(cand.values, band.smooth), strict=True))
    shared = sorted(set(b_map) & set(c_map))
    if not shared:
        raise RegressInputError(cand.tag, "the two curves share no step")
    outside = [s for s in shared if not abs(c_map[s] - b_map[s]) <= band.atol + band.rtol * abs(b_map[s])]
    dev = max((abs(c_map[s] - b_map[s]) for s in shared), default=0.0)
    band_ok = len(outside) <= band.max_outside_fraction * len(shared)
    reasons = [] if band_ok else [f"{len(outside)} of {len(shared)} steps outside the band (first at step "
                                  f"{outside[0]:g})"]
    conv_reasons = _convergence(base, cand, band)
    return CurveReport(cand.tag, len(shared), len(outside), outside[0] if outside else None, dev,
                       _final(base.values, band.final_window), _final(cand.values, band.final_window),
                       band_ok, not conv_reasons, tuple(reasons + conv_reasons), base, cand)


def _convergence(base: Curve, cand: Curve, band: Band) -> list[str]:
    if any(not math.isfinite(v) for v in cand.values):
        return ["candidate curve contains NaN/Inf"]
    sign = 1.0 if band.lower_is_better else -1.0
    start, final = _first(cand.values, band.final_window), _final(cand.values, band.final_window)
    base_final = _final(base.values, band.final_window)
    out = []
    if len(cand.values) > band.final_window and not sign * (final - start) < 0:
        out.append(f"candidate did not improve ({start:.4g} -> {final:.4g})")
    if sign * (final - base_final) > band.final_rtol * abs(base_final):
        out.append(f"final {final:.4g} vs baseline {base_final:.4g} (allowed {band.final_rtol:.1%} worse)")
    return out


def _smooth(values: tuple[float, ...], window: int) -> list[float]:
    if window <= 1:
        return list(values)
    out, acc = [], 0.0
    for i, v in enumerate(values):
        acc += v - (values[i - window] if i >= window else 0.0)
        out.append(acc / min(i + 1, window))
    return out


def _first(values: tuple[float, ...], k: int) -> float:
    head = values[: max(1, k)]
    return sum(head) / len(head)


def _final(values: tuple[float, ...], k: int) -> float:
    tail = values[-max(1, k):]
    return sum(tail) / len(tail)
