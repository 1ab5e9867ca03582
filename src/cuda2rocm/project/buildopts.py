"""Build facts of the whole project: the CMake options that select the GPU platform, and where they are declared.

A project's own switch (``option(PROJ_USE_CUDA "..." ON)``, or a cache string with a list of platforms,
``set(GPU_BACKEND CUDA CACHE STRING "")`` with ``set_property(CACHE GPU_BACKEND PROPERTY STRINGS CUDA HIP)``) is
declared in one listfile and set in another file entirely: a Dockerfile's ``RUN cmake -DPROJ_USE_CUDA=ON``, a CI
step, a build script. :func:`gpu_options` reads the listfiles once (the lossless CMake reader, never a pattern over
the text) and gives ``migrate deploy`` what it needs to rewrite those command lines: the option, the platform it
selects, and the project's HIP counterpart when there is one (``PROJ_USE_HIP``, ``PROJ_USE_ROCM``, or the ``HIP``
value of a platform list)::

    facts = gpu_options([("CMakeLists.txt", read_cmake(text))])
    facts.get("PROJ_USE_CUDA").counterpart      # "PROJ_USE_HIP" when the project declares it

:func:`cmake_settings` is the one decision about a ``cmake`` command line's ``-D`` settings, shared by ``scan``
(C2R-D110, which reports them) and ``migrate deploy`` (C2R-M113, which rewrites them): the project's GPU options,
and the CMake variables that name CUDA (``CMAKE_CUDA_ARCHITECTURES``, ``CMAKE_CUDA_COMPILER``, ...:
``data/cmake_variables.csv``, the table ``migrate build`` rewrites listfiles with, in its default language style).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.source.formats.cmake import CMakeFile

#: words of an option name that name a platform (the name split at "_")
CUDA_WORDS = frozenset({"CUDA", "NVIDIA", "NVCC", "CUBLAS", "CUDNN"})
HIP_WORDS = frozenset({"HIP", "ROCM", "AMD", "AMDGPU"})
#: the values of a platform-list cache string, by platform
CUDA_VALUES = frozenset({"CUDA", "NVIDIA", "cuda", "nvidia", "Cuda"})
HIP_VALUES = frozenset({"HIP", "ROCM", "ROCm", "AMD", "hip", "rocm", "amd", "Hip"})
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Za-z][a-z]*|\d+")


@dataclass(frozen=True)
class GpuOption:
    """One option of the project that selects a GPU platform. ``kind``: ``bool`` (``option()`` or a BOOL cache
    entry; ``platform`` is the one it turns on) or ``choice`` (a cache string; ``choices`` its listed values,
    ``platform`` "" because the value decides); ``counterpart``: the project's HIP option for a CUDA one (bool),
    or the HIP value of a choice ("" when the project has none); ``path``/``line``: where it is declared."""

    name: str
    kind: str
    platform: str
    counterpart: str
    choices: tuple[str, ...]
    path: str
    line: int


@dataclass(frozen=True)
class BuildFacts:
    """The GPU-selecting options of the project's listfiles (empty when it has none or no CMake)."""

    options: tuple[GpuOption, ...] = ()

    def get(self, name: str) -> GpuOption | None:
        return next((o for o in self.options if o.name == name), None)


def name_platform(name: str) -> str:
    """``cuda`` or ``hip`` when the words of an option name name one platform (``USE_CUDA``, ``WITH_ROCM``,
    ``ggmlUseHip``), else ""."""
    words = {w.upper() for w in _WORD.findall(name)} | set(name.upper().split("_"))
    cuda, hip = bool(words & CUDA_WORDS), bool(words & HIP_WORDS)
    return "cuda" if cuda and not hip else "hip" if hip and not cuda else ""


