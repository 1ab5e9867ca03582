"""A project's operators on CUDA vector types that HIP's vector types already define (issue 16 bug 12).

HIP's ``float4`` is ``HIP_vector_type<float, 4>`` with member ``operator+=(const HIP_vector_type&)``: a free
``operator+=(float4&, float4)`` is exactly as good a match, so hipcc rejects ``a += b`` as ambiguous. convert
guards such definitions (C2R-A114); the binary, scalar and integer-only operators are templates in HIP, where the
project's overload wins, and stay as they are. hipcc proves both halves.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
GUARD = "#if !defined(__HIP_PLATFORM_AMD__)"

# a helper_math.h of our own: no CUDA API names, only vector types and operators on them
HELPERS = """#pragma once
#define HD inline __host__ __device__
HD float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
HD void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
HD float4 operator-=(float4& a, const float4& b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; return a; }
HD void operator*=(float4 &a, float s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
HD void operator*=(int2 &a, int2 b) { a.x *= b.x; a.y *= b.y; } HD int2 twice(int2 a) { return a + a; }
__host__ __device__ void operator/=(float2& a, float2 b);
HD void operator%=(int2 &a, int2 b) { a.x %= b.x; a.y %= b.y; }
struct Acc { float4 v; __host__ __device__ void operator+=(float4 b) { v.x += b.x; } };
"""
KERNEL = """__global__ void k(float4* o, int2* p, float4 v, float2* q) {
  o[0] += v; o[1] -= v; o[2] *= 2.0f; o[3] = o[0] + v;
  p[0] *= p[1]; p[1] %= p[0]; p[2] = twice(p[0]); q[0] /= q[1];
  Acc a{v}; a += v; o[4] = a.v;
}
"""


def _translate(text: str, name: str = "helpers.cuh") -> Translated:
    result = convert_source(text, name, Options(target_rocm="5.2"))
    assert isinstance(result, Translated), result
    return result


def test_the_compound_operators_hip_defines_are_guarded_and_reported() -> None:
    out = _translate(HELPERS)
    guarded = [line for line in out.text.splitlines() if line.startswith(GUARD)]
    assert len(guarded) == 4  # +=, -= (const&), *= on int2 (code after it on the line), /= (a prototype)
    assert f"{GUARD}\nHD void operator+=(float4 &a, float4 b)" in out.text
    assert "a.z -= b.z; a.w -= b.w; return a; }\n#endif\n" in out.text
    assert "{ a.x *= b.x; a.y *= b.y; }\n#endif\n HD int2 twice" in out.text
    assert f"{GUARD}\n__host__ __device__ void operator/=(float2& a, float2 b);\n#endif\n" in out.text
    found = sorted((f.line, f.rule) for f in out.findings if f.rule == "C2R-A114")
    assert found == [(4, "C2R-A114"), (5, "C2R-A114"), (7, "C2R-A114"), (8, "C2R-A114")]
    for kept in ("operator+(float4 a", "operator*=(float4 &a, float s)", "operator%=(int2", "operator+=(float4 b)"):
        line = next(ln for ln in out.text.splitlines() if kept in ln)
        assert out.text.splitlines()[out.text.splitlines().index(line) - 1] != GUARD, kept


def test_guarding_is_idempotent_and_only_adds_lines() -> None:
    once = _translate(HELPERS).text
    again = convert_source(once, "helpers.cuh", Options(target_rocm="5.2"))
    assert getattr(again, "text", once) == once  # an already guarded operator is not guarded twice
    removed = "\n".join(ln for ln in once.splitlines() if ln not in (GUARD, "#endif", "#include \"hip/hip_runtime.h\""))
    assert removed.replace("}\n HD", "} HD") + "\n" == HELPERS


def _hipcc(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "k.hip"
    source.write_text(text)
    return subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})


@needs_hipcc
@pytest.mark.hipcc
def test_guarded_operators_compile_with_hipcc_and_the_unguarded_are_ambiguous(tmp_path: Path) -> None:
    unit = "#include <hip/hip_runtime.h>\n" + HELPERS.replace("#pragma once\n", "") + \
           "__host__ __device__ void operator/=(float2& a, float2 b) { a.x /= b.x; a.y /= b.y; }\n" + KERNEL
    before = _hipcc(unit, tmp_path)
    assert before.returncode != 0 and "use of overloaded operator '+=' is ambiguous" in before.stderr
    assert "'*=' is ambiguous" in before.stderr and "'/=' is ambiguous" in before.stderr
    assert "'%=' is ambiguous" not in before.stderr  # a template in HIP: the project's wins
    after = _hipcc(_translate(unit, "k.cu").text, tmp_path)
    assert after.returncode == 0, after.stderr
