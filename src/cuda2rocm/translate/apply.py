"""The edit applier and the one overlap policy, as the translation uses them (see ``cuda2rocm.source.edits``)."""

from __future__ import annotations

from cuda2rocm.source.edits import OverlapError, ordered, select
from cuda2rocm.source.edits import apply_edits as apply

__all__ = ["OverlapError", "apply", "ordered", "select"]
