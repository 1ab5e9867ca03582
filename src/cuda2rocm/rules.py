"""The rule registry: every diagnostic the tool emits comes from a registered rule with a stable id.

Every rule is registered with :func:`new_rule` (``@rule(...)`` is its decorator spelling, for a checker function),
with the documentation that ``cuda2rocm explain ID`` prints and that ``docs/rules.md`` is generated from. Ids are
never reused.

Id prefixes (see docs/rules.md):
  C2R-K  device-code hazards (K1xx warp size, K2xx lane masks, K3xx PTX: inline, compiled or loaded at run time,
         K4xx LDS, K5xx NVIDIA-only hardware and libraries, K6xx atomics/memory model, K7xx launch/occupancy and
         dynamic parallelism, K8xx device properties and clocks)
  C2R-A  API translation (unsupported, deprecated, experimental, version-gated APIs)
  C2R-S  scan / inventory (versions, custom code, plugins, binaries)
  C2R-P  Python-level risks
  C2R-D  deployment (containers, Kubernetes, CI, launchers, NCCL variables)
  C2R-B  build systems
  C2R-E  input problems (unreadable, binary, malformed files)
  C2R-R  numerical regression (compare R1xx, smoke R2xx, curves/metrics/reproducibility R3xx)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cuda2rocm.model import Confidence, Finding, Fix, Layer, Severity

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    family: str
    severity: Severity
    confidence: Confidence
    layer: Layer
    what: str
    why: str
    example: str
    instead: str
    references: tuple[str, ...] = ()
    check: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    #: the check can report only in a text that contains one of these strings (anywhere: in code, comments or
    #: strings); a file with none of them is not given to the check. Empty: every file is.
    requires: tuple[str, ...] = ()

    def finding(
        self,
        path: str,
        line: int,
        col: int,
        message: str,
        *,
        fix: str = "",
        remedy: Fix | None = None,
        severity: Severity | None = None,
        confidence: Confidence | None = None,
    ) -> Finding:
        """Build a finding for this rule; severity/confidence default to the rule's own, the fix text to the
        first line of the rule's "instead" (``remedy``: the structured fix, when the rule has one)."""
        return Finding(
            rule=self.id,
            severity=self.severity if severity is None else severity,
            confidence=self.confidence if confidence is None else confidence,
            layer=self.layer,
            path=path,
            line=line,
            col=col,
            message=message,
            fix=fix or _first_line(self.instead),
            remedy=remedy,
        )


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


RULES: dict[str, Rule] = {}


def new_rule(
    id: str,
    title: str,
    *,
    family: str,
    severity: Severity,
    confidence: Confidence,
    layer: Layer,
    what: str,
    why: str,
    example: str,
    instead: str,
    references: tuple[str, ...] = (),
    check: Callable[..., Any] | None = None,
    requires: tuple[str, ...] = (),
) -> Rule:
    """Register a rule under a stable id, with its documentation, and return it: the one way a rule is made.

    ``check``: the rule's checker function (the hazard rules; see :func:`rule`); without one the rule is emitted
    by an engine that decides when (convert, scan, migrate, regress). ``requires``: strings of which a text must
    contain one for the check to report anything (a necessary condition, read from the check's code:
    ``tests/hazards/test_requires.py`` holds every rule to it), so files without them skip the check. A family's
    shared defaults are a ``functools.partial`` of this function (``deploy_rule``, ``build_rule``, ...)."""
    return _register(
        Rule(id, title, family, severity, confidence, layer, what, why, example, instead, references, check, requires)
    )


def rule(id: str, title: str, **fields: Any) -> Callable[[F], F]:
    """The decorator spelling of :func:`new_rule`: ``@rule(id, title, ...)`` over a checker function registers it
    as the rule's ``check`` (same keyword arguments as :func:`new_rule`, less ``check``)."""

    def decorator(func: F) -> F:
        new_rule(id, title, check=func, **fields)
        return func

    return decorator


def _register(r: Rule) -> Rule:
    if r.id in RULES and RULES[r.id] != r:
        raise ValueError(f"rule id {r.id} registered twice")
    RULES[r.id] = r
    return r


def get(rule_id: str) -> Rule:
    load_all()
    return RULES[rule_id]


def by_family(family: str) -> list[Rule]:
    load_all()
    return sorted((r for r in RULES.values() if r.family == family), key=lambda r: r.id)


_RULE_MODULES = (
    "cuda2rocm.hazards.rules",
    "cuda2rocm.translate.rules",
    "cuda2rocm.scan.rules",
    "cuda2rocm.regress.rules",
    "cuda2rocm.migrate.rules",
    "cuda2rocm.migrate.deploy.rules",
)


def load_all(modules: tuple[str, ...] = _RULE_MODULES) -> dict[str, Rule]:
    """Import every module that registers rules (idempotent).

    A module in the list that cannot be imported is an error (``ModuleNotFoundError`` names it): a rule family
    never disappears from ``rules``, the docs or a scan silently. A new family adds its module here."""
    import importlib

    for name in modules:
        importlib.import_module(name)
    return RULES
