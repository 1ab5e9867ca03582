"""--fix-hazards rewrites the inline-PTX statements whose C++ means exactly the same (issue 16 bug 14): a lone
``red.global.add.u64`` becomes ``atomicAdd``, ``membar.gl`` ``__threadfence()``, ``bar.sync 0`` ``__syncthreads()``
(``hazards/data/ptx_rewrites.csv``, applicability safe). Predicated, scoped or ordered forms, blocks of several
instructions and operands other than the table's stay reported with a marker. hipcc compiles the result."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.hazards.engine import REWRITTEN
from cuda2rocm.hazards.ptx import normalise, rewrites
from cuda2rocm.model import Severity, Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")

KERNEL = r"""#include <cuda_runtime.h>
__global__ void k(unsigned long long* total, unsigned long long v, float* f, int* flag, unsigned* u) {
  asm volatile("red.global.add.u64 [%0], %1;" :: "l"(total), "l"(v) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(f + 1), "f"(2.0f));
  asm("membar.gl;" ::: "memory");
  __asm__ __volatile__("bar.sync 0;");
  asm volatile("@%2 red.global.add.u32 [%0], %1;" :: "l"(u), "r"(1u), "r"(flag[0]));
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(u), "r"(1u));
  asm volatile("red.global.add.u32 [%0], %1; membar.gl;" :: "l"(u), "r"(1u));
  asm volatile("red.global.add.u32 [%0], %1;" :: "l"(u), "n"(1));
}
"""
REWRITTEN_TEXT = """  atomicAdd(reinterpret_cast<unsigned long long*>(total), static_cast<unsigned long long>(v));
  atomicAdd(reinterpret_cast<float*>(f + 1), static_cast<float>(2.0f));
  __threadfence();
  __syncthreads();
"""


def _convert(fix: bool) -> Translated:
    result = convert_source(KERNEL, "k.cu", Options(target_rocm="5.2", fix_hazards=fix))
    assert isinstance(result, Translated)
    return result


def test_exact_equivalents_are_applied_and_the_rest_marked() -> None:
    out = _convert(fix=True)
    assert REWRITTEN_TEXT in out.text
    kept = [ln for ln in out.text.splitlines() if "asm" in ln]
    assert len(kept) == 4 and all(ln.lstrip().startswith("/* cuda2rocm: C2R-K301") for ln in kept)
    k301 = {f.line: f for f in out.findings if f.rule == "C2R-K301"}
    assert sorted(k301) == list(range(3, 11))
    safe = {line for line, f in k301.items() if f.fix.startswith("safe fix available")}
    assert safe == {3, 4, 5, 6}  # predicated (7), .release (8), two instructions (9), an "n" operand (10): kept


def test_exact_rewrites_are_applied_without_fix_hazards() -> None:
    """PTX never compiles for AMD, and the rows are C++ of the same meaning: convert applies them by default and
    says so (info, no fix left to offer); the rest keeps its report and no marker is written."""
    out = _convert(fix=False)
    assert REWRITTEN_TEXT in out.text
    k301 = {f.line: f for f in out.findings if f.rule == "C2R-K301"}
    done = {line for line, f in k301.items() if f.fix == REWRITTEN}
    assert done == {3, 4, 5, 6}
    assert all(k301[line].severity is Severity.INFO and k301[line].remedy is None for line in done)
    assert all(f.severity is Severity.HIGH for line, f in k301.items() if line not in done)
    assert "cuda2rocm: C2R-K301" not in out.text


def test_outputs_and_the_lane_register() -> None:
    src = ('__global__ void k(unsigned* c, unsigned* out) {\n  unsigned lane, old;\n'
           '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n'
           '  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(c), "r"(1u));\n'
           '  asm volatile("mov.u32 %0, %%warpid;" : "=r"(lane));\n  out[lane] = old;\n}\n')
    out = convert_source(src, "k.cu", Options(target_rocm="5.2"))
    assert isinstance(out, Translated)
    assert "  (lane) = __lane_id();\n" in out.text
    assert "  (old) = atomicAdd(reinterpret_cast<unsigned int*>(c), static_cast<unsigned int>(1u));\n" in out.text
    assert 'asm volatile("mov.u32 %0, %%warpid;"' in out.text  # a hardware slot, not threadIdx / 32: kept


def test_the_table_is_normalised_and_lists_no_ordered_forms() -> None:
    table = rewrites()
    assert normalise(" red.global.add.u64   [ %0 ] ,%1 ;") in table
    assert not [k for k in table if any(q in k for q in (".sys", ".release", ".acquire", ".acq_rel", "@"))
                and not k.startswith("membar.sys")]


@needs_hipcc
@pytest.mark.hipcc
def test_rewritten_kernel_compiles_with_hipcc(tmp_path: Path) -> None:
    text = _convert(fix=True).text
    unit = "\n".join(ln for ln in text.splitlines() if "asm" not in ln) + "\n"  # the kept PTX cannot assemble
    source = tmp_path / "k.hip"
    source.write_text(unit)
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "atomicAdd(reinterpret_cast<unsigned long long*>(total)" in unit


@needs_hipcc
@pytest.mark.hipcc
def test_every_row_of_the_table_is_rewritten_into_code_hipcc_compiles(tmp_path: Path) -> None:
    types = {"r": "unsigned", "l": "unsigned long long", "f": "float", "d": "double"}
    lines = []
    for n, (ptx, (constraints, _)) in enumerate(sorted(rewrites().items())):
        operands = constraints.split("|") if constraints else []
        outs = [f'"{c}"(o{n}_{k})' for k, c in enumerate(operands) if c.startswith("=")]
        ins = [f'"{c}"(p)' if k == len(outs) else f'"{c}"(({types[c]}){n})'
               for k, c in enumerate(operands) if not c.startswith("=")]
        decls = "".join(f"  {types[c[1:]]} o{n}_{k};\n" for k, c in enumerate(operands) if c.startswith("="))
        ptx_text = ptx.replace("%laneid", "%%laneid")
        lines.append(f'{decls}  asm volatile("{ptx_text};" : {", ".join(outs)} : {", ".join(ins)});'
                     if operands else f'  asm volatile("{ptx};");')
    kernel = "#include <cuda_runtime.h>\n__global__ void every(void* p) {\n" + "\n".join(lines) + "\n}\n"
    out = convert_source(kernel, "every.cu", Options(fix_hazards=True))
    assert isinstance(out, Translated) and "asm" not in out.text, out.text
    source = tmp_path / "every.hip"
    source.write_text(out.text)
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "every.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
