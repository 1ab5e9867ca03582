"""Small version helpers: numeric keys, prefix matching (``2.6`` matches ``2.6.0``), newest-first order."""

from __future__ import annotations

import re
from collections.abc import Iterable

from cuda2rocm.lazyre import lazy

_NUM = lazy(r"\d+")


def key(version: str) -> tuple[int, ...]:
    """``"6.4.1"`` -> ``(6, 4, 1)``; non-numeric parts are ignored (``"2.6.0+rocm6.4"`` -> ``(2, 6, 0)``)."""
    head = re.split(r"[+\s]", version.strip(), maxsplit=1)[0]
    return tuple(int(n) for n in _NUM().findall(head))


def matches(wanted: str, listed: str) -> bool:
    """True if ``listed`` agrees with ``wanted`` on every component ``wanted`` gives.

    ``matches("2.6", "2.6.0")`` and ``matches("2.6.0", "2.6")`` are both true: the matrix often lists only
    major.minor, and a user often gives only major.minor. ``matches("2.6", "2.60")`` is false.
    """
    w, lst = key(wanted), key(listed)
    if not w or not lst:
        return False
    n = min(len(w), len(lst))
    return w[:n] == lst[:n]


def padded(version: str, parts: int = 3) -> str:
    """``version`` with zero components added up to ``parts`` (``"2.9"`` -> ``"2.9.0"``)."""
    given = version.split(".")
    return ".".join(given + ["0"] * (parts - len(given)))


def same_release(a: str, b: str) -> bool:
    """Whether two versions name one release (``6.2`` and ``6.2.0``; ``6.2`` and ``6.2.4`` are not)."""
    ka, kb = key(a), key(b)
    return ka + (0,) * (3 - len(ka)) == kb + (0,) * (3 - len(kb))


def newest_first(versions: Iterable[str]) -> list[str]:
    return sorted(versions, key=key, reverse=True)


def is_version(text: str) -> bool:
    return bool(re.fullmatch(r"\d+(\.\d+)*", text.strip()))
