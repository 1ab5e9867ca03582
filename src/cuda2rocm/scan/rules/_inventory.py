"""C2R-S1xx: versions pinned to CUDA builds and custom CUDA code."""

from __future__ import annotations

from cuda2rocm.model import Confidence as C
from cuda2rocm.model import Layer as L
from cuda2rocm.model import Severity as S
from cuda2rocm.rules import new_rule

F = "scan-inventory"
HIPIFY = "https://rocm.docs.amd.com/projects/HIPIFY/en/latest/"
PORTING = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html"
PT_ROCM = "https://pytorch.org/get-started/locally/ (ROCm wheels: download.pytorch.org/whl/rocmX.Y)"

S101 = new_rule(
    "C2R-S101", "cuda-toolkit-version", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.FRAMEWORK,
    what="Records a CUDA, cuDNN, NCCL or driver version that the project pins (base image, ENV, conda "
    "package, CMake `find_package(CUDAToolkit X)`, CI toolkit action).",
    why="Every pinned NVIDIA version needs a ROCm counterpart (ROCm release, MIOpen, RCCL, amdgpu driver); "
    "the inventory tells the porting team which pins to replace and where they live.",
    example="ENV CUDA_VERSION=12.1.1",
    instead="Pin the matching ROCm release instead (for example `rocm/dev-ubuntu-22.04:6.4`) and check the "
    "combination with `cuda2rocm compat`.",
    references=("https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html",),
)
S102 = new_rule(
    "C2R-S102", "cuda-build-of-package", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.FRAMEWORK,
    what="Flags packages and indexes that select a CUDA build: `+cu121` local version tags, "
    "`--extra-index-url .../whl/cu121`, `nvidia-*-cu12` wheels, `cupy-cuda12x`, `pytorch-cuda=12.1`.",
    why="CUDA builds do not run on AMD GPUs: `pip install` succeeds and the code fails at the first kernel "
    "launch, or silently falls back to CPU. ROCm builds come from a different index and carry `+rocmX.Y` tags.",
    example="torch==2.1.2+cu121",
    instead="Use the ROCm build: `--index-url https://download.pytorch.org/whl/rocm6.4` and `torch==2.x.y+rocm6.4`;"
    " drop `nvidia-*-cu12` wheels (ROCm libraries ship in the ROCm install or the rocm/* images).",
    references=(PT_ROCM,),
)
S103 = new_rule(
    "C2R-S103", "cuda-source-file", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.EXTENSION,
    what="Marks every `.cu`/`.cuh` file, with the number of `__global__` kernels it defines.",
    why="CUDA sources must be translated to HIP (hipify or `cuda2rocm convert`) and compiled with hipcc; "
    "kernels are where wavefront-64, LDS and inline-PTX hazards live.",
    example="__global__ void scale(float* x, int n) { ... }   // kernels/scale.cu",
    instead="Translate with `cuda2rocm convert SRC -o hip/` and compile for the target's gfx with "
    "`cuda2rocm verify SRC --offload-arch gfx942` (gfx942 is the MI300X; `cuda2rocm kb show gpu NAME` gives "
    "another GPU's).",
    references=(HIPIFY,),
)
S104 = new_rule(
    "C2R-S104", "cuda-in-cpp", family=F, severity=S.LOW, confidence=C.MEDIUM, layer=L.EXTENSION,
    what="Finds CUDA code in C/C++ files (`.cpp/.h/...`): CUDA headers or CUDA runtime/library identifiers.",
    why="Build systems compile these files with the host compiler today; after translation they need the HIP "
    "headers and often hipcc, and they are easy to miss when only `.cu` files are ported.",
    example='#include <cuda_runtime.h>   // in src/engine.cpp',
    instead="Translate these files too and add the HIP include path/`hip::host` target to the build.",
    references=(PORTING,),
)
S105 = new_rule(
    "C2R-S105", "torch-cuda-extension", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.EXTENSION,
    what="Finds PyTorch C++/CUDA extensions: `CUDAExtension`, `torch.utils.cpp_extension.load(...)`, "
    "`load_inline(...)`.",
    why="On a ROCm build of PyTorch these run hipify on the sources at build time; the build works only if "
    "the kernels are HIP-clean (no inline PTX, no warp-size-32 assumptions, no CUDA-only libraries).",
    example="ext = CUDAExtension('fused_ops', ['csrc/fused.cu'])",
    instead="Keep `CUDAExtension` (it hipifies on ROCm), fix the hazards `cuda2rocm scan` lists in its "
    "sources, and build it in a rocm/pytorch image with `PYTORCH_ROCM_ARCH=gfx942`.",
    references=("https://pytorch.org/docs/stable/cpp_extension.html",),
)
S106 = new_rule(
    "C2R-S106", "cupy-raw-kernel", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.EXTENSION,
    what="Finds CuPy kernels written in CUDA C: `cupy.RawKernel`, `RawModule`, `ElementwiseKernel`, "
    "`ReductionKernel`.",
    why="CuPy on ROCm compiles these with hiprtc; the CUDA C source inside the string must be HIP-compatible "
    "(warp size, intrinsics, headers).",
    example="import cupy as cp\nkern = cp.RawKernel(r'extern \"C\" __global__ void k(float* x) {...}', 'k')",
    instead="Install the ROCm build of CuPy and review the kernel source string for CUDA-only constructs.",
    references=("https://docs.cupy.dev/en/stable/install.html#using-cupy-on-amd-gpu-experimental",),
)
S107 = new_rule(
    "C2R-S107", "numba-cuda-kernel", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.EXTENSION,
    what="Finds Numba CUDA kernels (`@cuda.jit`, `@numba.cuda.jit`).",
    why="Numba's CUDA target generates PTX for NVIDIA GPUs only; its ROCm target was removed upstream, so "
    "these kernels must be rewritten (Triton, CuPy, PyTorch ops or HIP).",
    example="@cuda.jit\ndef add(x, y): ...",
    instead="Rewrite the kernel with PyTorch tensor ops or a Triton kernel, which run on ROCm.",
    references=("https://numba.readthedocs.io/en/stable/cuda/overview.html",),
)
S108 = new_rule(
    "C2R-S108", "pycuda-source-module", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.EXTENSION,
    what="Finds PyCUDA `SourceModule` kernels compiled at run time.",
    why="PyCUDA drives nvcc and the CUDA driver API; it has no ROCm backend.",
    example="from pycuda.compiler import SourceModule\nmod = SourceModule('__global__ void k(float* a) {...}')",
    instead="Move the kernel to a HIP extension, CuPy (ROCm build) or Triton.",
    references=("https://documen.tician.de/pycuda/",),
)
S109 = new_rule(
    "C2R-S109", "cuda-api-without-hip", family=F, severity=S.HIGH, confidence=C.MEDIUM, layer=L.LIBRARY,
    what="Flags a CUDA API reference whose HIP counterpart is missing, unsupported or removed according to "
    "the bundled mapping table.",
    why="hipify leaves such calls untranslated and the build fails, or the call needs a redesign "
    "(for example a different library or a ROCm-specific API).",
    example="cudaArrayGetMemoryRequirements(&req, array, device);",
    instead="Look the call up with `cuda2rocm explain` / the mapping table and redesign around a supported API.",
    references=(HIPIFY,),
)
S110 = new_rule(
    "C2R-S110", "nvidia-gpu-architecture-pinned", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.EXTENSION,
    what="Flags NVIDIA GPU architectures pinned in build files: `CUDA_ARCHITECTURES`, "
    "`CMAKE_CUDA_ARCHITECTURES`, `-arch=sm_80`, `-gencode arch=compute_90,...`, `TORCH_CUDA_ARCH_LIST`.",
    why="AMD targets are gfx names (gfx90a for MI210/MI250, gfx942 for MI300X); sm_* values are ignored or "
    "rejected by hipcc, so the build either fails or produces code for no AMD GPU.",
    example="set_target_properties(ops PROPERTIES CUDA_ARCHITECTURES \"80;90\")",
    instead="Use `HIP_ARCHITECTURES`/`CMAKE_HIP_ARCHITECTURES` (`gfx942`), `--offload-arch=gfx942`, "
    "or `PYTORCH_ROCM_ARCH=gfx942` for PyTorch extensions.",
    references=("https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html",),
)
S111 = new_rule(
    "C2R-S111", "cuda-language-in-build", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.EXTENSION,
    what="Flags build files that enable or require CUDA: `project(... LANGUAGES CUDA)`, "
    "`enable_language(CUDA)`, `find_package(CUDAToolkit)`, `CUDA::` targets.",
    why="The CMake CUDA language drives nvcc; a ROCm build needs the HIP language (CMake >= 3.21) or hipcc "
    "as the compiler, plus `hip::`/`roc::` targets.",
    example="project(engine LANGUAGES CXX CUDA)",
    instead="Use `enable_language(HIP)`, `find_package(hip)` and the `roc::`/`hip::` library targets.",
    references=("https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html",),
)
S113 = new_rule(
    "C2R-S113", "existing-rocm-path", family=F, severity=S.INFO, confidence=C.MEDIUM, layer=L.FRAMEWORK,
    what="Records where the project already builds or runs for ROCm: `enable_language(HIP)`, `find_package(hip)`, "
    "`CMAKE_HIP_ARCHITECTURES`, `torch.version.hip`, `__HIP_PLATFORM_AMD__`, `#include <hip/...>`, `hipcc`, "
    "`--offload-arch` (the first place per file).",
    why="A project with a HIP path is part-ported: the migration is to finish and test that path, not to start "
    "over, and the effort estimate is lower.",
    example="if(BUILD_HIP)\n  enable_language(HIP)\nendif()",
    instead="Start the proof of concept from the existing ROCm path and compare it with the CUDA baseline.",
    references=(HIPIFY,),
)
S112 = new_rule(
    "C2R-S112", "cuda-library-api", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.LIBRARY,
    what="Marks the first use, per file, of each CUDA library header and API (cuBLAS, cuDNN, NCCL, Thrust, "
    "CUB, cuFFT, ...) with its ROCm counterpart from the mapping table.",
    why="Each library maps to a ROCm library (hipBLAS/rocBLAS, MIOpen, RCCL, rocThrust, hipCUB, hipFFT) "
    "with its own build targets, numerical behaviour and coverage; this is the library layer's work list.",
    example="cublasGemmEx(handle, ...);   // -> hipblasGemmEx",
    instead="Translate with `cuda2rocm convert`, link the ROCm library, and compare numerics with "
    "`cuda2rocm compare`.",
    references=(HIPIFY,),
)
S114 = new_rule(
    "C2R-S114", "nvml-api-to-amdsmi", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.OPS,
    what="Marks the first use, per file, of each NVML name in C/C++ (`nvml.h`, `nvmlInit`, `nvmlDeviceGet*`, "
    "`nvmlDevice_t`, `NVML_*`) with the AMD SMI (`amdsmi`) function, type or value that replaces it and what "
    "differs (units, per-socket handles), from the bundled NVML -> AMD SMI table. Low each: the port is costed "
    "once, as the header `nvml.h` with no HIP counterpart.",
    why="NVML talks to the NVIDIA driver only (`libnvidia-ml`); on AMD GPUs the library is absent or cannot "
    "initialise. HIP has no NVML layer: monitoring code is rewritten to AMD SMI (`amd_smi/amdsmi.h`, "
    "`libamd_smi`), whose calls take processor handles found per socket and report some values in other units.",
    example="#include <nvml.h>\nvoid f() { nvmlInit_v2(); }",
    instead="Rewrite to AMD SMI: `#include <amd_smi/amdsmi.h>`, `amdsmi_init(AMDSMI_INIT_AMD_GPUS)`, "
    "`amdsmi_get_processor_handles`, `amdsmi_get_gpu_activity`, ...; link `libamd_smi`.",
    references=("https://rocm.docs.amd.com/projects/amdsmi/en/latest/",),
)
S115 = new_rule(
    "C2R-S115", "bazelrc-cuda-config", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.EXTENSION,
    what="Reports the CUDA configuration of a `.bazelrc` (read with the lossless rc reader): the `cuda` config "
    "(`build:cuda ...`, once, with its length), `--config=cuda` in a command's defaults or another config, and CUDA "
    "toolchain settings outside the cuda config (`--@local_config_cuda//:enable_cuda`, `--repo_env=TF_NEED_CUDA=1`, "
    "`--crosstool_top=@local_config_cuda//crosstool:toolchain`, `--define=using_cuda=true`). Compute capabilities "
    "(`TF_CUDA_COMPUTE_CAPABILITIES`, rules_cuda archs) are C2R-S110 and versions (`TF_CUDA_VERSION`, "
    "`TF_CUDNN_VERSION`, `TF_NCCL_VERSION`) inventory with C2R-S101.",
    why="The rc file decides whether `bazel build` compiles CUDA: a ROCm build needs a `rocm` config "
    "(`--config=rocm`, `@local_config_rocm`, `TF_NEED_ROCM=1`, gfx targets). `migrate build` adds it beside the "
    "cuda config (C2R-B508) and reports CUDA options elsewhere (C2R-B509); this finding lists what it will touch.",
    example="build:cuda --repo_env=TF_NEED_CUDA=1\nbuild:cuda --crosstool_top=@local_config_cuda//crosstool:toolchain",
    instead="Add a rocm config (`cuda2rocm migrate build` writes it) and build with `--config=rocm`.\n"
    "build:rocm --repo_env=TF_NEED_ROCM=1\nbuild:rocm --crosstool_top=@local_config_rocm//crosstool:toolchain",
    references=("https://github.com/tensorflow/tensorflow/blob/master/.bazelrc",),
)
