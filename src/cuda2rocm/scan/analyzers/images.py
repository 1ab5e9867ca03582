"""Container image references: NVIDIA CUDA and NGC images and the versions their tags pin."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.project.images import CUDA_TAG, PYTORCH_TAG, is_nvidia_image, split_ref
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import Fact, Hit, Record

_NGC = re.compile(r"^nvcr\.io/nvidia/([\w.-]+)$")


class NgcStack(NamedTuple):
    """The NVIDIA stack inside one NGC container release (``scan/data/ngc_images.csv``)."""

    cuda: str
    cudnn: str
    nccl: str
    source: str  # the release-notes page and the date it was read


@functools.lru_cache(maxsize=1)
def ngc_table() -> dict[tuple[str, str], NgcStack]:
    """(image, release tag) -> the CUDA/cuDNN/NCCL releases inside it, from the bundled ``ngc_images.csv``."""
    rows = packaged_csv("cuda2rocm.scan", "data/ngc_images.csv")
    return {(r["image"], r["tag"]): NgcStack(r["cuda"], r["cudnn"], r["nccl"], f"{r['source']} ({r['checked']})")
            for r in rows}


def scan_image(ref: str, line: int, col: int) -> Iterator[Record]:
    """Inventory and flag one image reference."""
    ref = ref.strip().strip("\"'")
    repo, tag = split_ref(ref)
    m = PYTORCH_TAG.match(tag)
    if repo.removeprefix("docker.io/") == "pytorch/pytorch" and m is not None:
        yield from _pytorch_cuda_image(m, repo, tag, ref, line, col)
        return
    if repo.removeprefix("docker.io/") in ("rayproject/ray", "rayproject/ray-ml") and "-gpu" in tag:
        yield Fact("image", repo, tag, line, ref)  # Ray's -gpu tags are built on CUDA
        yield Hit(rules.D101, line, col, f"{ref} is a CUDA build of the Ray image; use a ROCm build instead")
        return
    if not is_nvidia_image(ref):
        cu = _CU_TAG.search(tag)
        if cu is not None:  # a project's own image built for CUDA: myorg/app:1.0-cu121
            version = f"{cu.group(1)[:-1]}.{cu.group(1)[-1]}"
            yield Fact("image", repo, tag, line, ref)
            yield Fact("cuda", "CUDA", version, line, ref)
        return
    yield Fact("image", repo, tag, line, ref)
    inside = ""
    if repo.endswith("nvidia/cuda"):
        yield from _cuda_tag(tag, line, ref)
    else:
        yield from _ngc(repo, tag, line, ref)
        known = ngc_table().get((repo, tag.split("-")[0]))
        if known is not None:
            stack = ", ".join(f"{n} {v}" for n, v in (("CUDA", known.cuda), ("cuDNN", known.cudnn),
                                                     ("NCCL", known.nccl)) if v)
            inside = f" ({stack} inside, per NVIDIA's release notes)"
    yield Hit(rules.D101, line, col, f"NVIDIA image {ref}{inside}; use a rocm/* image (e.g. rocm/pytorch) instead")


#: a CUDA build named in a tag: ``-cu121``, ``_cu118``, ``cu124-``: CUDA 12.1, 11.8, 12.4
_CU_TAG = re.compile(r"(?:^|[-_.])cu(\d{3})(?=$|[-_.])")

#: Docker Hub's pytorch/pytorch tags: 2.1.2-cuda12.1-cudnn8-devel, 1.0-cuda10.0-cudnn7-runtime


def _pytorch_cuda_image(m: re.Match[str], repo: str, tag: str, ref: str, line: int, col: int) -> Iterator[Record]:
    yield Fact("image", repo, tag, line, ref)
    yield Fact("framework", "PyTorch", m.group(1), line, ref)
    yield Fact("cuda", "CUDA", m.group(2), line, ref)
    if m.group(3):
        yield Fact("cudnn", "cuDNN", m.group(3), line, ref)
    yield Hit(rules.D101, line, col, f"CUDA build of the PyTorch image ({ref}); use rocm/pytorch instead")


def _cuda_tag(tag: str, line: int, ref: str) -> Iterator[Record]:
    m = CUDA_TAG.match(tag)
    if not m:
        return
    yield Fact("cuda", "CUDA", m.group(1), line, ref)
    if m.group(2):  # "-cudnn8" pins cuDNN 8; a bare "-cudnn" (CUDA 12.4+ tags) bundles the matching cuDNN
        yield Fact("cudnn", "cuDNN", m.group(3) or "", line, ref)
    if m.group(5):
        yield Fact("os", m.group(5), m.group(6) or "", line, ref)


def _ngc(repo: str, tag: str, line: int, ref: str) -> Iterator[Record]:
    framework = _NGC.match(repo)
    name = framework.group(1) if framework else repo
    release = tag.split("-")[0]
    if name == "driver":  # the GPU Operator's driver container: nvcr.io/nvidia/driver:550.54.15-ubuntu22.04
        yield Fact("driver", "NVIDIA driver", release, line, ref)
        return
    yield Fact("framework", f"NGC {name}", release, line, ref)
    known = ngc_table().get((repo, release))
    if known:
        for kind, name, version in (("cuda", "CUDA", known.cuda), ("cudnn", "cuDNN", known.cudnn),
                                    ("nccl", "NCCL", known.nccl)):
            if version:
                yield Fact(kind, name, version, line, f"{ref} (per {known.source})")
