"""K706: dynamic parallelism (kernels launched, and the device runtime called, from device code)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, HIP_PORTING, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.devicecalls import device_calls, device_function_at
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule

#: the device runtime's own entry points (CUDA's device-side launch ABI and the named streams of device launches):
#: they exist only in device code, so every site is one
_DEVICE_RUNTIME = frozenset({"cudaLaunchDevice", "cudaLaunchDeviceV2", "cudaGetParameterBuffer",
                             "cudaGetParameterBufferV2", "cudaStreamTailLaunch", "cudaStreamFireAndForget"})
#: runtime calls that are host calls everywhere but a device-runtime call inside a kernel
_DEVICE_SIDE = frozenset({"cudaDeviceSynchronize", "cudaStreamCreateWithFlags", "cudaLaunchKernel",
                          "cudaGraphLaunch", "cudaMemcpyAsync", "cudaMalloc", "cudaFree", "cudaEventRecord"})


@rule(
    "C2R-K706", "Dynamic parallelism: kernel launch or device runtime call in device code",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds kernels launched from device code (`child<<<g, b>>>(...)` inside a `__global__` or `__device__` "
         "function), device-side runtime calls there (`cudaDeviceSynchronize`, `cudaStreamCreateWithFlags`, "
         "`cudaLaunchKernel`, `cudaMemcpyAsync`, `cudaMalloc`/`cudaFree`, ...), and the device launch ABI and "
         "named streams anywhere (`cudaGetParameterBuffer`, `cudaLaunchDevice`, `cudaStreamTailLaunch`, "
         "`cudaStreamFireAndForget`). The same calls in host code are not reported.",
    why="HIP has no dynamic parallelism: an AMD kernel cannot launch another kernel or wait for one, and hipcc "
        "rejects a `<<<...>>>` launch or a runtime call inside device code. The parent/child work split must move "
        "to the host.",
    example="__global__ void child(float* p) { p[threadIdx.x] = 0.0f; }\n"
            "__global__ void parent(float* p) {\n  if (threadIdx.x == 0) child<<<1, 64>>>(p);\n"
            "  cudaDeviceSynchronize();\n}\n",
    instead="Launch the child kernels from the host (one launch per level, or a persistent kernel with a work "
            "queue in global memory).\n"
            "__global__ void child(float* p) { p[threadIdx.x] = 0.0f; }\n"
            "void parent(float* p, cudaStream_t s) {\n  child<<<1, 64, 0, s>>>(p);\n"
            "  cudaDeviceSynchronize();\n}\n",
    references=(HIP_PORTING, CUDA_GUIDE),
    # a <<< launch, a _DEVICE_SIDE call (each holds one of these) or a _DEVICE_RUNTIME name
    requires=("<<<", "cudaDeviceSynchronize", "cudaStream", "cudaLaunch", "cudaGraphLaunch", "cudaMemcpyAsync",
              "cudaMalloc", "cudaFree", "cudaEventRecord", "cudaGetParameterBuffer"),
)
def check_dynamic_parallelism(src: Source) -> Iterator[Hit]:
    found: list[tuple[int, str]] = []
    if src.device_functions():
        for launch in src.launches:
            fn = device_function_at(src, launch.open_index)
            if fn is not None:
                found.append((launch.name_index, f"kernel '{launch.name}' launched from device function "
                              f"'{fn.name}': HIP has no dynamic parallelism, launch it from the host"))
        for i in device_calls(src, _DEVICE_SIDE):
            found.append((i, f"'{src.src(i)}' called in device code (CUDA's device runtime): HIP has none, move the "
                          "launch and its synchronisation to the host"))
    for i in src.idents(_DEVICE_RUNTIME):
        found.append((i, f"'{src.src(i)}' is CUDA's device-side launch API: HIP has no dynamic parallelism, launch "
                      "from the host"))
    messages = dict(found)
    for i in first_per_line(src, iter(sorted(messages))):
        yield Hit("C2R-K706", i, messages[i])
