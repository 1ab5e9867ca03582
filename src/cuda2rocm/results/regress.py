"""The values of ``compare`` (tensors, curves, metrics), ``capture`` (the manifest) and ``smoke``.

The regression engines (``cuda2rocm.regress``, numpy and torch) make them; the envelope, the reports and the
delivery checklist read them, so they load without either. Turning them into C2R-R findings is
``regress/findings.py``; reading and writing a capture's files is ``regress/manifest.py`` and ``regress/store.py``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

# --- compare: tensors --------------------------------------------------------------------------------------------

#: a tensor's comparison status
PASS, FAIL, SKIPPED = "pass", "fail", "skipped"
MISSING_BASE, MISSING_CAND = "missing-in-base", "missing-in-candidate"
SHAPE, DTYPE = "shape-mismatch", "dtype-mismatch"

#: the limits a tolerance sets (each a key of a policy file's class or layer rule)
TOLERANCE_FIELDS = ("atol", "rtol", "max_mismatch_fraction", "max_rel_l2", "min_cosine", "max_ulp")


@dataclass(frozen=True)
class Tolerance:
    """The limits one tensor is judged by (a dtype class's or a layer rule's, ``regress/policy.py``)."""

    name: str
    atol: float
    rtol: float
    max_mismatch_fraction: float
    max_rel_l2: float
    min_cosine: float
    max_ulp: int | None = None

    def with_overrides(self, values: Mapping[str, Any]) -> Tolerance:
        return dataclasses.replace(self, **{k: values[k] for k in TOLERANCE_FIELDS if k in values})


@dataclass(frozen=True)
class TensorStats:
    """One tensor pair's error statistics (``regress/stats.py`` defines and accumulates them)."""

    count: int
    max_abs: float
    max_rel: float
    max_ulp: float | None
    rel_l2: float
    cosine: float
    mismatches: int
    nan_base: int
    nan_cand: int
    inf_base: int
    inf_cand: int
    nonfinite_mismatch: int
    worst_index: int  # flat index of the largest absolute error (-1 when none)

    @property
    def mismatch_fraction(self) -> float:
        return self.mismatches / self.count if self.count else 0.0


@dataclass(frozen=True)
class TensorReport:
    name: str
    status: str
    dtype: str = ""
    shape: tuple[int, ...] = ()
    policy: str = ""
    tolerance: Tolerance | None = None
    stats: TensorStats | None = None
    reasons: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status in (PASS, SKIPPED)


@dataclass(frozen=True)
class CompareResult:
    base: str
    cand: str
    reports: tuple[TensorReport, ...]
    warnings: tuple[str, ...] = ()
    bytes_compared: int = field(default=0, compare=False)

    @property
    def first_divergence(self) -> TensorReport | None:
        return next((r for r in self.reports if not r.ok), None)

    @property
    def passed(self) -> bool:
        return self.first_divergence is None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.reports:
            out[r.status] = out.get(r.status, 0) + 1
        return out


# --- compare: curves and metrics ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Curve:
    tag: str
    steps: tuple[float, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class CurveReport:
    tag: str
    points: int
    outside: int
    first_outside_step: float | None
    max_deviation: float
    base_final: float
    cand_final: float
    band_ok: bool
    converged: bool
    reasons: tuple[str, ...]
    base: Curve
    cand: Curve

    @property
    def ok(self) -> bool:
        return self.band_ok and self.converged


@dataclass(frozen=True)
class MetricReport:
    name: str
    base: float | None
    cand: float | None
    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class Outcome:
    """A ``compare`` run: tensors, curves or metrics (``regress/session.py``)."""

    tensors: CompareResult | None = None
    curves: list[CurveReport] = field(default_factory=list)
    metrics: list[MetricReport] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return ((self.tensors is None or self.tensors.passed) and all(c.ok for c in self.curves)
                and all(m.ok for m in self.metrics))


# --- capture ------------------------------------------------------------------------------------------------------

#: what a capture's manifest.json declares itself as
FORMAT = "cuda2rocm-capture"
VERSION = 1


@dataclass(frozen=True)
class Entry:
    name: str  # e.g. "act/layer1.0.conv1", "output", "loss", "grad/fc.weight"
    dtype: str  # safetensors spelling
    shape: tuple[int, ...]
    kind: str = "tensor"  # activation | output | loss | grad | tensor
    module: str = ""


@dataclass(frozen=True)
class Manifest:
    """Which tensors, in which (execution) order, captured how and where (``regress/manifest.py`` reads it)."""

    entries: tuple[Entry, ...]
    seed: int | None = None
    inputs_sha256: str = ""
    device: str = ""
    dtype: str = ""
    deterministic: bool = False
    tf32: bool = False
    target: str = ""
    created: str = ""
    fingerprint: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        body = asdict(self)
        body["entries"] = [{**asdict(e), "shape": list(e.shape)} for e in self.entries]
        return json.dumps({"format": FORMAT, "version": VERSION, **body}, indent=1, sort_keys=False)


# --- smoke --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class SmokeReport:
    """A ``smoke`` run (``regress/smoke.py``); its C2R-R findings: ``regress.findings.smoke_findings``."""

    device: str
    forward: Check
    ops: int
    cpu_fallbacks: tuple[tuple[str, int], ...]
    not_implemented: tuple[str, ...]
    sdpa_backends: tuple[str, ...]
    amp: tuple[Check, ...]
    peak_memory_bytes: int
    memory_kind: str
    abnormal: tuple[Check, ...]

