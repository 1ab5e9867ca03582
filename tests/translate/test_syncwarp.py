"""``__syncwarp`` for targets whose HIP lacks it (before ROCm 7.0; issue 16 bug 10): convert inserts
``cuda2rocm_warp.h``, whose ``__syncwarp`` is a wavefront-scope release fence, a wave barrier and an acquire fence
(the header explains why that is CUDA's meaning on a 64-wide wavefront). hipcc 5.2 compiles it and keeps the
shared-memory store before the other lane's load."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")

KERNEL = """#include <cuda_runtime.h>
__global__ void rotate(int* o) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  o[threadIdx.x] = s[(threadIdx.x + 1) % 64];
  __syncwarp(0xffffffffu);
}
"""


def _convert(text: str, target: str) -> Translated:
    result = convert_source(text, "k.cu", Options(target_rocm=target))
    assert isinstance(result, Translated)
    return result


def test_header_is_inserted_once_where_hip_lacks_syncwarp() -> None:
    out = _convert(KERNEL, "5.2")
    assert out.text.count("#ifndef CUDA2ROCM_WARP_H") == 1
    assert out.text.index("#ifndef CUDA2ROCM_WARP_H") < out.text.index("__global__ void rotate")
    assert "__syncwarp();" in out.text and "__syncwarp(0xffffffffu);" in out.text  # the calls keep their names
    a130 = [f.line for f in out.findings if f.rule == "C2R-A130"]
    assert a130 == [5, 7] and not [f for f in out.findings if f.rule == "C2R-A103"]
    again = convert_source(out.text.replace("<hip/hip_runtime.h>", "<cuda_runtime.h>", 1), "k.cu",
                           Options(target_rocm="5.2"))
    assert getattr(again, "text", "").count("#ifndef CUDA2ROCM_WARP_H") == 1  # a second run adds no second copy


@pytest.mark.parametrize("target", ["7.0", "7.2"])
def test_hip_own_syncwarp_is_used_from_rocm_70(target: str) -> None:
    out = _convert(KERNEL, target)
    assert "CUDA2ROCM_WARP_H" not in out.text
    assert "C2R-A130" not in {f.rule for f in out.findings}


@needs_hipcc
@pytest.mark.hipcc
def test_helper_compiles_with_hip_52_and_orders_the_shared_memory_accesses(tmp_path: Path) -> None:
    source = tmp_path / "k.hip"
    source.write_text(_convert(KERNEL, "5.2").text)
    env = {"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    asm = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "--cuda-device-only", "-S", str(source),
                          "-o", "-"], capture_output=True, text=True, check=False, env=env).stdout
    body = asm[asm.index("_Z6rotatePi:"):]
    assert body.index("ds_write_b32") < body.index("ds_read_b32")  # the other lane's load stays after the store


@pytest.mark.parametrize("op", ["add", "min", "max", "and", "or", "xor"])
def test_warp_reduce_functions_are_reported_with_a_wave_size_correct_recipe(op: str) -> None:
    """``__reduce_*_sync`` (issue 16 bug 15): HIP has none of them; every one is reported (the bitwise three were
    not in the tables at all) with a recipe whose shuffles keep each 32-thread CUDA warp apart on a 64-wide
    wavefront (width 32) and that names the identity lanes outside the mask take."""
    result = convert_source(f"__global__ void k(unsigned* o) {{ o[0] = __reduce_{op}_sync(0xffffffffu, o[1]); }}\n",
                            "k.cu", Options(target_rocm="5.2"))
    a101 = [f for f in getattr(result, "findings", ()) if f.rule == "C2R-A101"]
    assert len(a101) == 1 and a101[0].message.startswith(f"__reduce_{op}_sync has no HIP equivalent")
    assert "__shfl_xor(v, o, 32)" in a101[0].message and "width 32" in a101[0].message
