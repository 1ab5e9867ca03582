"""K510: cuFFT load/store callbacks."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import FAMILY, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule

ROCFFT_CALLBACKS = "https://rocm.docs.amd.com/projects/rocFFT/en/latest/how-to/load-store-callbacks.html"
CUFFT_CALLBACKS = "https://docs.nvidia.com/cuda/cufft/index.html#cufft-callback-routines"

#: callback registration (the legacy device-pointer callbacks and the LTO ones)
_CALLBACK_API = frozenset({"cufftXtSetCallback", "cufftXtSetCallbackSharedSize", "cufftXtClearCallback",
                           "cufftXtSetJITCallback"})


@rule(
    "C2R-K510", "cuFFT load/store callbacks",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds every registration of a cuFFT callback, one report per line: `cufftXtSetCallback`, "
         "`cufftXtSetCallbackSharedSize`, `cufftXtClearCallback`, `cufftXtSetJITCallback`. The callback functions "
         "and their pointer variables (`__device__ cufftCallbackLoadC d_load = ...`) belong to the registration "
         "and are not reported on their own.",
    why="cuFFT callbacks have no dependable AMD counterpart: `hipfftXtSetCallback` reaches rocFFT's load/store "
        "callbacks, which rocFFT documents as experimental, with callback shared memory of 0 bytes only, no planar "
        "formats, and (in newer releases) a JIT path that takes the callback as bitcode rather than a device "
        "function pointer; cuFFT's LTO callbacks (`cufftXtSetJITCallback` with LTO-IR) do not carry over. A fused "
        "pre/post-processing step must be validated on rocFFT or done as separate kernels.",
    example="#include <cufftXt.h>\n__device__ cufftCallbackLoadC d_load;\n"
            "void plan_with_callback(cufftHandle plan, void** cb) {\n"
            "  cufftXtSetCallback(plan, cb, CUFFT_CB_LD_COMPLEX, nullptr);\n}\n",
    instead="Run the pre/post-processing as kernels around the transform (or validate hipFFT's experimental "
            "callbacks on the target).\n#include <cufftXt.h>\n"
            "void plan_without_callback(cufftHandle plan) { cufftSetAutoAllocation(plan, 1); }\n",
    references=(ROCFFT_CALLBACKS, CUFFT_CALLBACKS),
    # every name of _CALLBACK_API holds cufftXt
    requires=("cufftXt",),
)
def check_cufft_callbacks(src: Source) -> Iterator[Hit]:
    for i in first_per_line(src, src.idents(_CALLBACK_API)):
        yield Hit("C2R-K510", i, f"'{src.src(i)}': cuFFT callbacks; rocFFT's (through hipfftXtSetCallback) are "
                  "experimental, without shared memory or planar formats: move the callback into separate kernels "
                  "or validate it on rocFFT")
