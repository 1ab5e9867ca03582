"""Read a file as text, or say clearly why not: too large, unreadable, binary, not UTF-8."""

from __future__ import annotations

from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import FileFacts

_SNIFF = 8192


def read_text(abspath: str, size: int, max_bytes: int, report: FileFacts) -> str | None:
    """The decoded text, or ``None`` after recording a problem. Invalid UTF-8 is decoded with replacement
    characters (and reported) so the rest of the file is still scanned."""
    if size > max_bytes:
        report.problem(rules.E104, f"file is {size / 2**20:.1f} MB, above the {max_bytes / 2**20:.0f} MB limit "
                       "(max_file_mb); skipped")
        return None
    try:
        with open(abspath, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        report.problem(rules.E101, f"cannot read file: {exc.strerror or exc}")
        return None
    if b"\x00" in data[:_SNIFF]:
        report.problem(rules.E102, f"binary content in a file named like {report.language} source; skipped")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        report.problem(rules.E103, f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at line {line}); "
                       "scanned with replacement characters", line)
        return data.decode("utf-8", errors="replace")
