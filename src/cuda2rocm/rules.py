"""The rule registry: every diagnostic the tool emits comes from a registered rule with a stable id.

Rules are small functions registered with :func:`rule`. The decorator records the documentation that
``cuda2rocm explain ID`` prints and that ``docs/rules.md`` is generated from. Ids are never reused.

Id prefixes (see docs/rules.md):
  C2R-K  device-code hazards (K1xx warp size, K2xx lane masks, K3xx inline PTX, K4xx LDS, K5xx NVIDIA-only
         hardware, K6xx atomics/memory model, K7xx launch/occupancy, K8xx device properties)
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


def rule(
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
    requires: tuple[str, ...] = (),
) -> Callable[[F], F]:
    """Register a checker function under a stable id, with its documentation. ``requires``: strings of which a
    text must contain one for the check to report anything (a necessary condition, read from the check's code:
    ``tests/hazards/test_requires.py`` holds every rule to it), so files without them skip the check."""

    def decorator(func: F) -> F:
        define(
            Rule(id, title, family, severity, confidence, layer, what, why, example, instead, references, func,
                 requires)
        )
        return func

    return decorator


def define(r: Rule) -> Rule:
    """Register a rule that has no checker function of its own (emitted by an engine, e.g. convert)."""
    if r.id in RULES and RULES[r.id] != r:
        raise ValueError(f"rule id {r.id} registered twice")
    RULES[r.id] = r
    return r


def new_rule(id: str, title: str, family: str, severity: Severity, confidence: Confidence, layer: Layer, *,
             what: str, why: str, example: str, instead: str, references: tuple[str, ...] = ()) -> Rule:
    """Register a documented rule that an engine emits by id (the keyword form of :func:`define`)."""
    return define(Rule(id, title, family, severity, confidence, layer, what, why, example, instead, references))


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