def _counterparts(name: str) -> list[str]:
    """The HIP spellings of a CUDA option's name, most likely first (``USE_CUDA`` -> ``USE_HIP``, ``USE_ROCM``)."""
    out = []
    for cuda in ("CUDA", "Cuda", "cuda", "NVIDIA", "nvidia"):
        if cuda in name:
            for hip in ("HIP", "ROCM", "ROCm", "AMD") if cuda.isupper() else ("Hip", "Rocm", "hip", "rocm"):
                out.append(name.replace(cuda, hip))
    return out


def gpu_options(files: Iterable[tuple[str, CMakeFile]]) -> BuildFacts:
    """The options of the listfiles (``(path, file)`` pairs) that select a GPU platform."""
    declared: dict[str, tuple[str, str, int]] = {}  # name -> (kind, path, line), first declaration
    strings: dict[str, tuple[str, ...]] = {}
    for path, doc in files:
        for cmd in doc.commands:
            values = cmd.values()
            if cmd.lower == "option" and values:
                declared.setdefault(values[0], ("bool", path, cmd.line))
            elif cmd.lower == "set" and "CACHE" in values and len(values) > values.index("CACHE") + 1:
                kind = values[values.index("CACHE") + 1].upper()
                if kind in ("BOOL", "STRING"):
                    declared.setdefault(values[0], ("bool" if kind == "BOOL" else "choice", path, cmd.line))
                    if kind == "STRING" and values.index("CACHE") == 2:
                        strings.setdefault(values[0], (values[1],))
            elif (cmd.lower == "set_property" and len(values) >= 4 and values[0] == "CACHE"
                  and "STRINGS" in values):
                strings[values[1]] = tuple(values[values.index("STRINGS") + 1:])
    out = []
    for name, (kind, path, line) in declared.items():
        if kind == "choice":
            choices = strings.get(name, ())
            hip = next((c for c in choices if c in HIP_VALUES), "")
            if any(c in CUDA_VALUES for c in choices):
                out.append(GpuOption(name, "choice", "", hip, choices, path, line))
            continue
        platform = name_platform(name)
        if not platform:
            continue
        counterpart = next((c for c in _counterparts(name) if c in declared), "") if platform == "cuda" else ""
        out.append(GpuOption(name, "bool", platform, counterpart, (), path, line))
    return BuildFacts(tuple(out))


# ---- the CMake variables that name CUDA -----------------------------------------------------------------------

@dataclass(frozen=True)
class CMakeVariable:
    """One row of ``data/cmake_variables.csv``: a CUDA variable or property and its HIP counterpart per build
    style (``language``: CMake's HIP language; ``package``: ``find_package(hip)``)."""

    cuda: str
    kind: str
    language: str
    package: str
    note: str

    def hip(self, style: str) -> str:
        return self.language if style == "language" else self.package


@functools.lru_cache(maxsize=1)
def cmake_variables() -> dict[str, CMakeVariable]:
    return {r["cuda"]: CMakeVariable(**r) for r in packaged_csv("cuda2rocm.project", "data/cmake_variables.csv")}


# ---- cmake command lines ----------------------------------------------------------------------------------------

ON = frozenset({"ON", "TRUE", "YES", "Y", "1"})


class CMakeSetting(NamedTuple):
    """One ``-D`` setting of a cmake command line that keeps the build on CUDA. ``first``/``last``: the indexes of
    its words (``-DNAME=V`` is one word, ``-D NAME=V`` two); ``words``: the command words that replace them (as
    the shell passes them, unquoted), ``()`` when the setting just goes, None when nothing safe can be written
    (``why`` says what to do); ``why``: the message, naming the fact and where it comes from."""

    first: int
    last: int
    name: str
    value: str
    words: tuple[str, ...] | None
    why: str


def is_cmake_configure(values: Sequence[str]) -> bool:
    """Whether a command's words (wrappers stripped) configure a CMake build (not ``cmake --build/--install``)."""
    return bool(values) and values[0].rsplit("/", 1)[-1] in ("cmake", "cmake3") and not (
        len(values) > 1 and values[1] in ("--build", "--install", "-E", "-P"))


