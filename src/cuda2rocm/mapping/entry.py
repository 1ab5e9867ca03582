"""One row of a mapping table, and what it becomes for a given ROCm release."""

from __future__ import annotations

from typing import NamedTuple

from cuda2rocm.mapping.version import Version, parse_version

SUPPORT_LEVELS = ("supported", "unsupported", "experimental", "deprecated", "removed")


class Resolution(NamedTuple):
    """The name to write for a target release. ``drop_args`` are 0-based call arguments to remove
    (``__shfl_down_sync(mask, v, d)`` -> ``__shfl_down(v, d)`` drops argument 0)."""

    name: str
    drop_args: tuple[int, ...] = ()
    fallback: bool = False


class Entry(NamedTuple):
    cuda: str
    hip: str
    roc: str
    library: str
    kind: str
    support: str
    hip_added: Version | None
    hip_deprecated: Version | None
    hip_removed: Version | None
    experimental: bool
    note: str
    cuda_added: Version | None = None
    cuda_deprecated: Version | None = None
    cuda_removed: Version | None = None
    fallback: str = ""
    drop_args: tuple[int, ...] = ()
    section: str = ""
    source: str = ""

    @property
    def has_equivalent(self) -> bool:
        return bool(self.hip) and self.support not in ("unsupported", "removed")

    def available_in(self, rocm: Version | str) -> bool:
        """True when ``hip`` exists in that ROCm release: ``hip_added <= rocm < hip_removed``."""
        if not self.hip or self.support == "unsupported":
            return False
        version = parse_version(rocm)
        if self.hip_added is not None and version < self.hip_added:
            return False
        return self.hip_removed is None or version < self.hip_removed

    def resolve(self, rocm: Version | str | None = None, *, roc: bool = False) -> Resolution | None:
        """What to write for ``rocm`` (None: newest), or None when there is no equivalent there."""
        if roc:
            return Resolution(self.roc) if self.roc else None
        if rocm is None or self.available_in(rocm):
            return Resolution(self.hip) if self.has_equivalent else self._fallback()
        return self._fallback()

    def _fallback(self) -> Resolution | None:
        return Resolution(self.fallback, self.drop_args, True) if self.fallback else None


class HeaderEntry(NamedTuple):
    cuda: str
    hip: str
    roc: str
    library: str
    support: str
    hip_added: Version | None
    fallback: str
    source: str
    note: str

    def resolve(self, rocm: Version | str | None = None, *, roc: bool = False) -> str | None:
        """The header to include for ``rocm`` (None: newest); None when there is no equivalent."""
        if roc and self.roc:
            return self.roc
        if not self.hip:
            return None
        if rocm is not None and self.hip_added is not None and parse_version(rocm) < self.hip_added:
            return self.fallback or None
        return self.hip
