"""C2R-S2xx third-party plugins and C2R-S3xx closed-source binaries."""

from __future__ import annotations

from cuda2rocm.model import Confidence as C
from cuda2rocm.model import Layer as L
from cuda2rocm.model import Severity as S
from cuda2rocm.rules import new_rule

PLUG = "scan-plugins"
BIN = "scan-binaries"
AI = "https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/index.html"

S201 = new_rule(
    "C2R-S201", "plugin-without-rocm-support", family=PLUG, severity=S.HIGH, confidence=C.HIGH, layer=L.LIBRARY,
    what="Flags third-party GPU packages that have no ROCm support or are abandoned, per the bundled "
    "knowledge base (with the fact's source and date).",
    why="The application cannot run on AMD until the package is replaced; this is often the largest single "
    "item of a migration.",
    example="tensorrt==8.6.1",
    instead="Use the replacement the knowledge base names (shown in the message).",
    references=(AI,),
)
S202 = new_rule(
    "C2R-S202", "plugin-needs-rocm-build", family=PLUG, severity=S.MEDIUM, confidence=C.HIGH, layer=L.LIBRARY,
    what="Flags third-party GPU packages that work on ROCm only through an AMD fork, a partial upstream port "
    "or an alternative package.",
    why="The package name, version or install command changes, and features may be missing on ROCm.",
    example="xformers==0.0.23",
    instead="Install the ROCm build named in the message and check its caveats.",
    references=(AI,),
)
S203 = new_rule(
    "C2R-S203", "plugin-supported-upstream", family=PLUG, severity=S.INFO, confidence=C.HIGH, layer=L.LIBRARY,
    what="Records third-party GPU packages that support ROCm upstream.",
    why="They still need their ROCm wheel or a source build against ROCm, and a version that has it.",
    example="flash-attn==2.5.6",
    instead="Install the ROCm build of the same package.",
    references=(AI,),
)
S204 = new_rule(
    "C2R-S204", "unknown-cuda-package", family=PLUG, severity=S.MEDIUM, confidence=C.LOW, layer=L.LIBRARY,
    what="Flags required packages the knowledge base does not know whose names say they are CUDA-specific "
    "(`nvidia-*` other than the CUDA library wheels, `*cuda*`, `*cutlass*`, `*tensorrt*`, `*-cu12`).",
    why="A CUDA-only dependency with no known ROCm story can block the port as surely as a known one; it "
    "needs someone to check it before the migration is planned.",
    example="nvidia-cutlass-dsl==4.7.1",
    instead="Check the package's ROCm support (an AMD fork, a ROCm wheel, or a replacement) and add the fact "
    "to the knowledge base (`cuda2rocm kb update --from FILE`).",
    references=(AI,),
)
S301 = new_rule(
    "C2R-S301", "closed-cuda-binary", family=BIN, severity=S.HIGH, confidence=C.HIGH, layer=L.LIBRARY,
    what="Flags prebuilt ELF files (shared/static libraries, objects, executables) that link CUDA libraries "
    "(DT_NEEDED libcudart, libcublas, libnccl, ...) and whose source is not in the repository.",
    why="A binary linked against CUDA cannot be translated; without its source it must be rebuilt by its "
    "vendor for ROCm or replaced.",
    example="third_party/libfastgemm.so  (DT_NEEDED libcublas.so.12)",
    instead="Get the source or a ROCm build from the vendor, or replace the component.",
    references=("https://refspecs.linuxfoundation.org/elf/gabi4+/ch5.dynamic.html",),
)
S302 = new_rule(
    "C2R-S302", "embedded-nvidia-fatbin", family=BIN, severity=S.HIGH, confidence=C.HIGH, layer=L.LOW_LEVEL,
    what="Flags binaries that embed NVIDIA device code (`.nv_fatbin` section) with no source in the "
    "repository.",
    why="The embedded SASS/PTX runs only on NVIDIA GPUs; the kernels have to be rebuilt from source for "
    "gfx targets.",
    example="lib/_kernels.cpython-311-x86_64-linux-gnu.so  (.nv_fatbin present)",
    instead="Rebuild from source with hipcc, or obtain a ROCm build.",
    references=("https://docs.nvidia.com/cuda/cuda-binary-utilities/",),
)
S303 = new_rule(
    "C2R-S303", "nvidia-device-code-file", family=BIN, severity=S.HIGH, confidence=C.HIGH, layer=L.LOW_LEVEL,
    what="Flags NVIDIA device code files: `.cubin`, `.fatbin`, `.ptx`, when no source is present.",
    why="PTX and cubins are NVIDIA ISA; they are loaded with the driver API (`cuModuleLoad`) and have no "
    "AMD equivalent without the source.",
    example="kernels/attention_sm80.cubin",
    instead="Recover the CUDA source, translate it, and ship code objects built with hipcc (`.hsaco`).",
    references=("https://docs.nvidia.com/cuda/parallel-thread-execution/",),
)
S304 = new_rule(
    "C2R-S304", "wheel-with-cuda-binaries", family=BIN, severity=S.HIGH, confidence=C.HIGH, layer=L.LIBRARY,
    what="Flags wheels in the repository whose shared objects link CUDA libraries or embed fatbins.",
    why="A vendored CUDA wheel installs fine on an AMD machine and fails at import or first use.",
    example="wheels/fused_ops-0.3-cp311-cp311-linux_x86_64.whl",
    instead="Rebuild the wheel from source on ROCm, or depend on a ROCm build of the package.",
    references=("https://packaging.python.org/en/latest/specifications/binary-distribution-format/",),
)
