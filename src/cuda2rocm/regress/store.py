"""Atomic writes: a capture directory is built beside its destination and renamed into place."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.manifest import MANIFEST, TENSORS
from cuda2rocm.results.regress import Manifest


def write_capture(out_dir: Path, manifest: Manifest, tensors: dict[str, Any], *, force: bool = False) -> None:
    """Write ``tensors.safetensors`` + ``manifest.json``; an existing directory is kept as ``<dir>.bak``."""
    from safetensors.torch import save_file

    if out_dir.exists() and not force:
        raise RegressInputError(str(out_dir), "already exists (use --force to replace it; the old one is kept "
                                "as .bak)")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        save_file(tensors, str(tmp / TENSORS), metadata={"format": "cuda2rocm-capture"})
        (tmp / MANIFEST).write_text(manifest.to_json(), "utf-8")
        _swap(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap(tmp: Path, out_dir: Path) -> None:
    if out_dir.exists():
        backup = out_dir.with_name(out_dir.name + ".bak")
        if backup.exists():
            shutil.rmtree(backup) if backup.is_dir() else backup.unlink()
        os.replace(out_dir, backup)
    os.replace(tmp, out_dir)


