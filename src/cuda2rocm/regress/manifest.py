"""Reading a capture's manifest back (the values: :class:`cuda2rocm.results.regress.Manifest`) and its file names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.results.regress import FORMAT, VERSION, Entry, Manifest

MANIFEST = "manifest.json"
TENSORS = "tensors.safetensors"


def read_manifest(path: Path) -> Manifest:
    try:
        raw = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RegressInputError(str(path), f"cannot read manifest: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RegressInputError(str(path), f"malformed manifest JSON: {exc.msg}", exc.lineno) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RegressInputError(str(path), f"not a {FORMAT} manifest (missing 'format': '{FORMAT}')")
    if raw.get("version") != VERSION:
        raise RegressInputError(str(path), f"manifest version {raw.get('version')!r} is not supported")
    return _from_dict(raw, str(path))


def _from_dict(raw: dict[str, Any], path: str) -> Manifest:
    try:
        entries = tuple(
            Entry(str(e["name"]), str(e["dtype"]), tuple(int(x) for x in e["shape"]),
                  str(e.get("kind", "tensor")), str(e.get("module", "")))
            for e in raw["entries"]
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RegressInputError(path, f"malformed manifest entry ({type(exc).__name__}: {exc})") from None
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise RegressInputError(path, "manifest lists a tensor twice")
    keys = {f for f in Manifest.__dataclass_fields__ if f != "entries"}
    return Manifest(entries=entries, **{k: raw[k] for k in keys if k in raw})
