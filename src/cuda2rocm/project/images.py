"""Container image references, as every command reads them: the repository and tag of a reference, NVIDIA's
images, and the versions their tags name. ``scan`` reports CUDA images with these (C2R-D101), ``migrate deploy``
replaces them (C2R-M101)."""

from __future__ import annotations

import re

#: an ``nvidia/cuda`` tag: version, cuDNN, flavour (base/runtime/devel), OS and OS version
CUDA_TAG = re.compile(
    r"^(\d+\.\d+(?:\.\d+)?)(-cudnn(\d+(?:\.\d+)*)?)?(?:-(base|runtime|devel))?(?:-([a-z]+)(\d+(?:\.\d+)?))?"
)
#: a ``pytorch/pytorch`` CUDA tag: PyTorch, CUDA, cuDNN, flavour
PYTORCH_TAG = re.compile(r"^(\d+(?:\.\d+)*)-cuda(\d+\.\d+)(?:-cudnn(\d+))?(?:-(devel|runtime))?$")


def is_nvidia_image(ref: str) -> bool:
    repo = ref.split("@")[0].rsplit(":", 1)[0] if ":" in ref.split("/")[-1] else ref.split("@")[0]
    return repo in ("nvidia/cuda", "docker.io/nvidia/cuda") or repo.startswith(("nvcr.io/nvidia/", "nvidia/cudagl"))


def split_ref(ref: str) -> tuple[str, str]:
    last = ref.split("/")[-1]
    if ":" in last:
        repo, tag = ref.rsplit(":", 1)
        return repo, tag.split("@")[0]
    return ref.split("@")[0], "latest"
