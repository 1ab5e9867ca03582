"""Helper to register a documented scan rule in one call."""

from __future__ import annotations

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import Rule, define


def scan_rule(
    id: str,
    title: str,
    family: str,
    severity: Severity,
    confidence: Confidence,
    layer: Layer,
    *,
    what: str,
    why: str,
    example: str,
    instead: str,
    references: tuple[str, ...] = (),
) -> Rule:
    """Register a rule that an analyzer of the scan engine emits."""
    return define(Rule(id, title, family, severity, confidence, layer, what, why, example, instead, references))
