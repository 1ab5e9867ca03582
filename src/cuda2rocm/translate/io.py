"""Reading sources safely and writing outputs atomically (temp file + ``os.replace``)."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.fsio import write_bytes_atomic, write_text_atomic


class InputError(ValueError):
    """A file that cannot be translated as text; ``line`` is 1-based where known (0: whole file)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def decode(data: bytes, max_bytes: int) -> str:
    """UTF-8 text of ``data`` (line endings untouched); binary, non-UTF-8 or huge input is an InputError."""
    if len(data) > max_bytes:
        raise InputError(f"file too large ({len(data) / 2**20:.1f} MiB > limit {max_bytes / 2**20:.1f} MiB)")
    if b"\0" in data[:8192]:
        raise InputError("binary file (NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})", line) from None


def read_source(path: Path, max_bytes: int) -> str:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(f"file too large ({size / 2**20:.1f} MiB > limit {max_bytes / 2**20:.1f} MiB)")
        return decode(path.read_bytes(), max_bytes)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None


def write_atomic(path: Path, text: str, mode_from: Path | None = None, durable: bool = True) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one, never a part.

    ``durable=False`` (outputs beside untouched sources) skips the fsync; see :func:`fsio.write_bytes_atomic`.
    """
    write_text_atomic(path, text, mode_from=mode_from, durable=durable)


def backup(path: Path, suffix: str = ".orig") -> Path:
    """Copy ``path`` to ``path + suffix`` atomically (the caller checks it does not exist yet)."""
    target = path.with_name(path.name + suffix)
    write_bytes_atomic(target, path.read_bytes(), mode_from=path)
    return target
