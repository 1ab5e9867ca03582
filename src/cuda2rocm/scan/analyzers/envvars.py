"""Environment variables that matter on the way to ROCm: NCCL_*, CUDA_*, TORCH_CUDA_ARCH_LIST, NVIDIA_*."""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterator

from cuda2rocm.project.recognise import CUDA_PATH_VARIABLES, FABRIC, HONOURED, NVLINK, PYTORCH, RETUNE, nccl_class
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import Fact, Hit, Record, Scale

NCCL_NAME = re.compile(r"(?:TORCH_)?NCCL_[A-Z0-9_]+")
_CUDA_NAME = re.compile(r"(?:CUDA_|PYTORCH_CUDA_|CUBLAS_|CUDNN_|TORCH_CUDNN_)[A-Z0-9_]+")
_NVIDIA_RUNTIME = frozenset({"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA"})
#: version pins written as environment variables by NVIDIA images (inventory, not tuning)
VERSION_VARS = {"CUDA_VERSION": "cuda", "NV_CUDA_CUDART_VERSION": "cuda", "CUDNN_VERSION": "cudnn",
                "NV_CUDNN_VERSION": "cudnn", "NCCL_VERSION": "nccl", "NV_LIBNCCL_PACKAGE_VERSION": "nccl"}


@functools.lru_cache(maxsize=512)
def _knowledge(name: str) -> tuple[str, str, str] | None:
    """(status, rocm names, note) from the knowledge base, or None when it does not know the variable."""
    from cuda2rocm import knowledge

    var = knowledge.get_env_var(name)
    return (var.status, ", ".join(var.rocm), var.note) if var else None


_LIBRARY_PATHS = frozenset({"LD_LIBRARY_PATH", "LIBRARY_PATH", "PATH", "CPATH", "CPLUS_INCLUDE_PATH"})
_CUDA_DIR = re.compile(r"/usr/local/cuda[\w.-]*(?:/\w+)?|/usr/lib64-nvidia|/usr/local/nvidia/lib\w*")


def check_env(name: str, line: int, col: int, value: str = "", *, build_arg: bool = False) -> Iterator[Record]:
    """Record the finding (if any) for setting environment variable ``name``.

    ``build_arg``: a Dockerfile ARG, which exists during the build only: version pins and the architecture list
    count, runtime settings (NCCL_*, CUDA_* tuning, NVIDIA_VISIBLE_DEVICES) do not.
    """
    if build_arg and name not in VERSION_VARS and name != "TORCH_CUDA_ARCH_LIST":
        return
    if name in VERSION_VARS:
        kind = VERSION_VARS[name]
        name_ = "cuDNN" if kind == "cudnn" else kind.upper()
        yield Fact(kind, name_, value.strip("\"'"), line, f"{name}={value}")
        yield Hit(rules.S101, line, col, f"{name}={value} pins {kind} {value.strip(chr(34))}")
    elif NCCL_NAME.fullmatch(name):
        yield from _nccl(name, line, col, value)
    elif name == "TORCH_CUDA_ARCH_LIST":
        yield Hit(rules.P105, line, col, f"TORCH_CUDA_ARCH_LIST={value} names NVIDIA compute capabilities; "
                   "ROCm builds read PYTORCH_ROCM_ARCH")
    elif name in _LIBRARY_PATHS and (cuda_dir := _CUDA_DIR.search(value)):
        yield Hit(rules.D108, line, col, f"{name} points at CUDA toolkit directories ({cuda_dir.group(0)}); "
                   "ROCm's libraries and tools are under /opt/rocm (lib, bin)")
    elif name in _NVIDIA_RUNTIME:
        yield Hit(rules.D105, line, col, f"{name} is read by the NVIDIA container runtime only")
    elif _CUDA_NAME.fullmatch(name):
        yield from _cuda(name, line, col)


def _nccl(name: str, line: int, col: int, value: str) -> Iterator[Record]:
    """A ``NCCL_*`` setting, described by the class ``migrate deploy`` acts on (:func:`nccl_class`: removed,
    re-tuned, checked against the NICs, or kept)."""
    c = nccl_class(name)
    facts = _knowledge(name)
    extra = ""
    if c.klass == NVLINK:
        note = facts[2] if facts and facts[2] else c.note
        extra = f"; no effect on RCCL ({textwrap.shorten(note, 100, placeholder=' …')})" if note else \
            "; no effect on RCCL"  # the note cut at a word boundary
    elif c.klass == RETUNE:
        extra = "; RCCL reads it, but a value tuned on NVIDIA hardware must be re-tuned on AMD"
    elif c.klass == FABRIC:
        extra = "; RCCL reads it, check the value against the AMD nodes' NICs"
    elif c.klass in (HONOURED, PYTORCH):
        extra = "; RCCL reads the same name, re-check the value on AMD"
    yield Hit(rules.D103, line, col, f"NCCL variable {name}{'=' + value if value else ''}{extra}")
    yield Scale("multi-gpu", line, f"{name}")


def _cuda(name: str, line: int, col: int) -> Iterator[Record]:
    facts = _knowledge(name)
    if name in CUDA_PATH_VARIABLES:  # the same recogniser migrate moves to ROCM_PATH with
        yield Hit(rules.D108, line, col, f"{name} holds the CUDA toolkit's location; ROCm analogue: ROCM_PATH "
                  "(migrate build and deploy set it)")
    elif facts is None:
        yield Hit(rules.D108, line, col, f"{name} is a CUDA runtime setting with no known ROCm counterpart")
    elif facts[0] not in ("honored", "alias"):
        rocm = f"; ROCm analogue: {facts[1]}" if facts[1] else ""
        yield Hit(rules.D108, line, col, f"{name} ({facts[0].replace('_', ' ')} on ROCm){rocm}")
