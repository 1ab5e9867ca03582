"""Rules ``migrate build`` emits (ids ``C2R-B``): B1xx CMake, B2xx Makefiles, B3xx nvcc options (any build file),
B4xx setup.py / PyTorch extensions, B5xx Bazel, B6xx Python dependencies (requirements files, pyproject.toml,
Pipfile, conda environment files), B7xx both platforms (--dual).

Each finding says what was rewritten (its fix is applied) or what a person must still do (no edit).
"""

from __future__ import annotations

from functools import partial

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import new_rule

F = "build"
_CMAKE_HIP = "https://rocm.docs.amd.com/en/latest/conceptual/cmake-packages.html"
_HIP_LANG = "https://cmake.org/cmake/help/latest/manual/cmake-language.7.html"
_CLANG_HIP = "https://clang.llvm.org/docs/HIPSupport.html"
_HIPCC = "https://rocm.docs.amd.com/projects/HIPCC/en/latest/"
_TORCH_EXT = "https://pytorch.org/docs/stable/cpp_extension.html"

build_rule = partial(new_rule, family=F, confidence=Confidence.HIGH, layer=Layer.EXTENSION, references=(_CMAKE_HIP,))


CUDA_LANGUAGE = build_rule(
    "C2R-B101", "cmake-cuda-language", severity=Severity.MEDIUM,
    what="`project(... LANGUAGES CUDA)`, `enable_language(CUDA)` and `check_language(CUDA)`.",
    why="The CUDA language makes CMake look for nvcc; an AMD build compiles device code with ROCm's clang.",
    example="project(demo LANGUAGES CXX CUDA)",
    instead="`HIP` in the language style (CMake >= 3.21); in the package style the language goes and "
            "`find_package(hip)` brings hipcc's device flags through `hip::device`.",
)
CUDA_ARCHITECTURES = build_rule(
    "C2R-B102", "cmake-cuda-architectures", severity=Severity.MEDIUM,
    what="`CMAKE_CUDA_ARCHITECTURES` and the `CUDA_ARCHITECTURES` target property (NVIDIA compute capabilities).",
    why="Compute capabilities mean nothing to an AMD GPU; the code objects must be built for its gfx target.",
    example="set(CMAKE_CUDA_ARCHITECTURES 80 90)",
    instead="`CMAKE_HIP_ARCHITECTURES` / `HIP_ARCHITECTURES` (language style) or `GPU_TARGETS` (package style) "
            "with the target list, e.g. `gfx90a;gfx942`.",
)
CUDA_SETTINGS = build_rule(
    "C2R-B103", "cmake-cuda-settings", severity=Severity.LOW,
    what="CUDA language settings: `CMAKE_CUDA_STANDARD`, `CMAKE_CUDA_FLAGS*`, `CMAKE_CUDA_COMPILER`, the "
         "`CUDA_STANDARD` property, `$<COMPILE_LANGUAGE:CUDA>` generator expressions, `LANGUAGE CUDA` sources.",
    why="They configure a language the AMD build no longer has, so the settings would silently not apply.",
    example="set(CMAKE_CUDA_STANDARD 17)",
    instead="The HIP (language style) or CXX (package style) counterpart of each setting.",
)
FIND_CUDA = build_rule(
    "C2R-B104", "cmake-find-cuda", severity=Severity.MEDIUM,
    what="`find_package(CUDA)`, `find_package(CUDAToolkit)`, and packages of CUDA libraries (`NCCL`, `CUDNN`).",
    why="These find the CUDA toolkit; an AMD build needs the HIP runtime and the ROCm libraries' packages.",
    example="find_package(CUDAToolkit REQUIRED)",
    instead="`find_package(hip)` plus one `find_package` per ROCm library the project links "
            "(`hipblas`, `hiprand`, `hipsparse`, `rccl`, ...).",
)
CUDA_LIBRARY = build_rule(
    "C2R-B105", "cmake-cuda-library", severity=Severity.MEDIUM,
    what="CUDA libraries linked by imported target (`CUDA::cublas`), by name (`cublas`, `nccl`) or through the "
         "FindCUDA result variables (`${CUDA_CUBLAS_LIBRARIES}`), and `find_library`/`find_path` of them.",
    why="The CUDA libraries do not exist on a ROCm system; each has a hip* (or ROCm) library instead.",
    example="target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas)",
    instead="`hip::host`, `roc::hipblas`, `hip::hiprand`, `roc::hipsparse`, `roc::rccl`, `MIOpen`, ...",
)
CU_SOURCES = build_rule(
    "C2R-B106", "cmake-cu-sources", severity=Severity.MEDIUM,
    what="`.cu` sources of targets: renamed where `convert` renamed them, otherwise given the HIP language.",
    why="CMake compiles `.cu` files as CUDA; without a language property they would not be compiled for AMD.",
    example="add_library(kernels STATIC reduce.cu)",
    instead="`set_source_files_properties(reduce.cu PROPERTIES LANGUAGE HIP)` (language style) or "
            "`LANGUAGE CXX` with `hip::device` linked (package style).",
)
CUDA_VARIABLE = build_rule(
    "C2R-B107", "cmake-cuda-variable", severity=Severity.LOW,
    what="Results of the CUDA packages: `CUDA_FOUND`, `CUDAToolkit_FOUND`, `CUDA_INCLUDE_DIRS`, "
         "`CUDA_TOOLKIT_ROOT_DIR`, `CUDA_VERSION`, ...",
    why="After `find_package(hip)` these are never set: `if(CUDA_FOUND)` is false and GPU code is skipped.",
    example="if(CUDA_FOUND)",
    instead="`hip_FOUND`, `hip_INCLUDE_DIRS`, `ROCM_PATH`, `hip_VERSION` (a HIP version: comparisons against CUDA "
            "releases must be rewritten).",
)
SEPARABLE = build_rule(
    "C2R-B108", "cmake-cuda-only-setting", severity=Severity.MEDIUM,
    what="CUDA settings with no HIP counterpart in CMake: separable compilation, device symbol resolution, "
         "the CUDA runtime library choice, the host compiler.",
    why="CMake has no HIP form of them; the build needs the clang options that do the same.",
    example="set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)",
    instead="Relocatable device code: `target_compile_options(k PRIVATE -fgpu-rdc)` and "
            "`target_link_options(k PRIVATE -fgpu-rdc)`; remove the other settings.",
    references=(_CLANG_HIP,),
)
LEGACY_FINDCUDA = build_rule(
    "C2R-B109", "cmake-legacy-findcuda", severity=Severity.MEDIUM,
    what="Commands of the FindCUDA module removed from CMake (`cuda_add_library`, `cuda_add_executable`, "
         "`cuda_include_directories`, `cuda_compile`, `CUDA_NVCC_FLAGS`).",
    why="They drive nvcc directly; HIP builds use ordinary targets.",
    example="cuda_add_library(kernels reduce.cu)",
    instead="`add_library`/`add_executable` with the sources' language set; nvcc options move to "
            "`target_compile_options`.",
)
MINIMUM_VERSION = build_rule(
    "C2R-B110", "cmake-minimum-for-hip", severity=Severity.LOW,
    what="`cmake_minimum_required` below 3.21 in a project that now enables the HIP language.",
    why="CMake knows the HIP language from 3.21 on.",
    example="cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)",
    instead="cmake_minimum_required(VERSION 3.21)",
    references=(_HIP_LANG,),
)
MAKE_COMPILER = build_rule(
    "C2R-B201", "make-nvcc-compiler", severity=Severity.MEDIUM,
    what="nvcc named as the compiler in a Makefile: variables (`NVCC = nvcc`, `CUDA_CC ?= ...`), recipes and "
         "`$(CUDA_HOME)/bin/nvcc`.",
    why="nvcc does not exist on a ROCm system.",
    example="NVCC ?= $(CUDA_HOME)/bin/nvcc",
    instead="hipcc (`$(ROCM_PATH)/bin/hipcc`), with `HIP_PLATFORM=amd` where both platforms are installed.",
    references=(_HIPCC,),
)
MAKE_PATHS = build_rule(
    "C2R-B202", "make-cuda-paths", severity=Severity.LOW,
    what="`CUDA_HOME`, `CUDA_PATH`, `CUDA_ROOT` and `/usr/local/cuda` paths in Makefiles (include and library "
         "directories, tool paths).",
    why="They point at the CUDA toolkit, which is not there on AMD machines.",
    example="CUDA_HOME ?= /usr/local/cuda",
    instead="`ROCM_PATH ?= /opt/rocm` and `$(ROCM_PATH)/include`, `$(ROCM_PATH)/lib`.",
    references=(_HIPCC,),
)
MAKE_LIBRARIES = build_rule(
    "C2R-B203", "make-cuda-libraries", severity=Severity.MEDIUM,
    what="CUDA libraries linked with `-l` in Makefiles (`-lcudart`, `-lcublas`, `-lcurand`, `-lnccl`, ...).",
    why="The libraries do not exist on AMD; the link fails.",
    example="LDLIBS += -lcudart -lcurand",
    instead="`-lamdhip64`, `-lhipblas`, `-lhiprand`, `-lhipsparse`, `-lrccl`, ... (hipcc links the HIP runtime "
            "itself).",
    references=(_HIPCC,),
)
MAKE_CU_RULE = build_rule(
    "C2R-B204", "make-cu-pattern", severity=Severity.LOW,
    what="Make rules and variables that name `.cu` sources where `convert` renamed them (`%.o: %.cu`, "
         "`$(wildcard *.cu)`).",
    why="After the rename the `.cu` files no longer exist and the rule never fires.",
    example="%.o: %.cu",
    instead="The new suffix (`%.o: %.hip`) when `convert` renamed the sources; otherwise nothing to do (hipcc "
            "compiles `.cu` files given `-x hip`).",
    references=(_HIPCC,),
)
NVCC_OPTION = build_rule(
    "C2R-B301", "nvcc-option-translated", severity=Severity.INFO,
    what="An nvcc option with a clang/hipcc counterpart (`--use_fast_math`, `-Xcompiler`, `-lineinfo`, `-rdc`, "
         "...), in any build file.",
    why="hipcc passes options to clang, which rejects nvcc's spellings.",
    example="--use_fast_math -Xcompiler -fPIC",
    instead="-ffast-math -fPIC",
    references=(_CLANG_HIP, _HIPCC),
)
NVCC_OPTION_DROPPED = build_rule(
    "C2R-B302", "nvcc-option-dropped", severity=Severity.LOW,
    what="An nvcc option HIP does not need (`--expt-relaxed-constexpr`, `--expt-extended-lambda`, `-ccbin`) or "
         "has no counterpart for (`--maxrregcount`, `-Xptxas`, `-diag-suppress`): removed so hipcc accepts the "
         "line; the message says what, if anything, replaces it.",
    why="clang rejects unknown options; some of them changed code generation on NVIDIA and need a person's look.",
    example="--maxrregcount=64",
    instead="Bound registers per kernel with `__launch_bounds__`; inspect resource use with "
            "`-Rpass-analysis=kernel-resource-usage`.",
    references=(_CLANG_HIP, _HIPCC),
)
NVCC_ARCH = build_rule(
    "C2R-B303", "nvcc-architecture-option", severity=Severity.MEDIUM,
    what="nvcc architecture options (`-arch=sm_80`, `-gencode arch=compute_80,code=sm_80`, `--gpu-code`).",
    why="They name NVIDIA architectures; AMD code objects are built per gfx target.",
    example="-gencode arch=compute_80,code=sm_80",
    instead="`--offload-arch=gfx90a` (one per target) where the options are passed to hipcc directly; in CMake the "
            "architectures variable or property says it.",
    references=(_CLANG_HIP,),
)
NVCC_OUTPUT = build_rule(
    "C2R-B304", "nvcc-nvidia-output", severity=Severity.HIGH,
    what="nvcc options that produce NVIDIA-only artefacts (`-ptx`, `-cubin`, `-fatbin`).",
    why="There is no PTX on AMD; the build step (and whatever loads its output) must be redesigned.",
    example="nvcc -ptx kernels.cu -o kernels.ptx",
    instead="Compile a code object with `--offload-arch=... --cuda-device-only` (or `--genco`) and load it with "
            "`hipModuleLoad`; or build the kernels into the program.",
    references=(_CLANG_HIP,),
)
SETUP_CUDA_EXTENSION = build_rule(
    "C2R-B401", "setup-cuda-extension", severity=Severity.INFO,
    what="`CUDAExtension` (torch.utils.cpp_extension) in a setup.py.",
    why="It keeps working on ROCm: a ROCm build of PyTorch hipifies the extension's sources at build time and "
        "compiles them with hipcc. What breaks that build (nvcc options, CUDA_HOME checks, CUDA libraries, "
        "TORCH_CUDA_ARCH_LIST) is rewritten or reported by the other C2R-B4xx rules.",
    example="CUDAExtension(\"ops._C\", [\"csrc/ops.cpp\", \"csrc/kernels.cu\"])",
    instead="Nothing to change; build with a ROCm build of PyTorch and `PYTORCH_ROCM_ARCH` set to the targets.",
    references=(_TORCH_EXT,),
)
SETUP_OPTIONS_UNCHECKED = build_rule(
    "C2R-B402", "setup-nvcc-options-computed", severity=Severity.LOW,
    what="`extra_compile_args` or its `nvcc` list computed by code (a function call, a comprehension, a variable "
         "set elsewhere), so its options cannot be checked.",
    why="On ROCm the `nvcc` list is handed to hipcc, which rejects nvcc's spellings (`--use_fast_math`, "
        "`-gencode`, `--expt-relaxed-constexpr`).",
    example="CUDAExtension(\"ops._C\", [\"csrc/ops.cu\"], extra_compile_args={\"nvcc\": nvcc_flags()})",
    instead="Translate the options as the C2R-B30x rules say, or build the list from literals in setup.py.",
    references=(_TORCH_EXT, _CLANG_HIP),
)
SETUP_ARCH_LIST = build_rule(
    "C2R-B403", "setup-torch-cuda-arch-list", severity=Severity.MEDIUM,
    what="`TORCH_CUDA_ARCH_LIST` set in setup.py (`os.environ[...] = ...`, `os.environ.setdefault(...)`) or read.",
    why="It names NVIDIA compute capabilities; a ROCm build of PyTorch takes the extension's targets from "
        "`PYTORCH_ROCM_ARCH` (gfx names, ';'-separated).",
    example="os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"8.0;9.0\"",
    instead="os.environ[\"PYTORCH_ROCM_ARCH\"] = \"gfx90a;gfx942\"",
    references=(_TORCH_EXT,),
)
SETUP_CUDA_HOME = build_rule(
    "C2R-B404", "setup-cuda-home", severity=Severity.MEDIUM,
    what="`CUDA_HOME` from torch.utils.cpp_extension checked (`CUDA_HOME is None`, `if CUDA_HOME:`) or used.",
    why="In a ROCm build of PyTorch `CUDA_HOME` is None and `ROCM_HOME` is set: the check refuses to build, or a "
        "path built from `CUDA_HOME` fails. `torch.version.hip` says the platform.",
    example="if CUDA_HOME is None:\n    raise RuntimeError(\"CUDA is required\")",
    instead="`if CUDA_HOME is None and ROCM_HOME is None:` with `ROCM_HOME` imported from "
            "torch.utils.cpp_extension (rewritten where the check is a simple comparison; other uses reported).",
    references=(_TORCH_EXT,),
)
SETUP_LIBRARIES = build_rule(
    "C2R-B405", "setup-cuda-libraries", severity=Severity.MEDIUM,
    what="CUDA libraries in an extension's `libraries=[...]` (`cublas`, `cudart`, `curand`, `cusparse`, `nccl`, "
         "...), directly or through a variable of the file.",
    why="The CUDA libraries do not exist on a ROCm system; the link fails.",
    example="CUDAExtension(\"ops._C\", [\"csrc/ops.cu\"], libraries=[\"cublas\", \"curand\"])",
    instead="The ROCm link names: `hipblas`, `amdhip64`, `hiprand`, `hipsparse`, `rccl`, `MIOpen`, ...",
    references=(_TORCH_EXT, _HIPCC),
)
SETUP_CUDA_ONLY = build_rule(
    "C2R-B407", "setup-cuda-only-code", severity=Severity.MEDIUM,
    what="Module-level code of a setup.py that runs nvcc (a version check: `subprocess.check_output([CUDA_HOME + "
         "\"/bin/nvcc\", \"-V\"])`, directly or through a function of the file), takes `torch.version.cuda` for a "
         "string (`parse(torch.version.cuda)`), or reads a name such code set.",
    why="In a ROCm build of PyTorch `CUDA_HOME` and `torch.version.cuda` are None and there is no nvcc: setup.py "
        "crashes before it builds anything (TypeError, FileNotFoundError).",
    example="import subprocess\nfrom torch.utils.cpp_extension import CUDA_HOME, CUDAExtension\n"
            "out = subprocess.check_output([CUDA_HOME + \"/bin/nvcc\", \"-V\"], text=True)",
    instead="The statements under `if not IS_HIP_EXTENSION:` (imported from torch.utils.cpp_extension; ROCm "
            "builds skip them); where that would hide the `setup()` call, branch by hand.",
    references=(_TORCH_EXT,),
)
SETUP_SOURCES = build_rule(
    "C2R-B406", "setup-cu-sources", severity=Severity.LOW,
    what="Extension sources (`sources=[...]`, `glob(\"csrc/*.cu\")`) that `convert` renamed to `.hip`.",
    why="After the rename the `.cu` files are gone and the build stops; PyTorch's ROCm build compiles `.hip` "
        "sources with hipcc as they are.",
    example="CUDAExtension(\"ops._C\", [\"csrc/ops.cpp\", \"csrc/kernels.cu\"])",
    instead="The new names (`csrc/kernels.hip`) when `convert` renamed the sources; otherwise nothing to do.",
    references=(_TORCH_EXT,),
)


