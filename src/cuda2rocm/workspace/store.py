"""Where a workspace's evidence lives and how it is read back.

A workspace is a directory holding ``cuda2rocm.toml`` or a ``.cuda2rocm/`` folder; every recorded run is one
result envelope (:mod:`cuda2rocm.envelope`) under ``.cuda2rocm/records/``. Reading never raises for one bad
record: a file that is not an envelope, or one this tool cannot decode, comes back with its error so a report
can show it as such.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # finding a workspace needs no envelope; reading records imports it
    from cuda2rocm.envelope import Envelope

CONFIG_NAME = "cuda2rocm.toml"
STATE_DIR = ".cuda2rocm"
RECORDS = "records"
ARTIFACTS = "artifacts"


def find(start: str | Path = ".") -> Path | None:
    """The workspace containing ``start`` (itself or the nearest parent with ``cuda2rocm.toml`` or
    ``.cuda2rocm/``), or None."""
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file() or (folder / STATE_DIR).is_dir():
            return folder
    return None


def records_dir(workspace: Path) -> Path:
    return workspace / STATE_DIR / RECORDS


def artifacts_dir(workspace: Path) -> Path:
    """Where the files records reference are kept, each named by its sha256."""
    return workspace / STATE_DIR / ARTIFACTS


def artifact(workspace: Path, sha256: str) -> Path | None:
    """The stored copy of an artifact, or None when the workspace has none."""
    path = artifacts_dir(workspace) / sha256
    return path if path.is_file() else None


class Stored(NamedTuple):
    """One record file: its envelope, or why there is none (``error``)."""

    path: Path
    envelope: Envelope | None = None
    error: str = ""


def load_records(workspace: Path) -> list[Stored]:
    """Every record of the workspace, oldest first (by file name, which starts with the run's start time)."""
    folder = records_dir(workspace)
    if not folder.is_dir():
        return []
    from cuda2rocm.envelope import EnvelopeError, load

    out: list[Stored] = []
    for path in sorted(folder.glob("*.json")):
        try:
            out.append(Stored(path, load(path)))
        except EnvelopeError as exc:
            out.append(Stored(path, error=str(exc)))
    return out
