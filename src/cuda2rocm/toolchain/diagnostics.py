"""Parse compiler output (clang/hipcc, nvcc front end, linkers) into :class:`Diagnostic` values."""

from __future__ import annotations

import re
from dataclasses import dataclass

# clang / gcc / hipcc:  path:line:col: error: message
_CLANG = re.compile(
    r"^(?P<path>[^\s:][^:\n]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
    r"(?P<sev>fatal error|error|warning|note|remark): (?P<msg>.*)$"
)
# nvcc front end:  path(line): error #20: message   /   path(line): warning #177-D: message
_NVCC = re.compile(
    r"^(?P<path>[^\n(]+)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)"
    r"(?: #[\w-]+)?: (?P<msg>.*)$"
)
# tools without a location:  ld.lld: error: message   /   ptxas fatal   : message
_TOOL_PREFIX = re.compile(r"^(?P<tool>ld(?:\.lld)?|lld|ptxas|nvlink|clang(?:\+\+)?|hipcc|nvcc|/usr/bin/ld)\b")
SEVERITIES = ("error", "warning", "note", "remark")


@dataclass(frozen=True)
class Diagnostic:
    """One compiler message. ``line``/``col`` are 1-based; 0 when the tool gave no location."""

    path: str
    line: int
    col: int
    severity: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}" if self.line else (self.path or "<toolchain>")
        return f"{where}: {self.severity}: {self.message}"


def _severity(text: str) -> str:
    text = text.strip()
    return "error" if text in ("fatal error", "catastrophic error", "fatal") else text


def parse_line(line: str) -> Diagnostic | None:
    """One diagnostic from one output line, or None for context lines (source echo, carets)."""
    line = line.rstrip()
    match = _CLANG.match(line) or _NVCC.match(line)
    if match:
        col = match.groupdict().get("col") or 0
        return Diagnostic(match["path"], int(match["line"]), int(col), _severity(match["sev"]), match["msg"])
    return _tool_line(line)


def _tool_line(line: str) -> Diagnostic | None:
    if not _TOOL_PREFIX.match(line):
        return None
    head, _, rest = line.partition(":")
    tool, _, level = head.strip().partition(" ")
    rest = rest.strip()
    if level.strip() in ("fatal", "error"):
        return Diagnostic("", 0, 0, "error", f"{tool}: {rest}")
    for severity in ("fatal error", "error", "warning"):
        if rest.startswith(severity + ":"):
            return Diagnostic("", 0, 0, _severity(severity), f"{tool}: {rest[len(severity) + 1 :].strip()}")
    if "undefined reference" in rest or "undefined symbol" in rest:
        return Diagnostic("", 0, 0, "error", f"{tool}: {rest}")
    return None


def parse_diagnostics(output: str) -> tuple[Diagnostic, ...]:
    """Every diagnostic in a compiler's combined output, in order, without duplicates."""
    seen: dict[Diagnostic, None] = {}
    for line in output.splitlines():
        diagnostic = parse_line(line)
        if diagnostic is not None:
            seen.setdefault(diagnostic, None)
    return tuple(seen)
