"""Read the packaged YAML tables (and the user's overlay) once; everything else reads the cache."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from cuda2rocm import datafiles
from cuda2rocm.datafiles import load_packaged_yaml, yaml_error

#: table name -> (packaged file, section inside it)
TABLES: dict[str, tuple[str, str]] = {
    "gpus": ("gpus.yaml", "gpus"),
    "releases": ("rocm.yaml", "releases"),
    "plugins": ("plugins.yaml", "plugins"),
    "libraries": ("libraries.yaml", "libraries"),
    "env_vars": ("env_vars.yaml", "env_vars"),
    "images": ("containers.yaml", "images"),
}
OVERLAY_FILE = "overlay.yaml"
ENV_KB_DIR = "CUDA2ROCM_KB_DIR"


class KnowledgeError(Exception):
    """A knowledge-base file (packaged or user overlay) could not be read or is malformed."""


_kb_dir_override: list[Path] = []


def default_kb_dir() -> Path:
    """``--kb-dir`` (via :func:`use_kb_dir`), else ``$CUDA2ROCM_KB_DIR``, else ``~/.config/cuda2rocm/kb``."""
    if _kb_dir_override:
        return _kb_dir_override[-1]
    env = os.environ.get(ENV_KB_DIR)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cuda2rocm" / "kb"


def use_kb_dir(path: str | Path | None) -> None:
    """Point the knowledge base at another overlay directory (``None`` restores the default) and reload."""
    _kb_dir_override.clear()
    if path is not None:
        _kb_dir_override.append(Path(path))
    reload()


def reload() -> None:
    packaged.cache_clear()
    merged.cache_clear()


def parse_yaml(text: str, name: str) -> Any:
    try:
        return datafiles.parse_yaml(text)
    except yaml_error() as exc:
        raise KnowledgeError(_yaml_problem(exc, name)) from None


def _yaml_problem(exc: Exception, name: str) -> str:
    mark = getattr(exc, "problem_mark", None)
    where = f":{mark.line + 1}" if mark is not None else ""
    return f"{name}{where}: malformed YAML: {getattr(exc, 'problem', None) or exc}"


@functools.cache
def packaged(filename: str) -> dict[str, Any]:
    try:
        _, data = load_packaged_yaml("cuda2rocm.knowledge", f"data/{filename}")
    except yaml_error() as exc:
        raise KnowledgeError(_yaml_problem(exc, filename)) from None
    if not isinstance(data, dict):
        raise KnowledgeError(f"{filename}: expected a mapping at the top level")
    return data


def read_overlay(kb_dir: Path) -> dict[str, Any]:
    path = kb_dir / OVERLAY_FILE
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KnowledgeError(f"{path}: cannot read overlay: {exc}") from None
    data = parse_yaml(text, str(path)) or {}
    if not isinstance(data, dict):
        raise KnowledgeError(f"{path}: expected a mapping of tables (gpus, releases, plugins, ...)")
    return data


def merge_entries(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Field-wise merge: overlay fields replace packaged ones, new keys are added."""
    out = dict(base)
    for key, fields in extra.items():
        key = str(key)
        old = out.get(key)
        out[key] = {**old, **fields} if isinstance(old, dict) and isinstance(fields, dict) else fields
    return out


@functools.cache
def merged(table: str) -> dict[str, Any]:
    """The raw entries of one table: packaged data with the user's overlay applied."""
    filename, section = TABLES[table]
    base = {str(k): v for k, v in (packaged(filename).get(section) or {}).items()}
    overlay = read_overlay(default_kb_dir()).get(table) or {}
    if not isinstance(overlay, dict):
        raise KnowledgeError(f"{default_kb_dir() / OVERLAY_FILE}: table {table!r} must be a mapping")
    return merge_entries(base, overlay)
