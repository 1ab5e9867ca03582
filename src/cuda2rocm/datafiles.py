"""Packaged data files: YAML read through their compiled JSON twins, and CSV tables.

The YAML files under ``cuda2rocm/*/data/`` are the sources people edit (with comments, sources and dates).
Parsing YAML in pure Python costs 5-200 ms per file, paid by every worker process of every run, so each file
ships with a twin ``NAME.yaml.json``: ``{"sha256": <digest of the YAML text>, "data": <the parsed data>}``,
made by ``python tools/gen_data_json.py``. A twin is used only when its digest matches the YAML text read at
that moment; otherwise (an edited YAML file, a missing twin) the YAML itself is parsed, so a stale twin can
cost time but never change a result. ``tests/test_datafiles.py`` keeps every twin current and equal.
"""

from __future__ import annotations

import hashlib
import io
import json
from importlib import resources
from typing import Any

TWIN_SUFFIX = ".json"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_yaml(text: str) -> Any:
    """Safe YAML loading (no tags, no objects): the only way data files are read."""
    from ruamel.yaml import YAML  # only when a file has no current twin (or a user's own YAML is read)

    return YAML(typ="safe").load(text)


def yaml_error() -> type[Exception]:
    """ruamel's ``YAMLError`` (what :func:`parse_yaml` raises on malformed YAML), imported when it is asked for:
    ``except yaml_error():`` evaluates only when something was raised, so a run that never parses YAML never
    imports the parser."""
    from ruamel.yaml.error import YAMLError

    return YAMLError


def compile_yaml(text: str) -> str:
    """The JSON twin of a YAML text (its data must be JSON types: mappings with string keys, lists, scalars)."""
    return json.dumps({"sha256": digest(text), "data": parse_yaml(text)}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")) + "\n"


def load_packaged_yaml(package: str, path: str) -> tuple[str, Any]:
    """(YAML text, data) of the packaged file ``path`` of ``package``; the data from its twin when current.

    Raises what :func:`parse_yaml` raises when the YAML has to be parsed and is malformed.
    """
    root = resources.files(package)
    text = root.joinpath(path).read_text(encoding="utf-8")
    twin = root.joinpath(path + TWIN_SUFFIX)
    if twin.is_file():
        try:
            compiled = json.loads(twin.read_text(encoding="utf-8"))
        except ValueError:
            compiled = None
        if isinstance(compiled, dict) and compiled.get("sha256") == digest(text):
            return text, compiled.get("data")
    return text, parse_yaml(text)


def packaged_csv(package: str, path: str) -> list[dict[str, str]]:
    """The rows of the packaged CSV table ``path`` of ``package``; its ``#`` lines are the table's documentation
    (sources, dates, column meanings) and blank lines are skipped: the one way data tables are read."""
    import csv

    text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))
