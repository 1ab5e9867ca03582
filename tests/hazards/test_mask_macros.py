"""32-bit lane masks written through macros (issue 29, class 5 and 6): a mask-taking intrinsic inside a
``#define`` body is read as in code, and a full-mask macro whose every use is a mask is widened at its
definition (safe); a macro also used as a number, or defined in a header others may use, is reported only.
HIP 6.2 and later reject a 32-bit mask at compile time, so each of these stopped the build."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.model import Translated
from cuda2rocm.source.tokens import tokenize
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

MACROS = """\
#define FULL_MASK 0xffffffff
#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, v, m)
__device__ float sum(float v) {
  v += SHFL_XOR(v, 1);
  unsigned long long b = __ballot_sync(FULL_MASK, v > 0);
  return v + __any_sync(FULL_MASK, b != 0);
}
"""


def _fixed(text: str, path: str = "k.cu") -> str:
    return apply_edits(text, fixes(tokenize(text), text, path))


def test_masks_in_macro_bodies_and_mask_macros_are_fixed() -> None:
    found = [f for f in analyze(tokenize(MACROS), MACROS, "k.cu") if f.rule == "C2R-K201"]
    assert sorted((f.line, f.fix.startswith("safe fix")) for f in found) == [(2, True), (5, True), (6, True)]
    out = _fixed(MACROS)
    assert "#define FULL_MASK 0xffffffffffffffffULL\n" in out
    assert "#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffffffffffULL, v, m)\n" in out
    assert out.count("0xffffffffffffffffULL") == 2  # the uses keep the macro's name


@pytest.mark.parametrize("text, path", [
    (MACROS + "__device__ unsigned low(unsigned long long x) { return x & FULL_MASK; }\n", "k.cu"),  # a number
    (MACROS, "k.cuh"),  # a header: its includers may use the macro otherwise
    ("#define FULL_MASK 0xffffffff\n#ifdef BIG\n#define FULL_MASK 0xffffffffu\n#endif\n" + MACROS[29:], "k.cu"),
])
def test_a_macro_with_other_uses_is_reported_not_widened(text: str, path: str) -> None:
    found = [f for f in analyze(tokenize(text), text, path) if f.rule == "C2R-K201" and "FULL_MASK" in f.message]
    assert len(found) == 2 and not any(f.fix.startswith("safe fix") for f in found)
    assert "#define FULL_MASK 0xffffffff\n" in _fixed(text, path)


def test_rocm_5_2_drops_the_mask_inside_a_macro_body() -> None:
    """ROCm 5.2 has no ``_sync`` shuffles: the fallback drops the mask argument, in a macro's body as in code
    (before: C2R-A101, the call kept and the build broken)."""
    out = convert_source(MACROS, "k.cu", Options(target_rocm="5.2"))
    assert isinstance(out, Translated)
    assert "#define SHFL_XOR(v, m) __shfl_xor(v, m)\n" in out.text
    assert not [f for f in out.findings if f.rule == "C2R-A101"], out.findings


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
def test_the_rocm_5_2_translation_compiles(tmp_path: Path) -> None:
    from cuda2rocm.toolchain.discover import amd_env

    out = convert_source(MACROS, "k.cu", Options(target_rocm="5.2", fix_hazards=True))
    assert isinstance(out, Translated)
    (tmp_path / "k.hip").write_text(out.text)
    proc = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", "k.hip", "-o", "k.o"], cwd=tmp_path,
                          capture_output=True, text=True, env=amd_env(), check=False, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
