"""The one way a deploy rule is defined."""

from __future__ import annotations

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import Rule, define

F = "deploy"


def deploy_rule(id: str, title: str, severity: Severity, *, what: str, why: str, example: str, instead: str,
                references: tuple[str, ...], layer: Layer = Layer.OPS) -> Rule:
    """Register a ``migrate deploy`` rule; ``example``: an input that makes ``migrate deploy`` emit it, with its
    file name as ``# file: <name>`` on the first line when the kind is not a Dockerfile."""
    return define(Rule(id, title, F, severity, Confidence.HIGH, layer, what, why, example, instead, references))
