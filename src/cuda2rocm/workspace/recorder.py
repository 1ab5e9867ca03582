"""Recording a finished run into the workspace it ran in: the envelope under ``.cuda2rocm/records/`` and the
files it attached (:func:`cuda2rocm.envelope.attach`) under ``.cuda2rocm/artifacts/<sha256>``.

The workspace is the one around the command's project path (what it worked on), else around the current
directory. Records are written atomically with the name :func:`cuda2rocm.envelope.record_name` gives (start
time, kind, hash of the text), so two runs never share a file and a record is never half written. An artifact
is copied once per content: a second run over the same capture stores nothing new.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cuda2rocm.workspace.store import artifacts_dir, find, records_dir

if TYPE_CHECKING:  # finding the workspace needs no envelope; storing one imports it
    from cuda2rocm.envelope import Artifact, Envelope


def workspace_for(*starts: str | Path) -> Path | None:
    """The first workspace found from ``starts`` (in order; empty strings skipped)."""
    for start in starts:
        if start and Path(start).exists():
            ws = find(start)
            if ws is not None:
                return ws
    return None


def store(env: Envelope, workspace: Path) -> Path:
    """Write ``env`` into ``workspace``'s records (and its artifacts by content hash); the record's path."""
    from cuda2rocm.envelope import write

    keep_artifacts(workspace, env.artifacts)
    folder = records_dir(workspace)
    folder.mkdir(parents=True, exist_ok=True)
    return write(env, folder)


def keep_artifacts(workspace: Path, artifacts: Iterable[Artifact]) -> list[Path]:
    """Copy each artifact to ``artifacts/<sha256>`` unless a copy is there; a file that changed since it was
    hashed, or cannot be read, is not stored (the record still names its hash)."""
    out = []
    for art in artifacts:
        dest = artifacts_dir(workspace) / art.sha256
        if dest.is_file() or not _copy_checked(Path(art.path), dest, art.sha256):
            continue
        out.append(dest)
    return out


def _copy_checked(src: Path, dest: Path, sha256: str) -> bool:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.c2r{os.getpid()}.tmp")
    h = hashlib.sha256()
    try:
        with src.open("rb") as fin, tmp.open("wb") as fout:
            for block in iter(lambda: fin.read(1 << 20), b""):
                h.update(block)
                fout.write(block)
        if h.hexdigest() != sha256:
            tmp.unlink()
            return False
        os.replace(tmp, dest)
    except OSError:
        tmp.unlink(missing_ok=True)
        return False
    return True


