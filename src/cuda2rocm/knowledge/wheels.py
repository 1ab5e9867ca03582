"""PyTorch's ROCm wheel indexes (``knowledge/data/torch_wheels.yaml``): which torch releases each
``https://download.pytorch.org/whl/rocmX.Y`` index carries, and the torchvision/torchaudio releases that go with
each torch release. ``migrate build`` rewrites Python dependencies with it::

    from cuda2rocm.knowledge import wheels
    wheels.index_for("6.4.1").index.rocm   # "6.4": the series' index
    wheels.index_for("7.2").exact          # False: no index for 7.2, the nearest (7.1) stands in
    wheels.newest().url              # https://download.pytorch.org/whl/rocm7.1
    wheels.companions("2.8.0")       # ('0.23.0', '2.8.0')
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cuda2rocm.knowledge import versions
from cuda2rocm.knowledge._load import packaged

FILE = "torch_wheels.yaml"

#: the one recogniser of PyTorch's wheel indexes and of CUDA builds' version labels (requirements files, pip
#: command lines in Dockerfiles, CI and scripts): group 1 ``cu121``, group 2 ``121``
CUDA_INDEX = re.compile(r"download\.pytorch\.org/whl/(?:nightly/|test/)?(cu(\d{2,3}))(?![\w.])")
#: group 1: the ROCm release the index names (``6.4``)
ROCM_INDEX = re.compile(r"download\.pytorch\.org/whl/(?:nightly/|test/)?rocm(\d+(?:\.\d+)*)")
#: a CUDA build's local version label inside a local version (``cu121``, ``pt21cu118``, ``cuda12``)
CUDA_LOCAL = re.compile(r"cu(?:da)?\d{2,3}")
#: a CUDA local version in a pip requirement word (``torch==2.1.2+cu121``; group 1 ``121``)
CUDA_LOCAL_TAG = re.compile(r"\+cu(\d{2,3})(?![\w.])")


@dataclass(frozen=True)
class WheelIndex:
    """One ROCm wheel index of PyTorch: ``rocm`` as the index names it (``6.2.4``), its torch releases."""

    rocm: str
    torch: tuple[str, ...]
    url: str
    local_tag: str  # ``+rocm6.4``
    unverified: tuple[str, ...] = ()
    source: str = ""
    date: str = ""


@dataclass(frozen=True)
class IndexChoice:
    """The index for a target ROCm: ``exact`` when the target (or its series) has one, else the nearest."""

    index: WheelIndex
    target: str
    exact: bool


@functools.lru_cache(maxsize=1)
def indexes() -> tuple[WheelIndex, ...]:
    """Every index, newest ROCm first."""
    data = packaged(FILE)
    meta = data.get("meta") or {}
    pattern, tag = str(meta["url_pattern"]), str(meta["local_tag"])
    out = []
    for rocm, raw in (data.get("indexes") or {}).items():
        rocm = str(rocm)
        out.append(WheelIndex(rocm, tuple(versions.newest_first(str(v) for v in raw["torch"])),
                              pattern.format(version=rocm), tag.format(version=rocm),
                              tuple(str(v) for v in raw.get("unverified_torch") or ()), str(meta.get("source", "")),
                              str(meta.get("date", ""))))
    return tuple(sorted(out, key=lambda i: versions.key(i.rocm), reverse=True))


def newest() -> WheelIndex:
    """The newest ROCm with a torch wheel index (the default target of ``migrate build``)."""
    return indexes()[0]


def get(rocm: str) -> WheelIndex | None:
    return next((i for i in indexes() if i.rocm == rocm), None)


def index_for(target: str) -> IndexChoice:
    """The index for ROCm ``target``: its own (``6.2.4``), its series' (``6.4.1`` -> ``6.4``), else the nearest:
    the newest index below the target, or the oldest above it when the target is older than every index."""
    own = get(target)
    if own is not None:
        return IndexChoice(own, target, True)
    want = versions.key(target)
    series = [i for i in indexes() if versions.key(i.rocm)[:2] == want[:2] and len(want) > 2]
    if series:  # the newest of the series not above the target, else the series' oldest
        fits = [i for i in series if versions.key(i.rocm) <= want]
        return IndexChoice(fits[0] if fits else series[-1], target, True)
    below = [i for i in indexes() if versions.key(i.rocm) < want]
    return IndexChoice(below[0] if below else indexes()[-1], target, False)


@functools.lru_cache(maxsize=1)
def _companions() -> dict[str, tuple[str, str]]:
    raw = packaged(FILE).get("companions") or {}
    return {str(k): (str(v[0]), str(v[1])) for k, v in raw.items()}


def companions(torch: str) -> tuple[str, str] | None:
    """(torchvision, torchaudio) released with ``torch`` (``None`` when the table does not know it)."""
    return _companions().get(torch)


def torch_for(package: str, version: str) -> str | None:
    """The torch release a torchvision or torchaudio release goes with (the newest when several share it)."""
    col = 0 if package == "torchvision" else 1
    hits = [t for t, pair in _companions().items() if pair[col] == version]
    return versions.newest_first(hits)[0] if hits else None


def nearest_torch(index: WheelIndex, wanted: str) -> str:
    """``wanted`` when ``index`` carries it; else the oldest release it carries that is newer, else its newest."""
    if wanted in index.torch:
        return wanted
    key = versions.key(wanted)
    newer = [v for v in index.torch if versions.key(v) > key]
    return min(newer, key=versions.key) if newer else index.torch[0]
