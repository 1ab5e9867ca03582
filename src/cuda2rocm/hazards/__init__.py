"""Device-code hazard analysis: what CUDA->HIP translation cannot fix, found and explained.

``analyze`` returns findings (used by ``scan`` and ``convert``; fixable ones carry a structured ``remedy``),
``fixes`` the edits that ``convert --fix-hazards`` applies, ``marker`` the comment ``convert`` leaves next to the rest.
Rules live in :mod:`cuda2rocm.hazards.rules` (family ``device``, ids ``C2R-K1xx`` .. ``C2R-K8xx``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.hazards.context import NOTHING_INHERITED, Inherited
from cuda2rocm.hazards.engine import Structure, hits, safe_edits, to_findings
from cuda2rocm.hazards.targets import Target, UnknownTarget, resolve
from cuda2rocm.model import Edit, Finding
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.tokens import Token

__all__ = ["Inherited", "Target", "UnknownTarget", "analyze", "apply_edits", "fixes", "marker", "resolve"]


def analyze(tokens: Sequence[Token], text: str, path: str, *, target_gpu: str = "MI300X",
            rocm: str | None = None, structure: Structure | None = None,
            inherited: Inherited = NOTHING_INHERITED) -> list[Finding]:
    """Hazard findings for one file's tokens; ``target_gpu`` is a name (``MI300X``) or gfx id.

    ``structure``: ``(match_brackets(tokens), find_functions(tokens, pairs))`` when the caller has them already.
    ``inherited``: the constants the file sees from the headers it includes (the project model's,
    :meth:`cuda2rocm.project.includes.Includes.inherited`).
    """
    return to_findings(tokens, text, path, hits(tokens, text, path, target_gpu, rocm, structure,
                                                inherited=inherited))


def fixes(tokens: Sequence[Token], text: str, path: str, *, unsafe: bool = True) -> list[Edit]:
    """The edits of the hazard fixes (what ``convert --fix-hazards`` applies), non-overlapping, in source order.

    Each finding carries its fix as ``Finding.remedy`` with an applicability: ``safe`` fixes keep CUDA behaviour
    on NVIDIA and remove the hazard on AMD; ``unsafe`` ones (C2R-K202's type widening) remove it but can change
    other arithmetic. ``unsafe=False`` leaves those out."""
    return safe_edits(hits(tokens, text, path), unsafe=unsafe)


def marker(finding: Finding) -> str:
    """A one-line C comment naming the rule and the problem, for code ``convert`` cannot fix."""
    message = " ".join(finding.message.split()).replace("*/", "* /")
    return f"/* cuda2rocm: {finding.rule} {message} */"
