"""Issue 32, class 4: ``__launch_bounds__`` behind a macro. What C2R-K701 (above 1024 threads) and C2R-K702 (a
minimum-blocks argument) check applies through a function-like or object-like macro of the file or of a header it
includes, reported at the kernel whose declaration uses the macro (lines marked ``// <-``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize

RULES = frozenset({"C2R-K701", "C2R-K702"})


def _found(code: str) -> set[tuple[int, str]]:
    return {(f.line, f.rule) for f in analyze(tokenize(code), code, "k.cu", target_gpu="MI300X") if f.rule in RULES}


CASES = [
    ("""#define LB(n, b) __launch_bounds__(n, b)
__global__ void LB(256, 2) a(float* p) { p[0] = 0; }  // <- C2R-K702
__global__ void LB(2048, 1) b(float* p) { p[0] = 0; }  // <- C2R-K701 C2R-K702
""", None),
    ("""#define KERNEL_BOUNDS __launch_bounds__(1024, 2)
template <int N>
__global__ void KERNEL_BOUNDS
reduce(float* p) { p[0] = N; }  // <- C2R-K702
KERNEL_BOUNDS __global__ void d(float* p) { p[0] = 0; }  // <- C2R-K702
""", None),
    # one argument, within the limit: nothing; a macro with no launch bounds: nothing
    ("""#define ONE(n) __launch_bounds__(n)
#define INLINE __forceinline__
__global__ void ONE(256) e(float* p) { p[0] = 0; }
__device__ INLINE float f(float x) { return x; }
""", None),
]


def _expected(code: str) -> set[tuple[int, str]]:
    out = set()
    for n, line in enumerate(code.splitlines(), 1):
        if "// <-" in line:
            out |= {(n, r) for r in line.split("// <-")[1].split()}
    return out


@pytest.mark.parametrize("code", [c for c, _ in CASES])
def test_launch_bounds_through_macros_are_checked_at_the_kernel(code: str) -> None:
    assert _found(code) == _expected(code)


def test_an_object_like_macro_from_a_header(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "bounds.h").write_text("#pragma once\n#define KB __launch_bounds__(512, 4)\n", encoding="utf-8")
    (tmp_path / "k.cu").write_text('#include "bounds.h"\n__global__ void KB k(float* p) { p[0] = 0; }\n',
                                   encoding="utf-8")
    found = [(f.path, f.line, f.rule) for f in scan(tmp_path, target_gpu="MI300X").findings if f.rule in RULES]
    assert found == [("k.cu", 2, "C2R-K702")]


def test_a_function_like_macro_from_a_header(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "lb.h").write_text(
        "#pragma once\n#define LB(t, b) __launch_bounds__(t, b)\n#define BIG(t) __launch_bounds__(t)\n",
        encoding="utf-8")
    (tmp_path / "k.cu").write_text(
        '#include "include/lb.h"\n__global__ void LB(128, 4) k(float* p) { p[0] = 0; }\n'
        "__global__ void BIG(4096) g(float* p) { p[0] = 0; }\n__global__ void BIG(256) h(float* p) { p[0] = 0; }\n",
        encoding="utf-8")
    found = [(f.path, f.line, f.rule) for f in scan(tmp_path, target_gpu="MI300X").findings if f.rule in RULES]
    assert found == [("k.cu", 2, "C2R-K702"), ("k.cu", 3, "C2R-K701")]
