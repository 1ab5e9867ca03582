"""The JSON schema of a result envelope (``report/schema/envelope.schema.json``, copied to docs/schema/).

Regenerate the committed copies with ``python -m cuda2rocm.envelope.schema``; a test fails when they go stale.
Each kind's payload is described too, derived from its payload type the way ``codec.encode`` writes it (NaN and
infinities as strings, non-string-keyed mappings as ``[key, value]`` pairs); a ``null`` payload is a run that
produced no result.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from collections.abc import Mapping
from importlib import resources
from pathlib import Path, PurePath
from typing import Any

from cuda2rocm.envelope import SCHEMA_VERSION, TOOL_NAME, Artifact, Origin
from cuda2rocm.envelope.kinds import KINDS
from cuda2rocm.model import OMIT_NONE

_STAMP = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$"


def build_schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    payloads = {k.name: payload_schema(k.payload_type(), defs) for k in KINDS.values()}
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
            "artifacts": {"type": "array", "items": payload_schema(Artifact, defs),
                          "description": "files the result was computed from, by sha256 (since 1.1)"},
            "origin": {"allOf": [payload_schema(Origin, defs)],
                       "description": "where an imported envelope was made (since 1.1)"},
        },
        "required": ["kind", "schema_version", "payload_schema_version", "tool", "command_line", "started_at",
                     "finished_at", "exit_status", "project", "machine", "payload"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"kind": {"const": k.name}}},
             "then": {"properties": {"payload_schema_version": {"const": k.version},
                                     "payload": {"anyOf": [payloads[k.name], {"type": "null"}]}},
                      "description": k.description}}
            for k in sorted(KINDS.values(), key=lambda k: k.name)
        ],
        "$defs": dict(sorted(defs.items())),
    }


_FLOAT = {"anyOf": [{"type": "number"}, {"enum": ["nan", "inf", "-inf"]}]}  # the codec writes NaN/inf as strings


def payload_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of what ``codec.encode`` writes for a value of type ``tp``."""
    if tp is Any:
        return {}
    if tp is type(None):
        return {"type": "null"}
    simple = {bool: "boolean", int: "integer", str: "string", dict: "object", list: "array"}
    if tp in simple:
        return {"type": simple[tp]}
    if tp is float:
        return dict(_FLOAT)
    if tp in (Path, PurePath):
        return {"type": "string"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [str(m) for m in tp]}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        module = "envelope" if tp.__module__ == "cuda2rocm.envelope.core" else tp.__module__  # public there
        name = f"{module.removeprefix('cuda2rocm.')}.{tp.__qualname__}"
        if name not in defs:
            defs[name] = {}  # placeholder first: breaks cycles
            hints = typing.get_type_hints(tp)
            fields = [f for f in dataclasses.fields(tp) if f.init]
            defs[name] = {"type": "object", "properties": {f.name: payload_schema(hints[f.name], defs) for f in fields},
                          "required": [f.name for f in fields if not f.metadata.get(OMIT_NONE)],
                          "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [payload_schema(a, defs) for a in args]}
    if origin in (tuple, list):
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            return {"type": "array", "items": payload_schema(args[0], defs) if args else {}}
        items = [payload_schema(a, defs) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin in (dict, Mapping):
        key, value = args
        if key is str:
            return {"type": "object", "additionalProperties": payload_schema(value, defs)}
        pair = [payload_schema(key, defs), payload_schema(value, defs)]  # [key, value] pairs; empty: {}
        return {"anyOf": [{"type": "array", "items": {"type": "array", "prefixItems": pair, "minItems": 2,
                                                      "maxItems": 2}},
                          {"type": "object", "maxProperties": 0}]}
    raise TypeError(f"no JSON schema for payload type {tp!r}")


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2) + "\n"


def shipped_schema() -> dict[str, Any]:
    text = resources.files("cuda2rocm.report").joinpath("schema/envelope.schema.json").read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


if __name__ == "__main__":  # pragma: no cover - regeneration entry point
    sys.stdout.write(dumps(build_schema()))
