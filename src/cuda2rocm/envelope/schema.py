"""The JSON schema of a result envelope (``report/schema/envelope.schema.json``, copied to docs/schema/).

Regenerate the committed copies with ``python -m cuda2rocm.envelope.schema``; a test fails when they go stale.
The payload of each kind is described by its kind's payload schema version here and by the kind's own schema
where one exists (``scan``: scan-result.schema.json).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from cuda2rocm.envelope import SCHEMA_VERSION, TOOL_NAME
from cuda2rocm.envelope.kinds import KINDS

_STAMP = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$"


def build_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:cuda2rocm:schema:envelope:{SCHEMA_VERSION}",
        "title": "cuda2rocm result envelope",
        "description": "One command's result with its provenance; written by `cuda2rocm --record PATH ...` and "
                       "cuda2rocm.envelope.record(); generated from cuda2rocm.envelope.",
        "type": "object",
        "properties": {
            "kind": {"enum": sorted(KINDS)},
            "schema_version": {"const": SCHEMA_VERSION},
            "payload_schema_version": {"type": "string"},
            "tool": {
                "type": "object",
                "properties": {"name": {"const": TOOL_NAME}, "version": {"type": "string"}},
                "required": ["name", "version"],
                "additionalProperties": False,
            },
            "command_line": {"type": "array", "items": {"type": "string"}},
            "started_at": {"type": "string", "pattern": _STAMP},
            "finished_at": {"type": "string", "pattern": _STAMP},
            "exit_status": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "project": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "git_commit": {"anyOf": [{"type": "string", "pattern": "^[0-9a-f]{40}([0-9a-f]{24})?$"},
                                             {"type": "null"}]},
                },
                "required": ["path", "git_commit"],
                "additionalProperties": False,
            },
            "machine": {"anyOf": [{"type": "string", "pattern": "^fp-[0-9a-f]{16}$"}, {"type": "null"}]},
            "payload": {"anyOf": [{"type": "object"}, {"type": "array"}, {"type": "null"}]},
        },
        "required": ["kind", "schema_version", "payload_schema_version", "tool", "command_line", "started_at",
                     "finished_at", "exit_status", "project", "machine", "payload"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"kind": {"const": k.name}}},
             "then": {"properties": {"payload_schema_version": {"const": k.version}},
                      "description": k.description}}
            for k in sorted(KINDS.values(), key=lambda k: k.name)
        ],
    }


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2) + "\n"


def shipped_schema() -> dict[str, Any]:
    text = resources.files("cuda2rocm.report").joinpath("schema/envelope.schema.json").read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


if __name__ == "__main__":  # pragma: no cover - regeneration entry point
    sys.stdout.write(dumps(build_schema()))
