"""Unit and invariant tests of the pieces: constant evaluation, PTX triage, data flow, targets, robustness."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from cuda2rocm.hazards import UnknownTarget, analyze, fixes, resolve
from cuda2rocm.hazards.context import Source
from cuda2rocm.hazards.flow import flow_of
from cuda2rocm.hazards.ptx import instructions, triage
from cuda2rocm.source.consteval import evaluate, parse_int
from cuda2rocm.source.tokens import tokenize

REFERENCE = Path("/work/shared/reference/gpus.yaml")


@pytest.mark.parametrize(("text", "value"), [
    ("32", 32), ("0x1f", 31), ("0xFFFFFFFFu", 0xFFFFFFFF), ("1'024", 1024), ("010", 8), ("0b101", 5), ("7ull", 7),
    ("0", 0), ("08", None), ("0x'", None), ("0b'", None),
])
def test_parse_int(text: str, value: int | None) -> None:
    assert parse_int(text) == value


@pytest.mark.parametrize(("expr", "value"), [
    ("2 * (3 + 4)", 14), ("1 << 10", 1024), ("sizeof(float) * 256", 1024), ("(int)7 / 2", 3), ("-7 / 2", -3),
    ("N * N", 4096), ("N > 32 ? 1 : 2", 1), ("sizeof(T) * 4", 32), ("UNKNOWN * 2", None), ("1 / 0", None),
    # exact past 2**53, truncated toward zero (float division made 0xffffffffffffffff % 10 -1025)
    ("0xffffffffffffffff % 10", 5), ("0xffffffffffffffff / 1", 2**64 - 1), ("(1 << 53) + 1", 2**53 + 1),
    ("((1 << 53) + 1) / 1", 2**53 + 1),
    ("-7 % 2", -1), ("7 % -2", 1), ("-7 / -2", 3), ("7 / -2", -3),
])
def test_evaluate(expr: str, value: int | None) -> None:
    env = {"N": tokenize("64"), "T": tokenize("double")}
    assert evaluate(tokenize(expr), env) == value


def test_evaluate_survives_self_reference() -> None:
    assert evaluate(tokenize("A"), {"A": tokenize("A + 1")}) is None


@pytest.mark.parametrize(("prefix", "suffix"), [("(", ")"), ("- ", ""), ("1 ? ", " : 0"), ("(int)", "")],
                         ids=["brackets", "unary", "ternary", "casts"])
def test_evaluate_deep_nesting_is_unknown_not_a_recursion_error(prefix: str, suffix: str) -> None:
    # found by fuzzing: __shared__ float s[((...(32)...))] with 100 brackets was an internal error in convert
    def nest(n: int, inner: str = "32") -> str:
        return prefix * n + inner + suffix * n

    assert evaluate(tokenize(nest(20)), {}) == 32
    assert evaluate(tokenize(nest(1000)), {}) is None
    # the bound counts the nesting of the names an expression expands too
    env = {"A": tokenize(nest(30)), "B": tokenize(nest(30, "A"))}
    assert evaluate(tokenize("A"), env) == 32 and evaluate(tokenize("B"), env) is None
    code = "__global__ void k(float* o) { __shared__ float s[" + nest(300) + "]; o[0] = s[0]; }"
    analyze(tokenize(code), code, "deep.cu")


@pytest.mark.parametrize(("stmt", "key", "category"), [
    ("cvt.rn.f16.f32 %0, %1", "cvt.rn", "builtin"),
    ("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4]", "ld.global.nc", "builtin"),
    ("mov.u32 %0, %laneid", "mov.%laneid", "builtin"),
    ("cp.async.bulk.tensor.2d.shared::cluster.global [%0], [%1]", "cp.async.bulk", "nvidia-hw"),
    ("cp.async.ca.shared.global [%0], [%1], 16", "cp.async", "builtin"),
    ("dp4a.u32.u32 %0, %1, %2, %3", "dp4a.u32.u32", "manual"),
])
def test_ptx_triage(stmt: str, key: str, category: str) -> None:
    t = triage(stmt)
    assert (t.key, t.category) == (key, category)
    assert t.replacement or category == "manual"


def test_ptx_instructions_skip_directives_labels_predicates() -> None:
    got = instructions("{\n .reg .pred p;\n L1: setp.ne.b32 p, %1, 0;\n @p st.global.u32 [%0], 1;\n}")
    assert [s.split()[0] for s in got] == ["setp.ne.b32", "st.global.u32"]


def test_flow_classifies_variables() -> None:
    text = ("__global__ void k(volatile int* f, __half* h) { int tid = blockIdx.x * blockDim.x + threadIdx.x;"
            " int lane = tid & 31; int w = tid / warpSize; unsigned long long b = __ballot_sync(__activemask(), 1);"
            " unsigned m = 0xffffffff; int n = __shfl_up_sync(__activemask(), tid, 1); }")
    src = Source(tokenize(text), text, "t.cu", resolve("MI300X"))
    flow = flow_of(src, src.functions[0])
    assert flow.thread >= {"tid"} and flow.lane == {"lane"} and flow.warp == {"w"}
    assert flow.ballot == {"b"} and flow.fullmask == {"m"} and "n" not in flow.ballot
    assert flow.volatile == {"f"} and "__half" in flow.types["h"]


def test_target_names_and_lds() -> None:
    assert resolve("MI300X").lds_kib == 64 and resolve("MI355X").lds_kib == 160
    assert resolve("gfx90a").wavefront == 64
    with pytest.raises(UnknownTarget):
        resolve("GeForce 256")


@pytest.mark.skipif(not REFERENCE.exists(), reason="reference data only in the development checkout")
def test_targets_agree_with_reference() -> None:
    """Every AMD GPU the hazard analysis resolves (from the knowledge base) matches the shared reference facts
    (name, gfx, wave, LDS)."""
    from cuda2rocm import knowledge

    ref = YAML(typ="safe").load(REFERENCE.read_text(encoding="utf-8"))["amd"]
    checked = 0
    for name, gpu in knowledge.gpus().items():
        entry = ref.get(name)
        if entry is None or gpu.vendor != "amd":
            continue
        target = resolve(name)
        assert entry["gfx_target"] == target.gfx, target.name
        # RDNA: "32 or 64 (wave32 and wave64)"; the first is the default
        assert int(str(entry["wavefront_size"]).split()[0]) == target.wavefront, target.name
        assert int(entry["max_lds_per_workgroup_kib"]) == target.lds_kib, target.name
        checked += 1
    assert checked >= 5


LDS_SNIPPET = "__global__ void k(float* p) { __shared__ float a[100 * 256]; a[threadIdx.x] = p[0]; }"


@pytest.mark.parametrize(("target", "fires"), [("MI300X", True), ("MI250X", True), ("MI350X", False),
                                               ("gfx950", False)])
def test_lds_limit_depends_on_target(target: str, fires: bool) -> None:
    rules = {f.rule for f in analyze(tokenize(LDS_SNIPPET), LDS_SNIPPET, "t.cu", target_gpu=target)}
    assert ("C2R-K401" in rules) is fires


def test_findings_have_locations_and_fix_hint() -> None:
    text = "\n\n__device__ int f(bool p) {\n  return __popc(__ballot_sync(0xffffffff, p));\n}\n"
    found = analyze(tokenize(text), text, "dir/t.cu")
    assert [(f.rule, f.line) for f in found] == [("C2R-K203", 4), ("C2R-K201", 4)]
    assert all(f.path == "dir/t.cu" and f.col > 0 and f.fix for f in found)


@pytest.mark.parametrize("text", [
    "", "/* unterminated", "\"unterminated", "__global__ void k( {", "asm(", "for (int o = 16; o > 0",
    "#define WARP_SIZE\n", "k<<<", "__shared__ float x[;", "\x00\x01\xff binary", "}}}}{{{{",
    "template <int N> __global__ void k() { __shared__ float s[N]; }\nvoid r() { k<<<<1, 2>>>(); }",
    # found by fuzzing: a check read the kind of the token after the last one (Source.kind answers "" there)
    "texture<>", "cooperative_groups::", "cooperative_groups::thread_block_tile<32>",
])
def test_malformed_input_never_raises(text: str) -> None:
    analyze(tokenize(text), text, "bad.cu")
    fixes(tokenize(text), text, "bad.cu")


_PIECES = [*"{}()[]<>;,=&|%/*+-~!#\n 0123456789x_", "threadIdx.x", "__shfl_xor_sync", "__ballot_sync", "__popc",
           "for", "while", "__shared__", "asm", "32", "0xffffffff", "__global__ void k", "unsigned", "volatile",
           "\"mov.u32 %0, %%laneid;\"", "<<<", ">>>", "__launch_bounds__", "dim3", "#define W 32\n"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
@example("32*")  # a warp-multiple operand past the last token (found by this test)
def test_random_token_soup_never_raises(text: str) -> None:
    analyze(tokenize(text), text, "fuzz.cu")
    edits = fixes(tokenize(text), text, "fuzz.cu")
    assert all(0 <= e.start <= e.end <= len(text) for e in edits)


# -- C2R-K101 in launch configuration and strides (issue 17's class); precision cases beside each ----------

def _run(code: str) -> list:  # type: ignore[type-arg]
    return list(analyze(tokenize(code), code, "x.cu"))


_WARP_KERNEL = "__global__ void k(float* v) { v[0] = __shfl_down_sync(0xffffffffffffffffULL, v[0], 1); }\n"


@pytest.mark.parametrize(("code", "line"), [
    ("constexpr int kWarps = 4;\n__global__ void __launch_bounds__(kWarps * 32) k(float* v) {}\n", 2),
    (_WARP_KERNEL + "void run(float* v, int warps) { k<<<1, warps * 32>>>(v); }\n", 2),
    (_WARP_KERNEL + "void run(float* v, int n) {\n  dim3 block(n * 32);\n  k<<<1, block>>>(v);\n}\n", 3),
    ("constexpr int kThreads = 256;\nconstexpr int kWarps = kThreads / 32;\n", 2),
    ("__global__ void r(const float* m, float* o, int cols) {\n  int lane = threadIdx.x % warpSize;\n  float s = 0;\n"
     "  for (int c = lane; c < cols; c += 32) s += m[c];\n  o[lane] = s;\n}\n", 4),
    ("__global__ void r(const float* x, float* o, int n, int step) {\n  int lane = threadIdx.x & (warpSize - 1);\n"
     "  int k = lane * step;\n  float a = 0;\n  while (k < n) { a += x[k]; k += 32 * step; }\n  o[lane] = a;\n}\n", 5),
])
def test_warp_width_in_launch_configuration_and_strides(code: str, line: int) -> None:
    assert ("C2R-K101", line) in {(f.rule, f.line) for f in _run(code)}


@pytest.mark.parametrize("code", [
    # a tile of 32x8 threads for a kernel without warp primitives: 32 is a tile edge
    "__global__ void t(float* o) { o[threadIdx.y * 32 + threadIdx.x] = 0; }\n"
    "void run(float* o, int n) {\n  dim3 block(n * 32, 8);\n  t<<<1, block>>>(o);\n}\n",
    # a byte count and a plain stride that is not over lanes
    "void f(char* p, int n) {\n  int bytes = n * 32;\n  for (int i = 0; i < bytes; i += 32) p[i] = 0;\n}\n",
    # 32 rows per block, computed from a thread count that is not a warp count
    "constexpr int kThreads = 256;\nconstexpr int kRows = kThreads / 32;\n",
])
def test_thirty_two_that_is_not_a_warp_width(code: str) -> None:
    assert "C2R-K101" not in {f.rule for f in _run(code)}
