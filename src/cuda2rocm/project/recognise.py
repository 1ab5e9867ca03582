"""One recogniser per project fact that more than one command decides: ``scan`` reports what ``migrate`` then
changes, so both ask the same function.

- :func:`nvidia_runner`: whether CI runner labels select an NVIDIA GPU machine (table
  ``data/gpu_runner_words.csv``), read by ``scan`` (C2R-D107) and ``migrate deploy`` (the ROCm job it adds).
- :func:`nccl_class`: how RCCL treats an ``NCCL_*`` variable (table ``data/nccl_classes.csv``, then the
  knowledge base), read by ``scan`` (C2R-D103) and ``migrate deploy`` (``environment.env_change``).
- :func:`is_hip_code`: whether C/C++ code is HIP already, read by ``scan`` (the file is not a port) and
  ``convert`` (the file is left as it is).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cuda2rocm import knowledge
from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.lazyre import lazy
from cuda2rocm.source.directives import include_operands
from cuda2rocm.source.tokens import ESCNL, IDENT, NL, WS, Token

_WORD = lazy(r"[A-Za-z0-9]+")
_HIP_API = lazy(r"hip[A-Z]\w*")
_SPACE = frozenset({WS, NL, ESCNL})

#: NCCL classes (``data/nccl_classes.csv``)
HONOURED, RETUNE, FABRIC, NVLINK, PYTORCH, UNKNOWN = "honoured", "retune", "fabric", "nvlink", "pytorch", "unknown"


@functools.cache
def _runner_words() -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    rows = packaged_csv("cuda2rocm.project", "data/gpu_runner_words.csv")
    words = {r["word"]: r["kind"] for r in rows if r["match"] == "word"}
    prefixes = tuple((r["word"], r["kind"]) for r in rows if r["match"] == "prefix")
    return words, prefixes


def _kind(word: str) -> str | None:
    words, prefixes = _runner_words()
    return words.get(word) or next((kind for p, kind in prefixes if word.startswith(p)), None)


#: variables that hold the CUDA toolkit's location; ROCm's is ``ROCM_PATH``. Scan reports them as such
#: (C2R-D108) and migrate (Makefiles, Dockerfiles) moves them to ROCM_PATH
CUDA_PATH_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_DIR", "CUDA_TOOLKIT_ROOT_DIR", "CUDA_INSTALL_PATH",
                       "CUDATOOLKIT_HOME", "CUDA_TOOLKIT_PATH")


def nvidia_runner(labels: Iterable[object]) -> str | None:
    """The label word that selects an NVIDIA GPU runner (``a100`` of ``[self-hosted, linux, a100]``), or None:
    no word of the table, or a word that selects an AMD machine (``rocm``, ``mi300x``) is there too. An
    expression (``${{ matrix.runner }}``) has no words of its own to judge and is None."""
    found: str | None = None
    for label in labels:
        text = str(label)
        if "$" in text:  # ${{ ... }}, $VAR
            continue
        for word in _WORD().findall(text.lower()):
            kind = _kind(word)
            if kind == "amd":
                return None
            if kind == "nvidia" and found is None:
                found = word
    return found


def is_hip_code(tokens: Sequence[Token], text: str | None = None) -> bool:
    """Whether the code (never its comments or strings) is HIP already: an ``#include`` of a ``hip/`` header,
    ``hipLaunchKernelGGL``, or a call of a ``hip*`` API (``hipMalloc (``). ``text``: the tokens' text, when the
    caller has it (a text without "hip" answers at once)."""
    if text is not None and "hip" not in text:
        return False
    if any(tokens[j].src[1:].startswith("hip/") for j in include_operands(tokens)):
        return True
    n = len(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind != IDENT or not tok.src.startswith("hip"):
            continue
        if tok.src == "hipLaunchKernelGGL":
            return True
        if _HIP_API().fullmatch(tok.src):
            j = i + 1
            while j < n and tokens[j].kind in _SPACE:
                j += 1
            if j < n and tokens[j].src == "(":
                return True
    return False


class NcclClass(NamedTuple):  # a NamedTuple: convert imports this module (is_hip_code) and defines no dataclass
    name: str  # a variable or a prefix ending in '*'
    klass: str
    suggest: tuple[str, ...]
    note: str


@functools.lru_cache(maxsize=1)
def nccl_classes() -> dict[str, NcclClass]:
    """The NCCL classification table, by name or ``PREFIX*``."""
    return {r["name"]: NcclClass(r["name"], r["class"], tuple(filter(None, r["suggest"].split("|"))), r["note"])
            for r in packaged_csv("cuda2rocm.project", "data/nccl_classes.csv")}


def is_nccl(name: str) -> bool:
    return name.startswith(("NCCL_", "TORCH_NCCL_"))


def nccl_class(name: str) -> NcclClass:
    """How RCCL treats ``name``: the table's exact row, else its longest matching prefix, else the knowledge base
    (no_effect -> nvlink, honored -> honoured), else unknown."""
    table = nccl_classes()
    if name in table:
        return table[name]
    prefixes = [k for k in table if k.endswith("*") and name.startswith(k[:-1])]
    if prefixes:
        return table[max(prefixes, key=len)]
    var = knowledge.get_env_var(name)
    if var is not None and var.status == "no_effect":
        return NcclClass(name, NVLINK, (), var.note)
    if var is not None and var.status in ("honored", "alias"):
        return NcclClass(name, HONOURED, (), "")
    return NcclClass(name, UNKNOWN, (), "")
