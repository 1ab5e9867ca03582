from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cuda2rocm.source.structure import Function, Innermost, find_functions, find_launches
from cuda2rocm.source.tokens import tokenize

SRC = """template <int N> __global__ void __launch_bounds__(256) k(float* a) { a[threadIdx.x] = 1.0f; }
__device__ inline float f(float x) { return x; }
struct S { S() : a(1) {} int a; };
int main() { k<128><<<dim3(1, 2), 32, 0, s>>>(p, q); g<<<1, 1>>>(); Foo<Bar<int>>> x; if (a) { } }
"""


def test_launches() -> None:
    toks = tokenize(SRC)
    launches = find_launches(toks)
    assert [x.name for x in launches] == ["k", "g"]
    first = launches[0]
    config = ["".join(t.src for t in toks[a:b]).strip() for a, b in first.config]
    assert config == ["dim3(1, 2)", "32", "0", "s"]
    assert toks[first.args_open].src == "("


def test_functions_and_qualifiers() -> None:
    funcs = {f.name: f for f in find_functions(tokenize(SRC))}
    assert funcs["k"].is_kernel
    assert funcs["f"].is_device and not funcs["f"].is_kernel
    assert not funcs["main"].is_device
    assert "if" not in funcs


def test_a_launch_in_another_launchs_configuration_closes_only_the_inner_one() -> None:
    # both <<< once found the inner >>> as their closer; --launch-syntax ggl then rewrote it twice (found by fuzzing)
    toks = tokenize("k<<<a, k2<<<1, 2>>>()>>>(x); q<<<f(g<<<1, 1>>>()), 1>>>(y);")
    assert [x.name for x in find_launches(toks)] == ["k2", "q", "g"]
    # nor one inside a bracket take the >>> after its closer
    assert [x.name for x in find_launches(tokenize("k<<<g, (x<<<1, 2)>>>(a); n<<<1, [m<<<2]>>>();"))] == ["k", "n"]


def test_split_args_keeps_a_launch_configuration_whole() -> None:
    from cuda2rocm.source.structure import match_brackets, split_args

    toks = tokenize('CHECK(k<<<g, b>>>(p, n), "k"); f(a<<<1, 2>>>() , x >> y, z)')
    pairs = match_brackets(toks)
    opens = [i for i, t in enumerate(toks) if t.src == "(" and i - 1 >= 0 and toks[i - 1].src in ("CHECK", "f")]
    got = [["".join(t.src for t in toks[a:b]).strip() for a, b in split_args(toks, o, pairs)] for o in opens]
    assert got == [["k<<<g, b>>>(p, n)", '"k"'], ["a<<<1, 2>>>()", "x >> y", "z"]]


def _innermost_by_scan(functions: list[Function], i: int, from_params: bool) -> Function | None:
    """The definition: of the functions whose span strictly holds ``i``, the one that opens last (of two with
    one body, ``__cluster_dims__(2, 1, 1) k(...) {``, the later)."""
    inner = None
    for f in functions:
        start = f.params_open if from_params else f.body_open
        if start < i < f.body_close and (inner is None or start >= (inner.params_open if from_params
                                                                    else inner.body_open)):
            inner = f
    return inner


def _repository_sources() -> list[str]:
    root = Path(__file__).resolve().parents[1]
    suffixes = (".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp", ".hip")
    return [p.read_text(errors="replace") for folder in ("tests", "examples")
            for p in sorted((root / folder).rglob("*")) if p.suffix in suffixes and p.is_file()]


def test_innermost_is_the_innermost_function_by_definition_over_the_repository_sources() -> None:
    sources = [*_repository_sources(), SRC, "void f(int g(int)) { int x; struct S { void m() { x; } }; }"]
    assert len(sources) > 300
    checked = 0
    for text in sources:
        toks = tokenize(text)
        functions = find_functions(toks)
        for from_params in (False, True):
            index = Innermost(functions, from_params=from_params)
            for i in range(0, len(toks), max(1, len(toks) // 400)):  # about 400 tokens a file, all for small ones
                assert index.at(i) == _innermost_by_scan(functions, i, from_params), (text[:80], i)
                checked += index.at(i) is not None
    assert checked > 10_000


@given(st.lists(st.sampled_from(["void f(int a) {", "{", "}", "x;", "g(b) {", "int h(int k(int)) {"]),
                max_size=40))
def test_innermost_matches_the_definition_on_random_nestings(parts: list[str]) -> None:
    toks = tokenize(" ".join(parts))
    functions = find_functions(toks)
    for from_params in (False, True):
        index = Innermost(functions, from_params=from_params)
        for i in range(len(toks) + 1):
            assert index.at(i) == _innermost_by_scan(functions, i, from_params)
