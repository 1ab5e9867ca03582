"""Regular expressions compiled on first use.

A module-level ``re.compile`` runs at import, whether or not the run needs the pattern: a single-file convert
imports the tokenizer, the translation passes and every hazard rule, and most of their patterns never match a
given file. ``_NAME = lazy(r"...")`` costs nothing at import; ``_NAME()`` is the compiled pattern (compiled on
the first call, the same object afterwards)::

    _HIP_API = lazy(r"hip[A-Z]\\w*")
    if _HIP_API().fullmatch(name): ...

In a loop over many items, take the method once (``fullmatch = _HIP_API().fullmatch``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """``re.compile(pattern, flags)``, done by the first call of the returned function and kept."""
    return functools.cache(functools.partial(re.compile, pattern, flags))
