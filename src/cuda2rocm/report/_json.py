"""JSON: the whole ScanResult, versioned by ``schema_version`` (docs/schema/scan-result.schema.json)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from cuda2rocm.model import Finding
from cuda2rocm.report._data import to_data
from cuda2rocm.results import SCHEMA_VERSION, ScanResult


def render_json(result: ScanResult) -> str:
    return json.dumps(to_data(result), indent=2, ensure_ascii=False) + "\n"


def render_findings_json(findings: Sequence[Finding]) -> str:
    data = {"schema_version": SCHEMA_VERSION, "findings": to_data(list(findings))}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
