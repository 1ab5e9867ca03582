"""Release numbers as comparable tuples: ``parse_version("6.2") == (6, 2)``."""

from __future__ import annotations

import functools
import re

_LEADING = re.compile(r"\s*v?(\d+(?:\.\d+)*)")


class Version(tuple[int, ...]):
    """A release number. Trailing zero components are dropped so that ``6.2 == 6.2.0`` and ordering is
    plain tuple ordering; ``str()`` shows at least ``major.minor``."""

    __slots__ = ()

    def __new__(cls, parts: tuple[int, ...] | list[int]) -> Version:
        items = list(parts)
        while len(items) > 1 and items[-1] == 0:
            items.pop()
        if not items or any(p < 0 for p in items):
            raise ValueError(f"not a version: {parts!r}")
        return super().__new__(cls, items)

    def __str__(self) -> str:
        parts = list(self) + [0] * (2 - len(self))
        return ".".join(map(str, parts))

    def __repr__(self) -> str:
        return f"Version({str(self)!r})"

    @property
    def major_minor(self) -> Version:
        return Version(self[:2])


def parse_version(text: str | Version | tuple[int, ...]) -> Version:
    """Parse ``"6.2"``, ``"6.2.4"``, ``"5.2.21153-0"`` (hipcc) or ``"v12.1"``; the numeric prefix counts."""
    if isinstance(text, tuple):
        return text if isinstance(text, Version) else Version(text)
    match = _LEADING.match(text)
    if not match:
        raise ValueError(f"not a version: {text!r}")
    return Version([int(p) for p in match.group(1).split(".")])


@functools.lru_cache(maxsize=1024)
def optional_version(text: str) -> Version | None:
    """Parse a table cell: empty means "not known / not applicable" (cached: tables repeat values)."""
    return parse_version(text) if text.strip() else None
