"""The JSON schema of ``render(result, "json")``, derived from the ScanResult dataclasses.

The committed copies (docs/schema/scan-result.schema.json and the one shipped beside this module) are
regenerated with ``python -m cuda2rocm.report._schema`` and a test fails when they go stale.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from importlib import resources
from typing import Any

from cuda2rocm.model import OMIT_NONE
from cuda2rocm.results import SCHEMA_VERSION, ScanResult

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
}


def build_schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    root = _object(ScanResult, defs)
    root["properties"]["schema_version"] = {"const": SCHEMA_VERSION}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:cuda2rocm:schema:scan-result:{SCHEMA_VERSION}",
        "title": "cuda2rocm scan result",
        "description": "Output of `cuda2rocm scan --format json`; generated from cuda2rocm.scan.result.",
        **root,
        "$defs": dict(sorted(defs.items())),
    }


def _object(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    return {
        "type": "object",
        "properties": {f.name: _type(hints[f.name], defs) for f in fields},
        "required": [f.name for f in fields if not f.metadata.get(OMIT_NONE)],
        "additionalProperties": False,
    }


def _type(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"type": "string", "enum": [str(member) for member in tp]}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # placeholder first: breaks cycles
            defs[tp.__name__] = _object(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    return _generic(tp, defs)


def _generic(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": _type(args[0], defs)}
    if origin is tuple:
        items = [_type(a, defs) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type(args[1], defs)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type(a, defs) for a in args]}
    if tp is type(None):
        return {"type": "null"}
    raise TypeError(f"no JSON schema mapping for {tp!r}")


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2) + "\n"


def shipped_schema() -> dict[str, Any]:
    """The schema shipped in the package (what ``validate`` uses)."""
    text = resources.files("cuda2rocm.report").joinpath("schema/scan-result.schema.json").read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


if __name__ == "__main__":  # pragma: no cover - regeneration entry point
    sys.stdout.write(dumps(build_schema()))