# -- B7xx: both platforms (--dual) -------------------------------------------------------------------------
DUAL_PLATFORM = build_rule(
    "C2R-B701", "dual-platform-switch", severity=Severity.INFO,
    what="`migrate build --dual`: the `GPU_PLATFORM` switch declared in a build file whose migrated constructs are "
         "kept for both platforms.",
    why="A team that keeps CUDA needs one build that still configures for NVIDIA while the AMD build is added "
        "(the guide's dual-maintenance case); two forked build trees drift apart.",
    example="project(demo LANGUAGES CXX CUDA)",
    instead="Configure with `-DGPU_PLATFORM=hip` (CMake) or `make GPU_PLATFORM=hip`; the default stays `cuda`.",
)


# -- B5xx: Bazel (BUILD, *.bzl, WORKSPACE, MODULE.bazel, .bazelrc) --------------------------------------------------
_TF_ROCM = "https://github.com/tensorflow/tensorflow/tree/master/third_party/gpus/rocm"
_RULES_CUDA = "https://github.com/bazel-contrib/rules_cuda"
_TF_ROCM_CONFIGURE = "https://github.com/tensorflow/tensorflow/blob/master/third_party/gpus/rocm_configure.bzl"

BAZEL_LOAD = build_rule(
    "C2R-B501", "bazel-cuda-load", severity=Severity.MEDIUM,
    what="`load()` of rules_cuda's `@rules_cuda//cuda:defs.bzl` or TensorFlow's "
         "`@local_config_cuda//cuda:build_defs.bzl`, and the names loaded from it.",
    why="Neither exists in a ROCm build. TensorFlow/XLA's ROCm configuration (`@local_config_rocm`, written by "
        "their `rocm_configure` repository rule) has the counterparts: `rocm_library`, `if_rocm`, "
        "`rocm_default_copts`, `if_rocm_is_configured`.",
    example="load(\"@rules_cuda//cuda:defs.bzl\", \"cuda_library\")",
    instead="load(\"@local_config_rocm//rocm:build_defs.bzl\", \"rocm_library\"); names with no counterpart "
            "(`cuda_binary`, `cuda_test`, `cuda_objects`) stay loaded from rules_cuda and are reported.",
    references=(_TF_ROCM, _RULES_CUDA),
)
BAZEL_RULE = build_rule(
    "C2R-B502", "bazel-cuda-rule", severity=Severity.MEDIUM,
    what="rules_cuda targets: `cuda_library` (rewritten to `rocm_library`), `cuda_binary`, `cuda_test`, "
         "`cuda_objects` (no counterpart) and rules_cuda attributes cc_library does not take (`host_copts`, "
         "`rdc`, `ptxasopts`, ...).",
    why="`rocm_library` is a cc_library compiled for the GPU under `--config=rocm`; there is no ROCm binary or test "
        "rule, and cc_library rejects attributes it does not know.",
    example="load(\"@rules_cuda//cuda:defs.bzl\", \"cuda_binary\")\ncuda_binary(name = \"app\", srcs = "
            "[\"app.cu\"])",
    instead="A `rocm_library` with the device sources, linked from a `cc_binary`/`cc_test`; host options in "
            "`copts`.",
    references=(_TF_ROCM, _RULES_CUDA),
)
BAZEL_LABEL = build_rule(
    "C2R-B503", "bazel-cuda-label", severity=Severity.MEDIUM,
    what="Dependencies on CUDA targets: `@local_config_cuda//cuda:cuda_headers`, `@local_cuda//:cuda_runtime`, "
         "`@local_config_cuda//cuda:cublas`, `@local_cuda//:curand`, `@local_config_nccl//:nccl`, ...",
    why="The CUDA repositories do not exist in a ROCm build; the HIP runtime and the hip* libraries are targets "
        "of `@local_config_rocm//rocm`.",
    example="cc_binary(name = \"app\", deps = [\"@local_cuda//:cuda_runtime\", \"@local_cuda//:curand\"])",
    instead="`@local_config_rocm//rocm:hip`, `@local_config_rocm//rocm:hiprand`, `:hipblas`, `:hipsparse`, "
            "`:rccl`, `:rocm_headers`, ...",
    references=(_TF_ROCM,),
)
BAZEL_CONDITION = build_rule(
    "C2R-B504", "bazel-cuda-condition", severity=Severity.MEDIUM,
    what="CUDA configuration conditions in `select()` (`@local_config_cuda//cuda:using_nvcc`, "
         "`@rules_cuda//cuda:is_enabled`) and other CUDA labels with no known ROCm counterpart.",
    why="They are never true in a ROCm build, so the branch they guard (defines, sources, copts) silently goes "
        "away; whether the ROCm build needs that branch is a person's decision.",
    example="cc_library(name = \"k\", defines = select({\"@local_config_cuda//cuda:using_nvcc\": "
            "[\"USE_GPU\"], \"//conditions:default\": []}))",
    instead="A branch on `@local_config_rocm//rocm:using_hipcc` (or `if_rocm(...)`) where the ROCm build needs it.",
    references=(_TF_ROCM,),
)
BAZEL_REPOSITORY = build_rule(
    "C2R-B505", "bazel-cuda-repository", severity=Severity.MEDIUM,
    what="CUDA repositories in WORKSPACE / MODULE.bazel / .bzl files: `http_archive(name = \"rules_cuda\")`, "
         "`bazel_dep(name = \"rules_cuda\")`, `rules_cuda_dependencies()`, `register_detected_cuda_toolchains()`, "
         "`cuda_configure(...)`, rules_cuda's module extension.",
    why="They fetch or configure the CUDA toolkit; the ROCm build needs `@local_config_rocm`, which "
        "TensorFlow/XLA write with their `rocm_configure` repository rule.",
    example="bazel_dep(name = \"rules_cuda\", version = \"0.2.1\")",
    instead="Keep the CUDA repositories for the CUDA build and add `rocm_configure(name = \"local_config_rocm\")` "
            "(from TensorFlow's third_party/gpus, or an equivalent that provides the same labels).",
    references=(_TF_ROCM_CONFIGURE, _RULES_CUDA),
)
BAZEL_X_CUDA = build_rule(
    "C2R-B506", "bazel-x-cuda", severity=Severity.LOW,
    what="`-x cuda` in `copts` (clang's CUDA mode, as TensorFlow's cuda_default_copts() passes it), and `copts` "
         "of a rocm_library computed by code, whose nvcc options cannot be checked.",
    why="Under TensorFlow's ROCm toolchain device code is compiled with `-x rocm`; `-x cuda` asks for NVIDIA's "
        "language mode.",
    example="cc_library(name = \"k\", srcs = [\"k.cu.cc\"], copts = [\"-x\", \"cuda\"])",
    instead="`-x rocm` (`rocm_library` adds it through rocm_default_copts()).",
    references=(_TF_ROCM,),
)
BAZEL_SOURCES = build_rule(
    "C2R-B507", "bazel-cu-sources", severity=Severity.LOW,
    what="`srcs`/`hdrs` entries and `glob()` patterns naming `.cu` files that `convert` renamed; sources of a "
         "`rocm_library` whose extension cc_library rejects (`.cu`, `.hip`: reported high).",
    why="After the rename the `.cu` files are gone and the target no longer builds; `rocm_library` is a cc_library, "
        "whose `srcs` take C/C++ extensions only.",
    example="cc_library(name = \"k\", srcs = [\"reduce.cu\"])",
    instead="The new names; for Bazel, `cuda2rocm convert --cu-suffix .cu.cc` names the translated sources as "
            "TensorFlow does (`reduce.cu.cc`), which cc_library accepts.",
    references=(_TF_ROCM,),
)
BAZELRC_CONFIG = build_rule(
    "C2R-B508", "bazelrc-rocm-config", severity=Severity.MEDIUM,
    what="A `.bazelrc` `cuda` config (`build:cuda ...`) with no `rocm` config beside it.",
    why="`bazel build --config=rocm` needs the ROCm toolchain, `TF_NEED_ROCM=1` and the gfx targets for "
        "`rocm_configure`; the cuda config's own options (archs, CUDA paths and versions) mean nothing on AMD.",
    example="build:cuda --@rules_cuda//cuda:enable --@rules_cuda//cuda:archs=sm_80",
    instead="A `rocm` config added after the cuda one (kept): `--define=using_rocm=true`, "
            "`--define=using_rocm_hipcc=true`, `--crosstool_top=@local_config_rocm//crosstool:toolchain`, "
            "`--repo_env=TF_NEED_ROCM=1`, `--repo_env=TF_ROCM_AMDGPU_TARGETS=gfx90a,gfx942`, and the cuda "
            "config's other options translated (`CUDA_TOOLKIT_PATH` -> `ROCM_PATH`).",
    references=(_TF_ROCM_CONFIGURE,),
)
BAZELRC_OPTION = build_rule(
    "C2R-B509", "bazelrc-cuda-option", severity=Severity.LOW,
    what="CUDA-only `.bazelrc` options left out of the added rocm config (`TF_CUDA_VERSION`, `CUDNN_INSTALL_PATH`, "
         "rules_cuda flags, other CUDA configs) and CUDA options outside any config (`build --config=cuda`).",
    why="They configure the CUDA toolkit; a default `--config=cuda` makes every build a CUDA one.",
    example="build --config=cuda\nbuild:cuda --action_env=TF_CUDA_VERSION=12",
    instead="Build with `--config=rocm`; set the ROCm version through `ROCM_PATH`.",
    references=(_TF_ROCM_CONFIGURE,),
)


