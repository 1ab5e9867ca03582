"""The residual work: what stays for a person after cuda2rocm's automatic steps, the base of effort and risk.

A raw count of CUDA references overstates a port: most of them are renamed by ``convert``, rewritten by the
safe hazard fixes, or migrated by ``migrate build``/``migrate deploy``. What costs a team time is what those
steps leave. Every finding of the scan is one of:

- **automatic**: it carries a safe fix (a hazard fix ``--fix-hazards`` applies, a build edit), or it is a
  deployment/build construct the migrate commands rewrite (C2R-D1xx, build findings); a person reviews it;
- **manual**: a finding at medium or above with no safe fix (a wave64 hazard that needs a rewrite, inline PTX
  with no HIP form, a device-capability test in Python);
- **information**: below medium.

plus the API uses with no HIP counterpart (each distinct name), closed binaries (a rebuild or a vendor), and
GPU plugins by their ROCm support. Person-days per item (low, high) are in :data:`COSTS`; verifying the port
(building, the correctness and performance comparison on the target) costs :data:`VERIFY` plus per kernel.
The weights are judgement, documented in docs/scan.md with a worked example; they make a project whose port
is a mechanical rename come out low and a project with closed binaries or much PTX come out high.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from cuda2rocm.model import Applicability, Finding, Severity
from cuda2rocm.results import ScanResult

#: (low, high) person-days per residual item
COSTS: dict[str, tuple[float, float]] = {
    "critical": (1.0, 3.0),  # a critical finding with no safe fix: code that breaks on the target as it stands
    "device": (0.5, 2.0),  # a device-code hazard (wave64, PTX, LDS, atomics) to rewrite by hand
    "api": (0.5, 2.0),  # a CUDA API with no HIP counterpart: redesign around it
    "code": (0.25, 1.0),  # other manual findings (Python device checks, build/runtime constructs)
    "review": (0.05, 0.25),  # an automatic change or migrated construct to review
    "plugin-none": (3.0, 10.0),  # a GPU plugin with no ROCm build
    "plugin-partial": (1.0, 3.0),  # a plugin with partial ROCm support
    "plugin": (0.1, 0.5),  # a plugin with a ROCm build: install and test it
    "binary": (5.0, 20.0),  # a closed CUDA binary: rebuild from source elsewhere or get a ROCm build
}
#: verifying the port: a base plus per kernel (build, correctness comparison, performance comparison)
VERIFY = ((0.5, 1.0), (0.1, 0.5))
#: families whose findings the migrate commands rewrite (reviewed, not redone by hand)
MIGRATED_FAMILIES = ("deployment", "build", "deploy")
#: scan rules on constructs ``migrate build``/``migrate deploy`` rewrite: nvcc architecture flags (S110), PyTorch
#: CUDA extensions (S105, which keep building through PyTorch's hipify), CUDA wheels and indexes (S102),
#: TORCH_CUDA_ARCH_LIST (P105)
MIGRATED_RULES = frozenset({"C2R-S102", "C2R-S105", "C2R-S110", "C2R-S115", "C2R-P105"})
#: counted elsewhere: unsupported API uses (each distinct name, from the API inventory) and plugins (by support)
COUNTED_APART = frozenset({"C2R-S109"})
COUNTED_APART_FAMILIES = ("scan-plugins", "scan-binaries")


@dataclass(frozen=True)
class Residual:
    """Counts of what stays for a person, by kind (the keys of :data:`COSTS`), and the kernels to verify."""

    items: dict[str, int] = field(default_factory=dict)
    kernels: int = 0

    @property
    def manual(self) -> int:
        """Items that need a person to change code (reviews and plugin installs aside)."""
        return sum(n for k, n in self.items.items() if k not in ("review", "plugin"))

    def days(self, scale: float = 1.0) -> tuple[int, int]:
        """(low, high) person-days, whole days (at least one), ``scale`` applied before rounding."""
        low = VERIFY[0][0] + VERIFY[1][0] * self.kernels
        high = VERIFY[0][1] + VERIFY[1][1] * self.kernels
        for kind, n in self.items.items():
            low += COSTS[kind][0] * n
            high += COSTS[kind][1] * n
        low, high = low * scale, high * scale
        return max(1, round(low)), max(1, round(low), math.ceil(high))


def kind_of(finding: Finding, family: str) -> str:
    """The residual kind of one finding ("" when it is information only)."""
    if finding.rule.startswith("C2R-E") or finding.rule in COUNTED_APART or family in COUNTED_APART_FAMILIES:
        return ""
    safe = finding.remedy is not None and finding.remedy.applicability is Applicability.SAFE
    if safe or family in MIGRATED_FAMILIES or finding.rule in MIGRATED_RULES:
        return "review" if finding.severity >= Severity.MEDIUM else ""
    if finding.severity >= Severity.CRITICAL:
        return "critical"
    if finding.severity < Severity.MEDIUM:
        return ""
    return "device" if family == "device" else "code"


def residual(r: ScanResult) -> Residual:
    from cuda2rocm.rules import RULES, load_all

    load_all()
    counts: Counter[str] = Counter()
    for f in r.findings:
        rule = RULES.get(f.rule)
        kind = kind_of(f, rule.family if rule is not None else "")
        if kind:
            counts[kind] += 1
    counts["api"] += len({a.name for a in r.api_usage if a.support in ("unsupported", "removed")})
    counts["binary"] += sum(1 for b in r.binaries if not b.has_source)
    for p in r.plugins:
        counts["plugin-none" if p.rocm_support in ("none", "deprecated_project") else
               "plugin-partial" if p.rocm_support == "upstream_partial" else "plugin"] += 1
    return Residual({k: n for k, n in counts.items() if n}, int(r.stats.get("kernels", 0)))
