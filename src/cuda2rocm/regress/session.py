"""What ``cuda2rocm compare`` does, as a library call: pick the mode, read the config, write reports."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cuda2rocm.fsio import write_text_atomic
from cuda2rocm.regress import html, jsonout
from cuda2rocm.regress.compare import compare
from cuda2rocm.regress.curves import Band, compare_curves, is_curve_file, read_curves
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.metrics import compare_metrics, read_metrics, thresholds_from
from cuda2rocm.regress.policy import apply_config, default_policy, load_policy, read_config
from cuda2rocm.results.regress import CurveReport, Outcome


def run_compare(base: str, cand: str, *, config_path: Path | None = None, float32: str = "",
                metrics: bool = False, tags: Sequence[str] = (), band_rtol: float | None = None,
                higher_is_better: bool = False) -> Outcome:
    config = read_config(config_path) if config_path else {}
    where = str(config_path or "")
    if metrics:
        raw = config.get("metrics") or {}
        return Outcome(metrics=compare_metrics(read_metrics(base), read_metrics(cand), thresholds_from(raw, where)))
    if is_curve_file(base) or is_curve_file(cand):
        band = _band(config.get("curves") or {}, where, band_rtol, higher_is_better)
        return Outcome(curves=curve_reports(base, cand, tags, band))
    policy = apply_config(default_policy(), config, where) if config else default_policy()
    if float32:
        policy = load_policy(None, float32=float32) if not config else _with_float32(policy, float32)
    return Outcome(tensors=compare(base, cand, policy))


def _with_float32(policy: Any, name: str) -> Any:
    return apply_config(policy, {"float32": name}, "--float32")


def _band(raw: Mapping[str, Any], where: str, rtol: float | None, higher: bool) -> Band:
    known = set(Band.__dataclass_fields__)
    unknown = set(raw) - known
    if unknown:
        raise RegressInputError(where, f"curves: unknown keys {sorted(unknown)}")
    try:
        band = Band(**{k: type(getattr(Band(), k))(v) for k, v in raw.items()})
    except (TypeError, ValueError) as exc:
        raise RegressInputError(where, f"curves: {exc}") from None
    if rtol is not None:
        band = Band(**{**band.__dict__, "rtol": rtol})
    if higher:
        band = Band(**{**band.__dict__, "lower_is_better": False})
    return band


def curve_reports(base: str, cand: str, tags: Sequence[str], band: Band) -> list[CurveReport]:
    b, c = read_curves(base), read_curves(cand)
    chosen = list(tags) or [t for t in b if t in c]
    if not chosen:
        raise RegressInputError(cand, f"no tag shared with the baseline (base has {sorted(b)[:5]})")
    missing = [t for t in chosen if t not in b or t not in c]
    if missing:
        raise RegressInputError(cand if missing[0] in b else base, f"no curve named {missing[0]!r}")
    return [compare_curves(b[t], c[t], band) for t in chosen]


def write_html(path: Path, outcome: Outcome) -> None:
    write_text_atomic(path, html.render(outcome.tensors, outcome.curves, outcome.metrics))


def write_json(path: Path, outcome: Outcome) -> None:
    body = jsonout.to_dict(outcome.tensors, outcome.curves, outcome.metrics)
    write_text_atomic(path, json.dumps(body, indent=1) + "\n")
