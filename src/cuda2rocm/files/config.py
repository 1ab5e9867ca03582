"""Scan settings: defaults, ``[tool.cuda2rocm]`` in pyproject.toml or ``cuda2rocm.toml``, CLI overrides."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

DEFAULT_MAX_FILE_MB = 16.0


class ConfigError(ValueError):
    """A configuration file that cannot be read or has wrong values (the CLI exits 2)."""


@dataclass(frozen=True)
class ScanConfig:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    target_gpu: str = "MI300X"
    max_file_mb: float = DEFAULT_MAX_FILE_MB
    disable: tuple[str, ...] = ()  # rule ids never reported
    respect_gitignore: bool = True
    source: str = ""  # the file the settings came from ("" = defaults)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)


_KEYS = {"include", "exclude", "target_gpu", "target-gpu", "max_file_mb", "max-file-mb", "disable",
         "respect_gitignore", "respect-gitignore"}


def load_config(root: Path, config_file: str | Path | None = None) -> ScanConfig:
    """Settings from ``config_file`` or, if not given, from the scan root (``cuda2rocm.toml`` wins)."""
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"{path}: config file not found")
        return _from_file(path)
    base = root if root.is_dir() else root.parent
    for name in ("cuda2rocm.toml", "pyproject.toml"):
        candidate = base / name
        if candidate.is_file():
            try:
                cfg = _from_file(candidate)
            except ConfigError:
                if name == "cuda2rocm.toml":
                    raise
                continue  # a broken pyproject.toml is reported as a file problem by the scan itself
            if cfg.source:
                return cfg
    return ScanConfig()


def _from_file(path: Path) -> ScanConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    table = data.get("tool", {}).get("cuda2rocm")
    if table is None and path.name == "cuda2rocm.toml":
        table = {k: v for k, v in data.items() if k != "tool"}
    if table is None:
        return ScanConfig()
    return _from_table(table, str(path))


def _from_table(table: dict[str, Any], source: str) -> ScanConfig:
    unknown = sorted(set(table) - _KEYS)
    cfg = ScanConfig(source=source, extra={k: table[k] for k in unknown})
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name in ("include", "exclude", "disable"):
            values[name] = _str_list(value, key, source)
        elif name == "target_gpu":
            values[name] = str(value)
        elif name == "max_file_mb":
            values[name] = _positive(value, key, source)
        elif name == "respect_gitignore":
            values[name] = bool(value)
    return replace(cfg, **values)


def _str_list(value: Any, key: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"{source}: [tool.cuda2rocm] {key} must be a string or a list of strings")


def _positive(value: Any, key: str, source: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    raise ConfigError(f"{source}: [tool.cuda2rocm] {key} must be a positive number")
