from __future__ import annotations

from cuda2rocm.source.structure import find_functions, find_launches
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