def _definitions(values: Sequence[str]) -> Iterator[tuple[int, int, str, str]]:
    """(first word, last word, name, value) of each ``-D`` of a cmake command line."""
    i = 1
    while i < len(values):
        v = values[i]
        first = i
        if v == "-D" and i + 1 < len(values):
            i += 1
            v = "-D" + values[i]
        if v.startswith("-D") and "=" in v:
            name, _, value = v[2:].partition("=")
            yield first, i, name.partition(":")[0], value
        i += 1


def cmake_settings(values: Sequence[str], facts: BuildFacts, gfx: Sequence[str]) -> list[CMakeSetting]:
    """The ``-D`` settings of one cmake command line (its words' values, the program first) that select or
    configure CUDA, each with the decision for an AMD build of targets ``gfx``."""
    if not is_cmake_configure(values):
        return []
    out = []
    for first, last, name, value in _definitions(values):
        option = facts.get(name)
        if option is not None:
            decided = _option_setting(option, value)
            if decided is not None:
                out.append(CMakeSetting(first, last, name, value, *decided))
            continue
        var = cmake_variables().get(name)
        if var is not None and var.kind != "property":
            out.append(CMakeSetting(first, last, name, value, *_variable_setting(var, value, gfx)))
    return out


def _option_setting(option: GpuOption, value: str) -> tuple[tuple[str, ...] | None, str] | None:
    where = f"{option.path}:{option.line}"
    name = option.name
    if option.kind == "bool" and option.platform == "cuda" and value.upper() in ON:
        if option.counterpart:
            return ((f"-D{name}=OFF", f"-D{option.counterpart}=ON"),
                    f"{name} (declared at {where}) selects CUDA; the project's HIP option is {option.counterpart}")
        return None, (f"{name} (declared at {where}) selects CUDA and the project declares no HIP option: after "
                      "migrate build the branch it selects builds for HIP; rename the option, or give the project a "
                      "HIP switch")
    if option.kind == "choice" and value in CUDA_VALUES:
        values = ", ".join(option.choices) or "no values listed"
        if option.counterpart:
            return ((f"-D{name}={option.counterpart}",),
                    f"{name}={value} (declared at {where}, values {values}) selects CUDA; {option.counterpart} "
                    "selects HIP")
        return None, f"{name}={value} (declared at {where}) selects CUDA and lists no HIP value ({values})"
    return None


def _variable_setting(var: CMakeVariable, value: str, gfx: Sequence[str]) -> tuple[tuple[str, ...] | None, str]:
    name, hip = var.cuda, var.hip("language")
    if name == "CMAKE_CUDA_ARCHITECTURES":
        targets = ";".join(gfx)
        return ((f"-D{hip}={targets}",),
                f"-D{name}={value}: NVIDIA compute capabilities; the AMD build's targets are {hip}={targets}")
    if name == "CMAKE_CUDA_COMPILER" or not hip:
        why = "CMake finds ROCm's clang++ for the HIP language itself" if hip else (var.note or "no HIP counterpart")
        return (), f"-D{name}={value}: {why}; the setting goes"
    if var.kind == "result":
        return None, (f"-D{name}={value} points CMake at the CUDA toolkit: the AMD build finds ROCm through {hip} "
                      "(or CMAKE_PREFIX_PATH=/opt/rocm)")
    note = f" ({var.note})" if var.note else ""
    return (f"-D{hip}={value}",), f"-D{name}: the HIP build reads {hip}{note}"


# ---- the facts of the run ---------------------------------------------------------------------------------------

_installed = BuildFacts()


def install(facts: BuildFacts | None) -> None:
    """Make ``facts`` the build facts this process's analyses read (a pool initializer calls it)."""
    global _installed
    _installed = facts or BuildFacts()


def installed() -> BuildFacts:
    return _installed


@contextmanager
def using(facts: BuildFacts | None) -> Iterator[None]:
    """``facts`` installed for the block, the previous ones back after it."""
    before = _installed
    install(facts)
    try:
        yield
    finally:
        install(before)
