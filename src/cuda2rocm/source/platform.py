"""Explicit platform switches: the parts of a file that hipcc never compiles for an AMD GPU.

A project that is already portable says so in its conditionals: ``#if defined(__CUDACC__) ... #elif
defined(__HIPCC__) ... #endif``, ``#ifdef __HIP_PLATFORM_AMD__ ... #else ... #endif``. Such a chain (one that
names a macro only HIP defines) is evaluated as hip-clang sees it on AMD: the HIP macros are defined, the
macros only nvcc or CUDA clang define are not, every other name is unknown. A branch is *CUDA-only* when it is
known not to be taken: a false condition, or any branch after one known to be taken.

Translation leaves the CUDA-only branches and the platform names in the switch's conditions as they are
(renaming ``__CUDACC__`` to ``__HIPCC__`` there would make the CUDA branch live and the project's own HIP
branch dead), and neither convert nor scan reports a hazard of the port inside them.

The facts (clang's InitPreprocessor and HIP's hip_common.h, read 2026-12-05): hip-clang defines ``__HIP__`` and
``__HIPCC__``, and ``__HIP_DEVICE_COMPILE__`` in the device pass only (so it is unknown here); hip_common.h
defines ``__HIP_PLATFORM_AMD__`` (``__HIP_PLATFORM_HCC__`` in older releases); ``__CUDA__``, ``__CUDACC__``,
``__NVCC__`` and ``__CUDA_ARCH__`` are not defined, nor ``__HIP_PLATFORM_NVIDIA__``/``__HIP_PLATFORM_NVCC__``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cuda2rocm.source.consteval import ONE, UNKNOWN, ZERO, evaluate, replace_defined
from cuda2rocm.source.directives import directives
from cuda2rocm.source.tokens import IDENT, NL, Token

#: defined when hipcc compiles for AMD
HIP_DEFINED = frozenset({"__HIP__", "__HIPCC__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"})
#: not defined when hipcc compiles for AMD (defined by nvcc, CUDA clang, or HIP on NVIDIA)
HIP_UNDEFINED = frozenset({"__CUDA__", "__CUDACC__", "__NVCC__", "__CUDA_ARCH__", "__CUDACC_RTC__",
                           "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__"})
_KNOWN = HIP_DEFINED | HIP_UNDEFINED
_OPEN = frozenset({"if", "ifdef", "ifndef"})
_NEXT = frozenset({"elif", "else", "elifdef", "elifndef"})
_ENV = {**{n: (ONE,) for n in HIP_DEFINED}, **{n: (ZERO,) for n in HIP_UNDEFINED}}


class Switches(NamedTuple):
    """``dead``: (start, end) offsets of the CUDA-only branches, from the end of the directive that opens the
    branch to the start of the directive that closes it. ``kept``: indexes of the platform names in the
    switches' conditions (translation must not rename them)."""

    dead: tuple[tuple[int, int], ...]
    kept: frozenset[int]


NONE = Switches((), frozenset())


class _Branch:
    __slots__ = ("cond", "end", "start")

    def __init__(self, start: int, cond: bool | None) -> None:
        self.start, self.end, self.cond = start, start, cond  # body offsets, the test's value under hip-clang


class _Chain:
    __slots__ = ("branches", "hip", "names")

    def __init__(self) -> None:
        self.branches: list[_Branch] = []
        self.names: list[int] = []  # platform names in the chain's conditions
        self.hip = False  # the chain names a macro only HIP defines


def switches(tokens: Sequence[Token], text: str | None = None) -> Switches:
    """The explicit platform switches of a file (see the module's doc). ``text``: the file's, when the caller
    has it (a file without ``__HIP`` in it has no switch; the tokens are then not looked at)."""
    if text is not None and "__HIP" not in text:
        return NONE
    if not any(t.kind == IDENT and t.pp and t.src in HIP_DEFINED for t in tokens):
        return NONE
    dead: list[tuple[int, int]] = []
    kept: set[int] = set()
    stack: list[_Chain] = []
    for d in directives(tokens):
        if d.word in _OPEN:
            stack.append(_Chain())
        elif (d.word not in _NEXT and d.word != "endif") or not stack:
            continue
        chain = stack[-1]
        if chain.branches:
            chain.branches[-1].end = tokens[d.hash_index].offset
        if d.word == "endif":
            stack.pop()
            if chain.hip:
                dead.extend(_dead(chain))
                kept.update(chain.names)
            continue
        names = [k for k in d.args if tokens[k].kind == IDENT and tokens[k].src in _KNOWN]
        chain.names.extend(names)
        chain.hip = chain.hip or any(tokens[k].src in HIP_DEFINED for k in names)
        chain.branches.append(_Branch(body_start(tokens, d.hash_index), _condition(tokens, d.word, d.args)))
    return Switches(tuple(sorted(dead)), frozenset(kept)) if dead or kept else NONE


def body_start(tokens: Sequence[Token], hash_index: int) -> int:
    """The offset just after the directive that holds token ``hash_index`` (its line break included): where the
    branch it opens begins (the ``#`` or any later token of the directive)."""
    j = hash_index
    while j + 1 < len(tokens) and tokens[j + 1].pp:
        j += 1
    if j + 1 < len(tokens) and tokens[j + 1].kind == NL:
        j += 1
    return tokens[j].end


def _dead(chain: _Chain) -> list[tuple[int, int]]:
    """The branches known not to be taken: a false condition, or any after one known to be taken."""
    out = []
    taken = False
    for b in chain.branches:
        if taken or b.cond is False:
            if b.end > b.start:
                out.append((b.start, b.end))
        elif b.cond is True:
            taken = True
    return out


def _condition(tokens: Sequence[Token], word: str, args: Sequence[int]) -> bool | None:
    """Whether a branch's test holds under hip-clang for AMD: True, False, or None (unknown)."""
    if word == "else":
        return True
    if word in ("ifdef", "ifndef", "elifdef", "elifndef"):
        name = tokens[args[0]].src if args else ""
        if name not in _KNOWN:
            return None
        return (name in HIP_DEFINED) != word.endswith("ndef")
    toks = replace_defined([tokens[k] for k in args],
                           lambda name: ONE if name in HIP_DEFINED else ZERO if name in HIP_UNDEFINED else UNKNOWN)
    value = evaluate(toks, _ENV)
    return None if value is None else value != 0
