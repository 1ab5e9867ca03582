"""Migration assessment: the seven layers graded low/medium/high with reasons, the project's risk level from
the high-risk signals, an effort estimate and a recommended proof-of-concept workload."""

from __future__ import annotations

from cuda2rocm.assess.layers import grade_layers
from cuda2rocm.assess.risk import assess_risk
from cuda2rocm.results import LayerAssessment, RiskAssessment, ScanResult

__all__ = ["assess", "assess_risk", "grade_layers"]


def assess(result: ScanResult) -> tuple[tuple[LayerAssessment, ...], RiskAssessment]:
    """Grade a scan result (its ``layers``/``risk`` fields are ignored and recomputed)."""
    layers = grade_layers(result)
    return layers, assess_risk(result, layers)
