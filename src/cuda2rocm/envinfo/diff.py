"""``env diff A.json B.json``: what changed between two fingerprints (CUDA baseline vs ROCm target)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm.envinfo.fingerprint import SCHEMA

#: volatile keys that differ on every run and say nothing about the environment
IGNORED = ("collected_at", "notes", "tool_version")
MAX_BYTES = 64 << 20


class FingerprintError(Exception):
    """A fingerprint file that cannot be read or is not a cuda2rocm fingerprint."""


@dataclass(frozen=True)
class Change:
    key: str  # dotted path, e.g. "frameworks.torch.version" or "gpus.0.name"
    before: Any
    after: Any

    @property
    def kind(self) -> str:
        return "added" if self.before is None else "removed" if self.after is None else "changed"


def load(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise FingerprintError(f"{path}: larger than {MAX_BYTES >> 20} MiB; not a fingerprint")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise FingerprintError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise FingerprintError(f"{path}:{exc.lineno}: malformed JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise FingerprintError(f"{path}: not a cuda2rocm fingerprint (expected \"schema\": \"{SCHEMA}\")")
    return data


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return {k: v for i, item in enumerate(value) for k, v in flatten(item, f"{prefix}.{i}").items()}
    return {prefix: value}


def diff(a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    fa = {k: v for k, v in flatten(a).items() if not k.startswith(IGNORED)}
    fb = {k: v for k, v in flatten(b).items() if not k.startswith(IGNORED)}
    return [Change(k, fa.get(k), fb.get(k)) for k in sorted(fa.keys() | fb.keys()) if fa.get(k) != fb.get(k)]
