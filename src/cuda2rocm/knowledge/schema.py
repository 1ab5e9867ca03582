"""Field types of each knowledge-base table, used to validate user overlays before they are merged."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from cuda2rocm.knowledge._load import TABLES, KnowledgeError

MATRIX_COLUMNS = ("gfx_targets", "os", "architectures", "driver_compat")
_COMMON = {"source": "str", "date": "date", "unverified": "bool", "notes": "strlist", "reference_differences": "strmap"}

FIELDS: dict[str, dict[str, str]] = {
    "gpus": {"vendor": "vendor", "family": "str", "architecture": "str", "gfx_target": "str",
             "compute_capability": "str", "wavefront_size": "int", "wavefront_sizes": "intlist", "lds_kib": "float",
             "max_lds_per_workgroup_kib": "float", "max_workgroup_size": "int", "memory_gib": "float",
             "bandwidth_tbs": "float", "compute_units": "int", "matrix_cores": "str", "fp8": "fp8", "links": "links",
             "rocm_first_listed": "version"},
    "releases": {"gfx_targets": "strlist", "os": "strlist", "architectures": "strlist",
                 "frameworks": "frameworks", "driver_compat": "strlist", "components": "strmap", "kernels": "strmap"},
    "plugins": {"pip_names": "strlist", "import_names": "strlist", "rocm_support": "support", "replacement": "str",
                "install": "strlist", "caveats": "strlist", "facts": "strlist"},
    "libraries": {"cuda_headers": "strlist", "cuda_link": "str", "hip": "side", "rocm": "side"},
    "env_vars": {"cuda": "str", "rocm": "strlist", "status": "str", "note": "str"},
    "images": {"rocm_image": "str", "replaces": "str", "tags": "str"},
}
SUPPORT_LEVELS = {"native_upstream", "native_amd", "amd_fork", "upstream_partial", "alternative", "none",
                  "deprecated_project"}


def validate_tables(data: Mapping[str, Any], name: str) -> None:
    """Raise :class:`KnowledgeError` listing every problem (``file: table.key.field: what is wrong``)."""
    problems: list[str] = []
    for table, entries in data.items():
        if table not in TABLES:
            problems.append(f"unknown table {table!r} (known: {', '.join(TABLES)})")
        elif not isinstance(entries, Mapping):
            problems.append(f"{table}: expected a mapping of entries")
        else:
            for key, entry in entries.items():
                problems += [f"{table}.{key}{p}" for p in _entry_problems(table, key, entry)]
    if problems:
        raise KnowledgeError(f"{name}: invalid knowledge-base update:\n  " + "\n  ".join(problems))


def _entry_problems(table: str, key: Any, entry: Any) -> list[str]:
    if not isinstance(entry, Mapping):
        return [": expected a mapping of fields"]
    if table == "releases" and not re.fullmatch(r"\d+\.\d+(\.\d+)?", str(key)):
        return [f": {key!r} is not a ROCm version like 7.3.0"]
    spec = {**FIELDS[table], **_COMMON}
    out = [f": missing {f!r} (every fact needs its source and date)" for f in ("source", "date") if not entry.get(f)]
    for fld, value in entry.items():
        kind = spec.get(str(fld))
        if kind is None:
            out.append(f".{fld}: unknown field (known: {', '.join(sorted(spec))})")
        elif not CHECKS[kind](value):
            out.append(f".{fld}: {value!r} is not a valid {kind}")
    return out


def _num(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return not isinstance(v, bool) and float(v) == float(v) and float(v) >= 0


def _strlist(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, (str, int, float)) and str(x).strip() for x in v)


CHECKS: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
    "date": lambda v: bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(v))),
    "bool": lambda v: isinstance(v, bool) or str(v).lower() in {"true", "false"},
    "int": lambda v: _num(v) and float(v) == int(float(v)),
    "float": _num,
    "version": lambda v: bool(re.fullmatch(r"\d+(\.\d+)*", str(v))),
    "vendor": lambda v: v in {"amd", "nvidia"},
    "fp8": lambda v: v in {"fnuz", "ocp", "none"},
    "support": lambda v: v in SUPPORT_LEVELS,
    "strlist": _strlist,
    "intlist": lambda v: isinstance(v, list) and all(_num(x) for x in v),
    "strmap": lambda v: isinstance(v, Mapping) and all(isinstance(x, (str, int, float)) for x in v.values()),
    "frameworks": lambda v: isinstance(v, Mapping) and all(_strlist(x) for x in v.values()),
    "links": lambda v: isinstance(v, list) and all(isinstance(x, Mapping) and x.get("name") for x in v),
    "side": lambda v: v is None or (isinstance(v, Mapping) and bool(v.get("name"))),
}
