"""What both the CLI run's bookkeeping (:mod:`cuda2rocm.envelope`) and the envelope (``core``) need: time
stamps and the folder a project path stands for."""

from __future__ import annotations

import datetime as dt
from pathlib import Path


def now() -> str:
    """UTC time stamp as envelopes write it (ISO 8601, milliseconds, ``Z``)."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def folder_of(path: str | Path) -> str:
    """The folder ``path`` names (a file's own folder), resolved, as a POSIX path."""
    p = Path(path).resolve()
    return (p if p.is_dir() else p.parent).as_posix()
