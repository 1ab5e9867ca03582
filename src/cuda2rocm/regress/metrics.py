"""Scalar metrics (accuracy, perplexity, BLEU, business KPIs) checked against per-metric thresholds.

Metrics files are JSON objects ``{"name": number}``. Thresholds (YAML/JSON, or defaults) per metric:
``higher_is_better`` (default true), ``max_drop_abs`` and/or ``max_drop_rel`` (a change in the bad
direction larger than either fails; defaults: 0 abs, 1% rel, i.e. at most 1% worse).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.results.regress import MetricReport


@dataclass(frozen=True)
class Threshold:
    higher_is_better: bool = True
    max_drop_abs: float | None = None
    max_drop_rel: float | None = 0.01


def read_metrics(path: str | Path) -> dict[str, float]:
    p = Path(path)
    try:
        raw = json.loads(p.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RegressInputError(str(p), f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RegressInputError(str(p), f"malformed JSON: {exc.msg}", exc.lineno) from None
    if not isinstance(raw, dict):
        raise RegressInputError(str(p), "metrics file must be a JSON object of name -> number")
    out = {}
    for k, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise RegressInputError(str(p), f"metric {k!r} is not a number: {v!r}")
        out[str(k)] = float(v)
    return out


def thresholds_from(raw: Mapping[str, Any], where: str) -> dict[str, Threshold]:
    out = {}
    for name, body in raw.items():
        if not isinstance(body, Mapping):
            raise RegressInputError(where, f"metrics.{name} must be a mapping")
        try:
            out[str(name)] = Threshold(bool(body.get("higher_is_better", True)), _opt(body, "max_drop_abs"),
                                       _opt(body, "max_drop_rel", 0.01 if "max_drop_abs" not in body else None))
        except (TypeError, ValueError) as exc:
            raise RegressInputError(where, f"metrics.{name}: {exc}") from None
    return out


def _opt(body: Mapping[str, Any], key: str, default: float | None = None) -> float | None:
    return float(body[key]) if body.get(key) is not None else default


def compare_metrics(base: Mapping[str, float], cand: Mapping[str, float],
                    thresholds: Mapping[str, Threshold] | None = None) -> list[MetricReport]:
    thresholds = thresholds or {}
    names = list(dict.fromkeys([*base, *cand]))
    return [_one(n, base.get(n), cand.get(n), thresholds.get(n, Threshold())) for n in names]


def _one(name: str, b: float | None, c: float | None, t: Threshold) -> MetricReport:
    if b is None or c is None:
        return MetricReport(name, b, c, False, "missing in " + ("baseline" if b is None else "candidate"))
    if not math.isfinite(c):
        return MetricReport(name, b, c, False, "candidate is not finite")
    drop = (b - c) if t.higher_is_better else (c - b)
    limits = []
    if t.max_drop_abs is not None:
        limits.append(t.max_drop_abs)
    if t.max_drop_rel is not None:
        limits.append(t.max_drop_rel * abs(b))
    allowed = min(limits) if limits else 0.0
    if drop > allowed:
        direction = "dropped" if t.higher_is_better else "rose"
        return MetricReport(name, b, c, False, f"{direction} by {drop:.4g} (allowed {allowed:.4g})")
    return MetricReport(name, b, c, True)
