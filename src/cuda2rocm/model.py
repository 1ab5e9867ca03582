"""Core value types shared by every stage: findings, inventory entries, edits, per-file results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

#: dataclass field metadata key: the JSON form leaves the field out while its value is None
OMIT_NONE = "omit_none"


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


class Applicability(str, enum.Enum):
    """How far a :class:`Fix` can be trusted (the scale ruff uses).

    ``safe``: keeps the program's meaning on NVIDIA and removes the problem; applied without review.
    ``unsafe``: removes the problem but can change behaviour elsewhere; apply after review.
    ``manual``: advice only, no edits.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    MANUAL = "manual"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Finding:
    """One diagnostic at one place. ``line``/``col`` are 1-based; 0 means "whole file".

    ``fix`` is the advice as text (what every format prints); ``remedy`` the structured fix when the rule has
    one: edits on this finding's file and how far they can be trusted (None: ``fix`` is advice only)."""

    rule: str
    severity: Severity
    confidence: Confidence
    layer: Layer
    path: str
    line: int
    col: int
    message: str
    fix: str = ""
    #: left out of JSON when None (``OMIT_NONE``), so findings without a structured fix serialise as before
    remedy: Fix | None = field(default=None, metadata={OMIT_NONE: True})

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
class Fix:
    """A finding's structured fix: a title, edits on the finding's file and their :class:`Applicability`.

    A ``manual`` fix has no edits; a ``safe`` or ``unsafe`` one has at least one. Edits are applied with
    ``cuda2rocm.source.edits.apply_fixes`` (the one overlap-checked applier)."""

    message: str
    edits: tuple[Edit, ...] = ()
    applicability: Applicability = Applicability.MANUAL

    def __post_init__(self) -> None:
        if (self.applicability is Applicability.MANUAL) != (not self.edits):
            raise ValueError(f"a {self.applicability} fix must {'not ' if self.edits else ''}have edits")


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
