"""The SIMD helper header (translate/data/headers/cuda2rocm_simd.h) that stands in for CUDA's per-byte and
per-halfword intrinsics on HIP.

Three independent checks: the header compiled for the host agrees with a reference written here from the
CUDA Math API's descriptions (lanes as numpy arrays, a different construction from the header's); it compiles
for an AMD target with the real hipcc; and on an NVIDIA GPU it is bit-exact against CUDA's own intrinsics
(tests/translate/simd/simd_exact.cu; skipped without a GPU, run by scripts/gpu/simd.sh)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

HEADERS = Path(__file__).resolve().parents[2] / "src" / "cuda2rocm" / "translate" / "data" / "headers"
EXACT = Path(__file__).parent / "simd" / "simd_exact.cu"


def _lanes(words: np.ndarray, width: int, signed: bool) -> np.ndarray:
    view = words.astype("<u4").view({8: "<u1", 16: "<u2"}[width]).reshape(len(words), 32 // width)
    return view.astype(np.int64) - ((view >= (1 << (width - 1))) << width) if signed else view.astype(np.int64)


def _pack(lanes: np.ndarray, width: int) -> np.ndarray:
    mask = (1 << width) - 1
    shifts = np.arange(32 // width, dtype=np.int64) * width
    return ((lanes & mask) << shifts).sum(axis=1).astype(np.uint32)


def _sat(v: np.ndarray, width: int, signed: bool) -> np.ndarray:
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    return np.clip(v, lo, hi)


def _avg_signed(s: np.ndarray) -> np.ndarray:
    # round half away from zero: 3/2 -> 2, -3/2 -> -2
    return np.sign(s) * ((np.abs(s) + 1) // 2)


Binary = Callable[[np.ndarray, np.ndarray, int], np.ndarray]
_S, _U = True, False
#: name -> (signed lanes?, lane function or "mask"/"set"/"sad" of a predicate)
BINARY: dict[str, tuple[bool, str, Callable[[np.ndarray, np.ndarray, int], np.ndarray]]] = {
    "vadd": (_U, "map", lambda a, b, w: a + b),
    "vaddss": (_S, "map", lambda a, b, w: _sat(a + b, w, True)),
    "vaddus": (_U, "map", lambda a, b, w: _sat(a + b, w, False)),
    "vsub": (_U, "map", lambda a, b, w: a - b),
    "vsubss": (_S, "map", lambda a, b, w: _sat(a - b, w, True)),
    "vsubus": (_U, "map", lambda a, b, w: _sat(a - b, w, False)),
    "vavgs": (_S, "map", lambda a, b, w: _avg_signed(a + b)),
    "vavgu": (_U, "map", lambda a, b, w: (a + b + 1) // 2),
    "vhaddu": (_U, "map", lambda a, b, w: (a + b) // 2),
    "vabsdiffs": (_S, "map", lambda a, b, w: np.abs(a - b)),
    "vabsdiffu": (_U, "map", lambda a, b, w: np.abs(a - b)),
    "vmaxs": (_S, "map", lambda a, b, w: np.maximum(a, b)),
    "vmaxu": (_U, "map", lambda a, b, w: np.maximum(a, b)),
    "vmins": (_S, "map", lambda a, b, w: np.minimum(a, b)),
    "vminu": (_U, "map", lambda a, b, w: np.minimum(a, b)),
    "vsads": (_S, "sad", lambda a, b, w: np.abs(a - b)),
    "vsadu": (_U, "sad", lambda a, b, w: np.abs(a - b)),
}
PREDICATES: dict[str, tuple[bool, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    "eq": (_U, np.equal), "ne": (_U, np.not_equal),
    "ges": (_S, np.greater_equal), "geu": (_U, np.greater_equal), "gts": (_S, np.greater), "gtu": (_U, np.greater),
    "les": (_S, np.less_equal), "leu": (_U, np.less_equal), "lts": (_S, np.less), "ltu": (_U, np.less),
}
UNARY: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "vabs": lambda a, w: np.abs(a), "vabsss": lambda a, w: _sat(np.abs(a), w, True),
    "vneg": lambda a, w: -a, "vnegss": lambda a, w: _sat(-a, w, True),
}


def reference(a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for width, suffix in ((16, "2"), (8, "4")):
        for name, (signed, kind, fn) in BINARY.items():
            lanes = fn(_lanes(a, width, signed), _lanes(b, width, signed), width)
            out[name + suffix] = (lanes.sum(axis=1).astype(np.uint32) if kind == "sad" else _pack(lanes, width))
        for pred, (signed, fn) in PREDICATES.items():
            truth = fn(_lanes(a, width, signed), _lanes(b, width, signed)).astype(np.int64)
            out[f"vset{pred}{suffix}"] = _pack(truth, width)
            out[f"vcmp{pred}{suffix}"] = _pack(-truth, width)
        for name, ufn in UNARY.items():
            out[name + suffix] = _pack(ufn(_lanes(a, width, True), width), width)
    return out


NAMES = sorted(reference(np.zeros(1, np.uint32), np.zeros(1, np.uint32)))


@pytest.fixture(scope="module")
def host_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gxx = shutil.which("g++") or shutil.which("c++")
    if gxx is None:
        pytest.skip("no host C++ compiler")
    work = tmp_path_factory.mktemp("simd")
    calls = "".join(
        f'printf("%08x ", __{n}(a{", b" if not any(n.startswith(u) and n[len(u):] in "24" for u in UNARY) else ""}));'
        for n in NAMES)
    (work / "host.cpp").write_text(
        '#include <cstdio>\n#include "cuda2rocm_simd.h"\n'
        'int main() { unsigned a, b; while (scanf("%x %x", &a, &b) == 2) { ' + calls + ' printf("\\n"); } }\n',
        encoding="utf-8")
    done = subprocess.run([gxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{HEADERS}",
                           str(work / "host.cpp"), "-o", str(work / "host")],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    return work / "host"


def _run_host(binary: Path, a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
    stdin = "".join(f"{x:x} {y:x}\n" for x, y in zip(a.tolist(), b.tolist(), strict=True))
    done = subprocess.run([str(binary)], input=stdin, capture_output=True, text=True, check=True, timeout=120)
    rows = np.array([[int(v, 16) for v in line.split()] for line in done.stdout.splitlines()], dtype=np.uint32)
    return {name: rows[:, i] for i, name in enumerate(NAMES)}


def _edge_words() -> tuple[np.ndarray, np.ndarray]:
    edges16 = [0x0000, 0x0001, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF, 0x00FF, 0xFF00]
    pairs = [(x | (y << 16), y | (x << 16)) for x in edges16 for y in edges16]
    pairs += [(x * 0x01010101, y * 0x01010101) for x in range(256) for y in range(0, 256, 3)]
    a, b = zip(*pairs, strict=True)
    return np.array(a, dtype=np.uint32), np.array(b, dtype=np.uint32)


def test_reference_examples() -> None:
    """Spot checks of the reference itself against values worked out by hand from the CUDA docs."""
    ref = reference(np.array([0xFFFF7FFF], np.uint32), np.array([0x00010001], np.uint32))
    assert ref["vadd2"][0] == 0x00008000  # wrap-around per halfword
    assert ref["vaddss2"][0] == 0x00007FFF  # 0x7fff + 1 saturates; -1 + 1 = 0
    assert ref["vavgs4"][0] == 0xFF004000  # bytes ff,7f,ff,ff avg 01,00,01,00 (half away from zero)
    assert ref["vcmpgts2"][0] == 0x0000FFFF  # 32767 > 1; -1 > 1 is false
    assert ref["vsadu4"][0] == 0xFE + 0x7F + 0xFE + 0xFF


def test_header_matches_reference_on_edges(host_binary: Path) -> None:
    a, b = _edge_words()
    got, want = _run_host(host_binary, a, b), reference(a, b)
    bad = {n: int((got[n] != want[n]).sum()) for n in NAMES if (got[n] != want[n]).any()}
    assert not bad, bad


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)), min_size=1, max_size=200))
def test_header_matches_reference_on_random_words(host_binary: Path, pairs: list[tuple[int, int]]) -> None:
    a = np.array([p[0] for p in pairs], dtype=np.uint32)
    b = np.array([p[1] for p in pairs], dtype=np.uint32)
    got, want = _run_host(host_binary, a, b), reference(a, b)
    for name in NAMES:
        assert (got[name] == want[name]).all(), name


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
def test_header_compiles_for_amd(tmp_path: Path) -> None:
    uses = " ^ ".join(f"__{n}(a[i]{', b[i]' if not any(n.startswith(u) and n[len(u):] in '24' for u in UNARY) else ''})"
                      for n in NAMES)
    source = tmp_path / "use.hip"
    source.write_text('#include <hip/hip_runtime.h>\n#include "cuda2rocm_simd.h"\n'
                      "__global__ void k(unsigned* o, const unsigned* a, const unsigned* b) {\n"
                      f"  int i = threadIdx.x;\n  o[i] = {uses};\n}}\n", encoding="utf-8")
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-std=c++17", f"-I{HEADERS}", "-c", str(source),
                           "-o", str(tmp_path / "use.o")], capture_output=True, text=True, check=False,
                          timeout=600, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "use.o").stat().st_size > 0


def _has_cuda_gpu() -> bool:
    smi = shutil.which("nvidia-smi")
    return bool(smi) and subprocess.run([smi, "-L"], capture_output=True, check=False).returncode == 0


@pytest.mark.gpu
@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None or not _has_cuda_gpu(), reason="needs nvcc and an NVIDIA GPU")
def test_header_bit_exact_against_cuda_intrinsics(tmp_path: Path) -> None:
    binary = tmp_path / "simd_exact"
    subprocess.run(["nvcc", "-std=c++17", f"-I{HEADERS}", str(EXACT), "-o", str(binary)], check=True, timeout=600)
    done = subprocess.run([str(binary), str(1 << 20)], capture_output=True, text=True, check=False, timeout=600)
    rows = [line.split() for line in done.stdout.splitlines()]
    assert len(rows) == len(NAMES), done.stdout
    assert done.returncode == 0, [r for r in rows if r[1] != "0"]


def test_committed_gpu_evidence_covers_every_function() -> None:
    """The run on the H200 (scripts/gpu/simd.sh; its output committed) checked every function the header
    defines and found no mismatch."""
    lines = (Path(__file__).parent / "simd" / "simd-exact-h200.txt").read_text(encoding="utf-8").splitlines()
    rows = {name: (int(bad), int(n)) for name, bad, n in (line.split() for line in lines if not line.startswith("#"))}
    assert sorted(rows) == NAMES
    assert all(bad == 0 and n > 16_000_000 for bad, n in rows.values())


UNIT = """#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(unsigned* o, const unsigned* a, const unsigned* b) {
  int i = threadIdx.x;
  o[i] = __vabsdiffu4(a[i], b[i]) + __vmaxs2(a[i], b[i]) + __vabsss4(a[i]);
}
int main() {
  unsigned* d = nullptr;
  if (cudaMalloc(&d, 64) != cudaSuccess) return 1;
  k<<<1, 16>>>(d, d, d);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""


def test_convert_inserts_the_header_once_where_the_functions_are_used() -> None:
    from cuda2rocm.model import Translated
    from cuda2rocm.translate.api import convert_source

    result = convert_source(UNIT, "simd.cu")
    assert isinstance(result, Translated)
    assert result.text.count("#define CUDA2ROCM_SIMD_H") == 1
    assert result.text.index("#define CUDA2ROCM_SIMD_H") > result.text.index("#include <hip/hip_runtime.h>")
    rules = {f.rule for f in result.findings}
    assert "C2R-A130" in rules and "C2R-A101" not in rules
    again = convert_source(result.text, "simd.hip")
    assert not isinstance(again, Translated) or again.text.count("#define CUDA2ROCM_SIMD_H") == 1


def test_a_second_run_leaves_the_inserted_headers_as_they_are() -> None:
    # the header names __CUDACC__ on purpose (so nvcc compiles it); a second run renamed it to __HIPCC__, twice
    # (found by fuzzing)
    from cuda2rocm.model import Translated
    from cuda2rocm.translate.api import convert_source
    from cuda2rocm.translate.options import Options

    for options in (Options(), Options(target_rocm="5.2"), Options(launch_syntax="ggl", fix_hazards=True)):
        first = convert_source(UNIT + "\n__device__ void w() { __syncwarp(); }\n", "simd.cu", options)
        assert isinstance(first, Translated) and "defined(__CUDACC__)" in first.text
        again = convert_source(first.text, "simd.hip", options)
        assert not isinstance(again, Translated), [e for e in again.edits][:3]
        assert not any(f.line < first.text.count("\n", 0, first.text.index("#endif  // CUDA2ROCM_SIMD_H"))
                       and f.line > first.text.count("\n", 0, first.text.index("#ifndef CUDA2ROCM_SIMD_H"))
                       for f in again.findings), "nothing is reported about the header's own text"
    # code of the user's after the header is still translated
    code = first.text + "\nvoid h(float* p) { cudaFree(p); }\n"
    third = convert_source(code, "simd.hip")
    assert isinstance(third, Translated) and "hipFree(p)" in third.text
    assert third.text.count("defined(__CUDACC__)") == first.text.count("defined(__CUDACC__)")
    # a guard of the user's own that merely looks like ours is translated as any code
    own = convert_source("#ifndef CUDA2ROCM_CONFIG_H\n#define CUDA2ROCM_CONFIG_H\nvoid f(float* p) { cudaFree(p); }\n"
                         "#endif\n", "c.cu")
    assert isinstance(own, Translated) and "hipFree(p)" in own.text


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
def test_converted_unit_compiles_for_amd(tmp_path: Path) -> None:
    from cuda2rocm.translate.api import convert_source

    result = convert_source(UNIT, "simd.cu")
    source = tmp_path / "simd.hip"
    source.write_text(getattr(result, "text", ""), encoding="utf-8")
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-std=c++17", str(source), "-o", str(tmp_path / "simd")],
                          capture_output=True, text=True, check=False, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd"})
    assert done.returncode == 0, done.stderr


def test_helper_table_lists_every_function_of_the_header() -> None:
    from cuda2rocm.translate import data

    simd = [n for n, header in data.helper_functions().items() if header == "cuda2rocm_simd.h"]
    assert sorted(n.removeprefix("__") for n in simd) == NAMES
