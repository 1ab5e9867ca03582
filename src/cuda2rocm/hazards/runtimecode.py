"""K304, K305: device code compiled or loaded at run time for NVIDIA targets (NVRTC options and outputs, PTX and
cubin images given to the driver API)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.hazards.common import FAMILY, LAYER, PTX_ISA, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.ptx import unquote
from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.tokens import STRING

HIPRTC = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_rtc.html"
HIP_MODULES = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/modules.html"

#: an NVRTC/nvcc option naming an NVIDIA architecture: --gpu-architecture=sm_80, -arch=compute_90, -arch sm_75,
#: --gpu-architecture=sm_ (the number appended at run time)
_ARCH_OPTION = lazy(r"(?:--gpu-architecture|-arch)(?:=|\s+)(?:sm|compute|lto)_\w*")
#: the option alone, its value in the next array element (``{"-arch", "sm_80"}``)
_ARCH_ALONE = frozenset({"-arch", "--gpu-architecture"})
_ARCH_VALUE = lazy(r"(?:sm|compute|lto)_\d+\w*")
#: NVRTC functions that return NVIDIA code: PTX, cubin, NVVM IR, LTO IR
_NVRTC_OUTPUTS = frozenset({"nvrtcGetPTX", "nvrtcGetPTXSize", "nvrtcGetCUBIN", "nvrtcGetCUBINSize", "nvrtcGetNVVM",
                            "nvrtcGetNVVMSize", "nvrtcGetLTOIR", "nvrtcGetLTOIRSize"})
_NVRTC = ("nvrtcCompileProgram", "nvrtcCreateProgram")


def _string_value(src: Source, i: int) -> str:
    """The characters of string literal token ``i``."""
    return unquote(src.src(i))


def _arch_options(src: Source) -> Iterator[tuple[int, str]]:
    for i in src.of_kind(STRING):
        if src.tokens[i].pp:
            continue
        value = _string_value(src, i)
        found = _ARCH_OPTION().search(value)
        if found is not None:
            yield i, found.group(0)
        elif value in _ARCH_ALONE and src.src(src.next(i)) == "," and src.kind(src.next(i, 2)) == STRING \
                and _ARCH_VALUE().fullmatch(_string_value(src, src.next(i, 2))):
            yield i, f"{value} {_string_value(src, src.next(i, 2))}"


@rule(
    "C2R-K304", "Run-time compilation (NVRTC) for an NVIDIA architecture or into PTX/cubin",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="In a file that compiles with NVRTC (`nvrtcCreateProgram`/`nvrtcCompileProgram`), finds compile options "
         "naming an NVIDIA architecture (`--gpu-architecture=sm_80`, `-arch=compute_90`, `\"-arch\", \"sm_75\"`, "
         "`\"--gpu-architecture=sm_\" + std::to_string(cc)`), and everywhere the NVRTC calls that return NVIDIA "
         "code (`nvrtcGetPTX`, `nvrtcGetCUBIN`, `nvrtcGetNVVM`, `nvrtcGetLTOIR` and their sizes).",
    why="hipRTC compiles for AMD targets named `--offload-arch=gfx942` (or `--gpu-architecture=gfx942`): an "
        "`sm_XX`/`compute_XX` option makes `hiprtcCompileProgram` fail. There is no PTX or cubin on AMD: "
        "`hiprtcGetCode` returns an AMD code object (ELF) for `hipModuleLoadData`, so code that writes the result "
        "as a `.ptx` file, parses it as PTX text or hands it to a PTX JIT must change.",
    example='#include <nvrtc.h>\nvoid build(nvrtcProgram prog) {\n'
            '  const char* opts[] = {"--gpu-architecture=compute_80"};\n'
            '  nvrtcCompileProgram(prog, 1, opts);\n}\n',
    instead="Name the AMD target (from `hipDeviceProp_t::gcnArchName`) and load the code object "
            "`hiprtcGetCode` returns.\n#include <nvrtc.h>\nvoid build(nvrtcProgram prog) {\n"
            '  const char* opts[] = {"--offload-arch=gfx942"};\n  nvrtcCompileProgram(prog, 1, opts);\n}\n',
    references=(HIPRTC,),
    # architecture options count only in a file naming nvrtc's compile calls; the outputs are nvrtcGet* names
    requires=("nvrtc",),
)
def check_nvrtc(src: Source) -> Iterator[Hit]:
    found: dict[int, str] = {}
    if any(src.positions(name) for name in _NVRTC):
        for i, option in _arch_options(src):
            found[i] = (f"NVRTC option '{option}' names an NVIDIA architecture: hipRTC takes "
                        "--offload-arch=gfxXXX (the device's gcnArchName)")
    for i in src.idents(_NVRTC_OUTPUTS):
        found[i] = (f"'{src.src(i)}' returns NVIDIA code (PTX/cubin/NVVM): AMD has none, hiprtcGetCode gives a "
                    "code object to load with hipModuleLoadData")
    for i in first_per_line(src, iter(sorted(found))):
        yield Hit("C2R-K304", i, found[i])


#: driver API calls that load a module image or file: the argument that holds it
_LOADS = {"cuModuleLoad": 1, "cuModuleLoadData": 1, "cuModuleLoadDataEx": 1, "cuModuleLoadFatBinary": 1,
          "cuLibraryLoadData": 1, "cuLibraryLoadFromFile": 1, "cuLinkAddFile": 2, "cuLinkAddData": 2,
          "cudaLibraryLoadData": 1, "cudaLibraryLoadFromFile": 1}
#: JIT input kinds that are NVIDIA code
_JIT_INPUTS = frozenset({"CU_JIT_INPUT_PTX", "CU_JIT_INPUT_CUBIN", "CU_JIT_INPUT_FATBINARY", "CU_JIT_INPUT_NVVM",
                         "cudaJitInputPtx", "cudaJitInputCubin", "cudaJitInputFatbinary"})
#: a file name of NVIDIA device code
_NV_FILE = lazy(r".*\.(?:ptx|cubin|fatbin)(?:\.\w+)?", re.IGNORECASE)
#: PTX text: its directives
_PTX_TEXT = lazy(r"\.version\s+\d|\.target\s+sm_|\.visible\s+\.entry|\.entry\s+\w")
#: the word of a variable that holds NVIDIA code
_NV_WORD = lazy(r"ptx|cubin|fatbin", re.IGNORECASE)


def _nv_string(value: str) -> bool:
    return bool(_NV_FILE().fullmatch(value) or _PTX_TEXT().search(value))


#: C library calls that write a string into their first argument
_WRITES_FIRST = frozenset({"snprintf", "sprintf", "strcpy", "strncpy", "strcat", "strncat"})


def _nv_names(src: Source) -> set[str]:
    """Variables that hold NVIDIA code or its file name: filled by nvrtcGetPTX/nvrtcGetCUBIN (their second
    argument), initialised/assigned from an expression with a ``.ptx``/``.cubin`` name or PTX text, or written
    with one (``snprintf(path, n, "%s/k.ptx", dir)``)."""
    names: set[str] = set()
    for i in src.idents(_NVRTC_OUTPUTS):
        args = src.args(i)
        if len(args) >= 2:
            names.update(src.src(k) for k in src.range_code(*args[1]) if src.kind(k) == "IDENT")
    for i in src.of_kind(STRING):
        if src.tokens[i].pp or not _nv_string(_string_value(src, i)):
            continue
        call = src.enclosing_call(i)
        if call >= 0 and src.src(call) in _WRITES_FIRST and src.args(call):
            first = src.range_code(*src.args(call)[0])
            if first and src.kind(first[0]) == "IDENT":
                names.add(src.src(first[0]))
            continue
        j = src.prev(i)
        while j >= 0 and src.src(j) not in ("=", ";", "{", "}", "("):
            j = src.prev(j)
        if src.src(j) in ("=", "(") and src.kind(src.prev(j)) == "IDENT":
            names.add(src.src(src.prev(j)))  # `path = dir + "/k.ptx"`, `std::string path("k.cubin")`
    return names


def _loads_nv_code(src: Source, start: int, end: int, names: set[str]) -> str:
    """What in argument tokens [start, end) is NVIDIA code ("" when nothing is)."""
    for k in src.range_code(start, end):
        if src.kind(k) == STRING and _nv_string(_string_value(src, k)):
            return src.src(k)
        if src.kind(k) == "IDENT" and (src.src(k) in names or _NV_WORD().search(src.src(k))):
            return src.src(k)
    return ""


@rule(
    "C2R-K305", "PTX or cubin loaded through the driver API",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `cuModuleLoad`/`cuModuleLoadData`/`cuModuleLoadDataEx`/`cuModuleLoadFatBinary` (and "
         "`cuLibraryLoad*`) of a `.ptx`/`.cubin`/`.fatbin` file, PTX text or a buffer filled by `nvrtcGetPTX`/"
         "`nvrtcGetCUBIN` (or named for PTX/cubin), `cuLinkAddFile`/`cuLinkAddData` of such input, and the JIT "
         "input kinds `CU_JIT_INPUT_PTX`/`CU_JIT_INPUT_CUBIN`/`CU_JIT_INPUT_FATBINARY`. Loads of other images "
         "(`.hsaco`, `.co`, an unnamed buffer) are not reported.",
    why="No AMD GPU runs PTX or cubin, and the HIP runtime has no PTX JIT: `hipModuleLoad` of a `.ptx` file "
        "fails. The kernels must be rebuilt as AMD code objects (`hipcc --genco --offload-arch=gfx942`, or hipRTC) "
        "and loaded with `hipModuleLoad`/`hipModuleLoadData`.",
    example='#include <cuda.h>\nvoid load(CUmodule* m) { cuModuleLoad(m, "kernels.ptx"); }\n',
    instead="Build the kernels as a code object and load that.\n"
            '#include <cuda.h>\nvoid load(CUmodule* m) { cuModuleLoad(m, "kernels.hsaco"); }\n',
    references=(HIP_MODULES, PTX_ISA),
    # the _LOADS calls hold cuModuleLoad, cuLibraryLoad, cudaLibraryLoad or cuLinkAdd; the JIT inputs CU_JIT_INPUT
    # or cudaJitInput
    requires=("cuModuleLoad", "cuLibraryLoad", "cudaLibraryLoad", "cuLinkAdd", "CU_JIT_INPUT", "cudaJitInput"),
)
def check_nv_images(src: Source) -> Iterator[Hit]:
    found: dict[int, str] = {}
    names: set[str] | None = None
    for i in src.idents(frozenset(_LOADS)):
        args = src.args(i)
        if len(args) <= _LOADS[src.src(i)]:
            continue
        if names is None:
            names = _nv_names(src)
        what = _loads_nv_code(src, *args[_LOADS[src.src(i)]], names)
        if what:
            found[i] = (f"'{src.src(i)}' loads NVIDIA code ({what}): AMD GPUs run neither PTX nor cubin, rebuild "
                        "the kernels as a code object (.hsaco) for hipModuleLoad")
    for i in src.idents(_JIT_INPUTS):
        found.setdefault(i, f"'{src.src(i)}': a PTX/cubin JIT input has no AMD counterpart, link AMD code objects "
                         "or bitcode instead")
    for i in first_per_line(src, iter(sorted(found))):
        yield Hit("C2R-K305", i, found[i])
