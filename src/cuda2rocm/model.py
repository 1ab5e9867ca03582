"""Core value types shared by every stage: findings, inventory entries, edits, per-file results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.IntEnum):
    """How bad it is if the finding is real. Ordered so ``>=`` compares with ``--fail-on``."""

    INFO = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.strip().upper()]


class Confidence(enum.IntEnum):
    """How sure the rule is that the finding is real."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Confidence:
        return cls[text.strip().upper()]


class Layer(str, enum.Enum):
    """The seven layers of a migration (the assessment grades each one)."""

    BUSINESS = "business"
    FRAMEWORK = "framework"
    MODEL = "model"
    EXTENSION = "extension"
    LIBRARY = "library"
    LOW_LEVEL = "low-level"
    OPS = "ops"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Finding:
    """One diagnostic at one place. ``line``/``col`` are 1-based; 0 means "whole file"."""

    rule: str
    severity: Severity
    confidence: Confidence
    layer: Layer
    path: str
    line: int
    col: int
    message: str
    fix: str = ""

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.rule)


@dataclass(frozen=True)
class Component:
    """One inventory fact: ``CUDA 12.1`` found in ``Dockerfile`` line 1."""

    kind: str  # e.g. "cuda", "cudnn", "nccl", "driver", "framework", "plugin", "python"
    name: str
    version: str
    path: str
    line: int
    evidence: str = ""


@dataclass(frozen=True)
class Edit:
    """Replace ``source[start:end]`` (character offsets into the decoded text) by ``replacement``.

    ``rule`` names the mapping or fix behind it."""

    start: int
    end: int
    replacement: str
    rule: str = ""


@dataclass(frozen=True)
class Translated:
    path: str
    output: str
    text: str
    edits: tuple[Edit, ...]
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class Unchanged:
    path: str
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


@dataclass(frozen=True)
class Failed:
    path: str
    error: str
    line: int = 0


FileResult = Translated | Unchanged | Skipped | Failed


@dataclass(frozen=True)
class InputProblem:
    """A file the run could not read or parse; reported, never raised past the file boundary."""

    path: str
    message: str
    line: int = 0
    extra: dict[str, str] = field(default_factory=dict)
