"""The value of ``compat`` (:class:`CompatReport`): the query, the ROCm release checked, one :class:`Verdict` per
pair and the recommendation. ``knowledge/compat.py`` answers the query from the knowledge base, ``knowledge/support.py``
decides each pair."""

from __future__ import annotations

from dataclasses import dataclass, field

#: a verdict's status
SUPPORTED, UNSUPPORTED, UNKNOWN = "supported", "unsupported", "unknown"


@dataclass(frozen=True)
class Verdict:
    """One pair's answer, with the matrix row it rests on (``source``) and why."""

    pair: str  # e.g. "gpu MI300X / rocm 6.4.3"
    status: str  # supported | unsupported | unknown
    reason: str
    source: str = ""


@dataclass(frozen=True)
class Query:
    gpu: str = ""
    rocm: str = ""
    os: str = ""
    frameworks: dict[str, str] = field(default_factory=dict)  # "pytorch" -> "2.6"

    def is_empty(self) -> bool:
        return not (self.gpu or self.rocm or self.os or self.frameworks)


@dataclass(frozen=True)
class Recommendation:
    rocm: str
    os: str
    frameworks: dict[str, str]
    source: str


@dataclass(frozen=True)
class CompatReport:
    query: Query
    release: str  # the ROCm release checked ("" when none could be chosen)
    verdicts: tuple[Verdict, ...]
    notes: tuple[str, ...] = ()
    recommendation: Recommendation | None = None

    @property
    def status(self) -> str:
        states = {v.status for v in self.verdicts}
        if UNSUPPORTED in states:
            return UNSUPPORTED
        if UNKNOWN in states or not states:
            return UNKNOWN
        return SUPPORTED
