"""``convert`` runs the hazard analysis once per file, with or without ``--fix-hazards``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cuda2rocm import hazards
from cuda2rocm.hazards import engine
from cuda2rocm.model import Translated
from cuda2rocm.source.tokens import tokenize
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

SRC = """#include <cuda_runtime.h>
__global__ void k(const float* x, float* out) {
  float v = x[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = v;
}
"""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per hazard analysis (``engine.hits`` reads the rule table once per run)."""
    counted: list[int] = []
    real: Callable[[], Any] = engine._rules

    def counting() -> Any:
        counted.append(1)
        return real()

    monkeypatch.setattr(engine, "_rules", counting)
    return counted


@pytest.mark.parametrize(("options", "expected"), [
    (Options(fix_hazards=True), 1),
    (Options(), 1),
    (Options(hazards=False, fix_hazards=True), 1),
    (Options(hazards=False), 0),
])
def test_one_analysis_per_file(runs: list[int], options: Options, expected: int) -> None:
    convert_source(SRC, "k.cu", options)
    assert len(runs) == expected


def test_fixes_and_findings_are_those_of_separate_analyses() -> None:
    tokens = tokenize(SRC)
    applied = convert_source(SRC, "k.cu", Options(fix_hazards=True))
    assert isinstance(applied, Translated)
    fixes = hazards.fixes(tokens, SRC, "k.cu")
    assert fixes and {(e.start, e.end, e.replacement) for e in fixes} <= {
        (e.start, e.end, e.replacement) for e in applied.edits}
    found = {f.rule for f in hazards.analyze(tokens, SRC, "k.cu")}
    assert found & {f.rule for f in applied.findings}
