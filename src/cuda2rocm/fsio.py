"""File I/O shared by every command: safe reading of sources, and atomic writes (readers see the old file or
the whole new one, never a part) whose temporary files a later run can recognise and clean up."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from pathlib import Path

from cuda2rocm.batch import process_alive

#: temporary files of :func:`write_bytes_atomic`: ``.<name>.c2r<pid>-<n>.tmp`` beside the destination
_TEMP_PREFIX = "c2r"
_TEMP_NAME = re.compile(r"\..+\.c2r(\d+)-[^/]*\.tmp")


class InputError(ValueError):
    """A file that cannot be read as text; ``line`` is 1-based where known (0: whole file)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def decode(data: bytes, max_bytes: int, *, keep_undecodable: bool = False) -> str:
    """UTF-8 text of ``data`` (line endings untouched); binary, non-UTF-8 or huge input is an InputError.

    ``keep_undecodable``: bytes that are not UTF-8 (Latin-1/cp1252 comments of legacy sources) become lone
    surrogates (Python's ``surrogateescape``), so a rewrite that leaves them alone writes them back byte for byte
    (:func:`write_text_atomic` encodes the same way); :func:`shown` makes such text printable."""
    if len(data) > max_bytes:
        raise InputError(f"file too large ({len(data) / 2**20:.1f} MiB > limit {max_bytes / 2**20:.1f} MiB)")
    if b"\0" in data[:8192]:
        raise InputError("binary file (NUL bytes)")
    if keep_undecodable:
        return data.decode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})", line) from None


def read_limited(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path``; a file over ``max_bytes`` is refused unread, an OS error is an InputError."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(f"file too large ({size / 2**20:.1f} MiB > limit {max_bytes / 2**20:.1f} MiB)")
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None


def read_source(path: Path, max_bytes: int) -> str:
    """:func:`read_limited` then :func:`decode`."""
    return decode(read_limited(path, max_bytes), max_bytes)


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
    try:
        fd, tmp = _temp_beside(path)
    except FileNotFoundError:  # the folder does not exist yet: made once, not checked before every write
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_beside(path)
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


#: numbers the temporary files of this process (with its pid, the name is unique on the machine)
_TEMP_COUNTER = itertools.count()


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new temporary file next to ``path`` named ``.<name>.c2r<pid>-<n>.tmp`` (mode 0600, like ``mkstemp``), made
    with ``O_EXCL``: a name that exists (a file of ours left by an earlier process with the same pid) is skipped."""
    while True:
        tmp = os.path.join(path.parent, f".{path.name}.{_TEMP_PREFIX}{os.getpid()}-{next(_TEMP_COUNTER)}.tmp")
        try:
            return os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:
            continue


def write_text_atomic(path: Path, text: str, *, force: bool = True, mode_from: Path | None = None,
                      durable: bool = True) -> None:
    """:func:`write_bytes_atomic` of UTF-8 text, newlines written exactly as given."""
    write_bytes_atomic(path, encode(text), force=force, mode_from=mode_from, durable=durable)


def encode(text: str) -> bytes:
    """UTF-8 bytes of ``text``; bytes :func:`decode` kept as surrogates are written back as they were."""
    return text.encode("utf-8", "surrogateescape")


def shown(text: str) -> str:
    """``text`` with the bytes :func:`decode` kept shown as U+FFFD (for terminals, diffs and JSON)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return encode(text).decode("utf-8", "replace")
    return text


def _mode(mode_from: Path | None) -> int:
    if mode_from is not None and mode_from.exists():
        return mode_from.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def clean_stale_temps(directory: Path) -> list[Path]:
    """Remove the temporary files :func:`write_bytes_atomic` left in ``directory`` when its process was killed.

    Only files named as ours (``.<name>.c2r<pid>-<random>.tmp``) whose writing process no longer exists are
    removed: a run still writing (another ``cuda2rocm`` in the same tree) keeps its own. Returns the removed.
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        m = _TEMP_NAME.fullmatch(entry.name)
        if m is None or process_alive(int(m.group(1))) or not entry.is_file(follow_symlinks=False):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed

