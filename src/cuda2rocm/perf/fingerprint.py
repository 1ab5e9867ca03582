"""The environment fingerprint recorded with every bench and comm result, so a comparison shows what differed.

The machine facts are :func:`cuda2rocm.envinfo.fingerprint.this_machine` (``cuda2rocm env``'s fingerprint,
probed once per process); this adds when the record was made.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from cuda2rocm import __version__
from cuda2rocm.envinfo.diff import flatten
from cuda2rocm.envinfo.fingerprint import this_machine


def fingerprint() -> dict[str, Any]:
    return {
        **this_machine(),
        "fingerprint_source": "cuda2rocm.envinfo",
        "tool_version": __version__,
        "recorded_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


_VOLATILE = ("recorded_at", "collected_at", "host", "notes")


def differences(a: dict[str, Any], b: dict[str, Any], ignore: tuple[str, ...] = _VOLATILE) -> list[str]:
    """'key: a -> b' for every (dotted, nested) key that differs between baseline and candidate."""
    fa, fb = flatten(a), flatten(b)  # the same dotted-key view `cuda2rocm env diff` uses
    keys = sorted(k for k in set(fa) | set(fb) if k.split(".")[0] not in ignore)
    return [f"{k}: {fa.get(k)!r} -> {fb.get(k)!r}" for k in keys if fa.get(k) != fb.get(k)]
