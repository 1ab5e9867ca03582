"""C2R-E1xx: files the scan could not read or parse (reported per file, the scan goes on)."""

from __future__ import annotations

from cuda2rocm.model import Confidence as C
from cuda2rocm.model import Layer as L
from cuda2rocm.model import Severity as S
from cuda2rocm.rules import new_rule

F = "input"
_WHY = "A file the scan cannot read is a blind spot of the assessment: its risks are not counted."

E101 = new_rule(
    "C2R-E101", "unreadable-file", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports files that could not be opened or read (permissions, I/O errors, vanished files).",
    why=_WHY, example="src/secret.cu: permission denied",
    instead="Fix the permissions or exclude the path with `--exclude`.",
)
E102 = new_rule(
    "C2R-E102", "binary-content", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports files with a source-code name whose content is binary (NUL bytes).",
    why=_WHY, example="kernels/old.cu contains binary data",
    instead="Remove or rename the file, or exclude it.",
)
E103 = new_rule(
    "C2R-E103", "not-utf8", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports text files that are not valid UTF-8 (they are scanned with replacement characters).",
    why="Findings in the undecodable lines may be missed, and hipify/convert refuse to rewrite them.",
    example="src/legacy.cpp line 12: byte 0xe9 is not UTF-8",
    instead="Re-encode the file as UTF-8.",
)
E104 = new_rule(
    "C2R-E104", "file-too-large", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports text files above the size limit (`max_file_mb`, default 16 MB); they are skipped.",
    why=_WHY, example="data/generated_tables.cu is 200 MB",
    instead="Raise `max_file_mb` in `[tool.cuda2rocm]` or exclude generated files.",
)
E105 = new_rule(
    "C2R-E105", "malformed-file", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports configuration files that could not be parsed: YAML, TOML, Dockerfile, CMake.",
    why=_WHY, example="k8s/deploy.yaml line 7: mapping values are not allowed here",
    instead="Fix the syntax; the rest of the file's findings may be missing.",
)
E106 = new_rule(
    "C2R-E106", "symlink-problem", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.BUSINESS,
    what="Reports symbolic links that loop, dangle or point outside the scanned tree (not followed).",
    why=_WHY, example="vendor/self -> . (cycle)",
    instead="Nothing to do unless the link target should be scanned: then scan that path directly.",
)
