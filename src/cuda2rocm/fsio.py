"""Atomic file writes shared by every command: readers see the old file or the whole new one, never a part."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_bytes_atomic(path: Path, data: bytes, *, force: bool = True, mode_from: Path | None = None,
                       durable: bool = True) -> None:
    """Write ``data`` via a temporary sibling, fsync and ``os.replace``.

    ``force=False`` refuses to replace an existing file (``FileExistsError``). The new file gets the mode of
    ``mode_from`` when given (an in-place rewrite keeps its permissions), else the usual ``0666 & ~umask``.
    ``durable=False`` skips the fsync: readers still see the old file or the whole new one, but after a power
    loss the new file may be empty. Only for outputs that can be made again from sources left untouched
    (``convert``'s mirrored output tree); a file that replaces the only copy of something is always synced.
    """
    path = Path(path)
    if not force and path.exists():
        raise FileExistsError(f"{path} exists (use --force to overwrite)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, _mode(mode_from))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: Path, text: str, *, force: bool = True, mode_from: Path | None = None,
                      durable: bool = True) -> None:
    """:func:`write_bytes_atomic` of UTF-8 text, newlines written exactly as given."""
    write_bytes_atomic(path, text.encode("utf-8"), force=force, mode_from=mode_from, durable=durable)


def _mode(mode_from: Path | None) -> int:
    if mode_from is not None and mode_from.exists():
        return mode_from.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
