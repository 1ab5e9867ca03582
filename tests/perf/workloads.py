"""Small callables the bench tests drive (imported by module:function, as users' code is)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

_calls = {"n": 0}


def matmul() -> None:
    a = np.ones((64, 64))
    _ = a @ a


def flaky() -> None:
    _calls["n"] += 1
    if _calls["n"] % 3 == 0:
        raise RuntimeError("every third call fails")


def stream() -> Iterator[str]:
    time.sleep(0.002)
    yield from ("a", "b", "c")