# ---- B6xx: Python dependencies (requirements files, pyproject.toml, Pipfile, conda environment files) ----
_TORCH_VERSIONS = "https://pytorch.org/get-started/previous-versions/"
_PIP_REQ = "https://pip.pypa.io/en/stable/reference/requirements-file-format/"
_PIP_HASH = "https://pip.pypa.io/en/stable/topics/secure-installs/"
_AMDSMI = "https://rocm.docs.amd.com/projects/amdsmi/en/latest/"

pydeps_rule = partial(build_rule, references=(_TORCH_VERSIONS,))


PY_TORCH_BUILD = pydeps_rule(
    "C2R-B601", "pydeps-torch-cuda-build", severity=Severity.MEDIUM,
    what="`torch` pinned to a CUDA build (`torch==2.1.2+cu121`) or to a release with no build on the target "
         "ROCm's wheel index; a version range no release on that index satisfies; a direct URL to a CUDA wheel.",
    why="PyTorch publishes each release on a few ROCm indexes only (`download.pytorch.org/whl/rocmX.Y`): a pin "
        "the index does not carry cannot be installed for AMD GPUs.",
    example="torch==2.1.2+cu121",
    instead="A release the target ROCm's index carries (`torch==2.10.0+rocm7.1`: the same release where the index "
            "has it, else the nearest newer one, reported); ranges and URLs are reported.",
)
PY_TORCH_COMPANION = pydeps_rule(
    "C2R-B602", "pydeps-torch-companion", severity=Severity.MEDIUM,
    what="`torchvision` / `torchaudio` pinned to a CUDA build or to the release that went with a torch release "
         "the target ROCm's index does not carry.",
    why="torchvision and torchaudio are built against one torch release; after torch moves, their pins must move "
        "with it.",
    example="torchvision==0.16.2+cu121",
    instead="The release PyTorch published with the torch release chosen for ROCm (`torchvision==0.25.0+rocm7.1` "
            "with torch 2.10.0).",
)
PY_WHEEL_INDEX = pydeps_rule(
    "C2R-B603", "pydeps-cuda-wheel-index", severity=Severity.MEDIUM,
    what="A CUDA wheel index of PyTorch (`https://download.pytorch.org/whl/cu121`, `.../whl/nightly/cu128`) in "
         "`--index-url`/`--extra-index-url`/`-f` lines, `[[tool.uv.index]]`, `[tool.uv]` index settings, "
         "`[[tool.poetry.source]]`, a Pipfile's `[[source]]` or a conda file's pip list.",
    why="It serves CUDA builds of torch, torchvision and torchaudio only.",
    example="--extra-index-url https://download.pytorch.org/whl/cu121\ntorch",
    instead="The ROCm index of the target (`https://download.pytorch.org/whl/rocm7.1`); names given to the index "
            "(`name = \"pytorch-cu121\"`) are left as they are.",
    references=(_TORCH_VERSIONS, _PIP_REQ),
)
PY_NVIDIA_WHEEL = pydeps_rule(
    "C2R-B604", "pydeps-nvidia-wheel", severity=Severity.LOW,
    what="NVIDIA's CUDA library wheels (`nvidia-cublas-cu12`, `nvidia-cudnn-cu12`, `nvidia-nccl-cu12`, ...) listed "
         "as dependencies: removed.",
    why="They are the CUDA libraries CUDA builds of torch load; PyTorch's ROCm wheels bundle the ROCm libraries "
        "they need, and the NVIDIA wheels are of no use on an AMD GPU.",
    example="nvidia-cudnn-cu12==8.9.2.26",
    instead="Nothing: the line goes (with its pip-compile `# via` annotations).",
)
PY_PACKAGE_REPLACED = pydeps_rule(
    "C2R-B605", "pydeps-package-replaced", severity=Severity.MEDIUM,
    what="A CUDA-only package with a ROCm counterpart: NVML bindings (`pynvml`, `nvidia-ml-py`) -> `amdsmi`; "
         "CuPy's CUDA builds (`cupy-cuda12x`) -> `cupy-rocm-7-0` where the target ROCm has that build.",
    why="The CUDA package does not work on AMD GPUs; its version pin means nothing for the replacement, so it goes.",
    example="pynvml==11.5.0",
    instead="`amdsmi` (its API differs from NVML's: the calls must be rewritten); CuPy for another ROCm: reported "
            "with the knowledge base's notes (AMD's `amd-cupy`, or a source build).",
    references=(_AMDSMI,),
)
PY_GPU_PLUGIN = pydeps_rule(
    "C2R-B606", "pydeps-gpu-plugin", severity=Severity.MEDIUM,
    what="A GPU Python package the knowledge base knows (flash-attn, xformers, bitsandbytes, vllm, cupy, "
         "deepspeed, ...) or another package pinned to a CUDA build (`+cu121`): reported with its ROCm status and "
         "caveat, never changed.",
    why="Whether and how such a package runs on ROCm differs per package (upstream wheels, AMD forks, source "
        "builds, no support); a silent rename could install something else.",
    example="flash-attn==2.5.8",
    instead="Follow the message: the ROCm package or install route the knowledge base gives (`cuda2rocm kb show "
            "plugin NAME`).",
)
PY_HASHES = pydeps_rule(
    "C2R-B607", "pydeps-hashes-stale", severity=Severity.HIGH,
    what="`--hash=sha256:...` options of a requirement whose release or name was changed: removed.",
    why="A hash pins the files of the old release; left in place it fails the install, and pip in hash-checking "
        "mode (any hash in the file) refuses requirements without one.",
    example="torch==2.1.2+cu121 \\\n    --hash=sha256:" + "0" * 64,
    instead="Regenerate the hashes for the new pins (`pip-compile --generate-hashes`, `uv pip compile "
            "--generate-hashes`, or `pip hash` on the downloaded wheels).",
    references=(_PIP_HASH,),
)
PY_CONDA_CUDA = pydeps_rule(
    "C2R-B608", "pydeps-conda-cuda", severity=Severity.MEDIUM,
    what="CUDA in a conda environment file: `pytorch-cuda=12.1`, `cudatoolkit`, `cuda-toolkit`, `cudnn`, `nccl`, "
         "`nvidia::` packages and the `nvidia` channel (removed); conda's `pytorch`, `torchvision`, `torchaudio` "
         "(moved to the `pip:` list as pins of PyTorch's ROCm index).",
    why="They select CUDA builds; conda has no ROCm builds of PyTorch: PyTorch for ROCm is installed with pip "
        "from PyTorch's ROCm index.",
    example="channels:\n  - nvidia\ndependencies:\n  - pytorch-cuda=12.1",
    instead="The `pip:` list of the environment with `--extra-index-url https://download.pytorch.org/whl/rocm7.1` "
            "and `torch==...`; the CUDA packages and channel go.",
)
PY_NEAREST_ROCM = pydeps_rule(
    "C2R-B609", "pydeps-no-wheels-for-target", severity=Severity.MEDIUM,
    what="A target ROCm (`--target-rocm`) for which the knowledge base lists no PyTorch wheel index (none exists, or "
         "its torch releases are not sourced yet).",
    why="The pins and indexes must name an index that exists; the nearest one stands in.",
    example="--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.1.2+cu121",
    instead="The newest index below the target (ROCm is compatible across nearby releases); check PyTorch's "
            "install page for newer indexes.",
)
PY_OTHER_ROCM = pydeps_rule(
    "C2R-B611", "pydeps-other-rocm-index", severity=Severity.MEDIUM,
    what="A dependency file already on a PyTorch ROCm wheel index of another ROCm series than the run's target stack "
         "(`--target-rocm`, `cuda2rocm.toml`, else the newest ROCm with an index of its own).",
    why="Its pins follow its own index, so the torch it installs is built for another ROCm than the images and the "
        "extensions of the stack: one of the two must change.",
    example="--extra-index-url https://download.pytorch.org/whl/rocm6.2\ntorch==2.5.1+rocm6.2",
    instead="Move the index and the pins to the stack's ROCm (the stack is printed at the start of `migrate`), or "
            "give `--target-rocm` the release of this index to every migrate command.",
)
PY_NO_INDEX = pydeps_rule(
    "C2R-B610", "pydeps-torch-without-rocm-index", severity=Severity.LOW,
    what="torch, torchvision or torchaudio required by a dependency file that names no ROCm wheel index.",
    why="Installed from PyPI they are CUDA builds on Linux (unless the install command or an including file gives "
        "the index).",
    example="torch==2.10.0",
    instead="`--extra-index-url https://download.pytorch.org/whl/rocm7.1` (requirements files, conda pip lists), "
            "a `[[tool.uv.index]]` with the URL (uv), or a `[[source]]` (Pipfile).",
    references=(_TORCH_VERSIONS, _PIP_REQ),
)
