"""Several arrays in one ``__shared__`` declaration are summed, not multiplied into one array."""

from __future__ import annotations

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize


def _lds_findings(src: str) -> list[str]:
    return [f.message for f in analyze(tokenize(src), src, "k.cu") if f.rule == "C2R-K401"]


@pytest.mark.parametrize(
    ("decl", "expected"),
    [
        ("constexpr int T = 16;\n__global__ void k() { __shared__ float a[T][T], b[T][T]; a[0][0] = b[0][0]; }\n",
         None),
        ("__global__ void k() { __shared__ float a[64][64], b[64][64]; a[0][0] = b[0][0]; }\n", None),
        ("__global__ void k() { __shared__ float a[128][128], b[128][128]; a[0][0] = b[0][0]; }\n", 131072),
        ("__global__ void k() { __shared__ double a[4096], b[4096], c; a[0] = b[0] + c; }\n", 65544),
    ],
)
def test_declarator_lists(decl: str, expected: int | None) -> None:
    found = _lds_findings(decl)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(f"{expected} bytes")
