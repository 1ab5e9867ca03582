"""Small data files owned by the translator (``translate/data/*.csv``), loaded once."""

from __future__ import annotations

import functools
from importlib import resources
from typing import NamedTuple

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.mapping.version import Version, optional_version, parse_version


def _rows(name: str) -> list[dict[str, str]]:
    return packaged_csv("cuda2rocm.translate", f"data/{name}")


@functools.lru_cache(maxsize=1)
def library_datatypes() -> dict[str, str]:
    """CUDA library data type -> hipBLAS-specific name (used unless --use-hip-data-types)."""
    return {row["cuda"]: row["hip_library"] for row in _rows("library_datatypes.csv")}


@functools.lru_cache(maxsize=1)
def library_releases() -> dict[tuple[str, str], Version]:
    """(CUDA library, change) -> the ROCm release that made the change (``library_releases.csv``)."""
    return {(row["cuda_library"], row["change"]): parse_version(row["rocm"]) for row in _rows("library_releases.csv")}


@functools.lru_cache(maxsize=1)
def compute_type_args() -> dict[str, tuple[int, dict[str, str]]]:
    """cuBLAS function -> (position of its compute type, {CUDA data type: the compute type it stands for})."""
    table: dict[str, tuple[int, dict[str, str]]] = {}
    for row in _rows("compute_type_args.csv"):
        table.setdefault(row["cuda"], (int(row["arg"]), {}))[1][row["datatype"]] = row["compute"]
    return table


@functools.lru_cache(maxsize=1)
def compute_datatypes() -> frozenset[str]:
    """The CUDA data types that stand for a compute type somewhere in ``compute_type_args.csv``."""
    return frozenset(d for _, table in compute_type_args().values() for d in table)


@functools.lru_cache(maxsize=1)
def roc_complex() -> dict[str, str]:
    """cuComplex name -> its rocBLAS spelling (--roc, in files that use cuBLAS)."""
    return {row["cuda"]: row["rocblas"] for row in _rows("roc_complex.csv")}


@functools.lru_cache(maxsize=1)
def roc_signatures() -> dict[str, str]:
    """CUDA function -> what its roc* counterpart needs in addition (mappings whose argument lists differ)."""
    return {row["cuda"]: (f"{row['roc']} takes {row['roc_args']} arguments, not {row['cuda_args']}: "
                          if row["roc_args"] != row["cuda_args"] else
                          f"{row['roc']} takes CUDA's {row['cuda_args']} arguments in another order: ")
            + row["difference"] for row in _rows("roc_signatures.csv")}


class HipSignature(NamedTuple):
    """A CUDA call form (``args`` arguments) whose HIP counterpart differs in ROCm releases [from_rocm, until_rocm)."""

    args: int
    from_rocm: Version | None
    until_rocm: Version | None
    hip: str  # the HIP function for this form; "" keeps the CUDA call (reported)
    append: str  # extra trailing arguments HIP takes
    note: str

    def applies(self, target: str) -> bool:
        version = parse_version(target)
        return ((self.from_rocm is None or self.from_rocm <= version)
                and (self.until_rocm is None or version < self.until_rocm))


@functools.lru_cache(maxsize=1)
def hip_signatures() -> dict[str, tuple[HipSignature, ...]]:
    """CUDA function -> its call forms whose HIP argument list differs per release (``hip_signatures.csv``)."""
    table: dict[str, list[HipSignature]] = {}
    for row in _rows("hip_signatures.csv"):
        table.setdefault(row["cuda"], []).append(HipSignature(
            int(row["args"]), optional_version(row["from_rocm"]), optional_version(row["until_rocm"]), row["hip"],
            row["append"], row["note"]))
    return {name: tuple(forms) for name, forms in table.items()}


def hip_signature(name: str, args: int, target: str) -> HipSignature | None:
    """The row for a call of ``name`` with ``args`` arguments when translating for ``target``."""
    return next((f for f in hip_signatures().get(name, ()) if f.args == args and f.applies(target)), None)


@functools.lru_cache(maxsize=1)
def defined_only() -> dict[str, str]:
    """CUDA macro -> what its value means, for macros translated only in definedness tests (C2R-A110)."""
    return {row["cuda"]: row["meaning"] for row in _rows("defined_only.csv")}


@functools.lru_cache(maxsize=1)
def default_args() -> dict[str, tuple[int, tuple[str, ...]]]:
    """CUDA function -> (HIP arity, HIP texts of the defaults of its last parameters)."""
    return {row["cuda"]: (int(row["arity"]), tuple(row["defaults"].split("|"))) for row in _rows("default_args.csv")}


@functools.lru_cache(maxsize=1)
def call_context() -> dict[str, dict[str, str]]:
    """CUDA name -> {library prefix of the enclosing call: the HIP name to emit there}."""
    table: dict[str, dict[str, str]] = {}
    for row in _rows("call_context.csv"):
        table.setdefault(row["cuda"], {})[row["within"]] = row["hip"]
    return table


#: calls whose library data-type arguments are HIP's hipDataType values, not hipBLAS's
HIP_DATATYPE_CALLS = ("cusparse", "cufft", "cusolver", "cutensor", "hipsparse", "hipfft", "hipsolver")


@functools.lru_cache(maxsize=1)
def void_pointer_args() -> dict[str, int]:
    """CUDA function -> the position of the pointer-to-pointer argument HIP types only as ``void**``."""
    return {row["cuda"]: int(row["arg"]) for row in _rows("void_pointer_args.csv")}


@functools.lru_cache(maxsize=1)
def kernel_args() -> dict[str, int]:
    """CUDA function -> the position of the kernel argument HIP types as ``const void*``."""
    return {row["cuda"]: int(row["arg"]) for row in _rows("kernel_args.csv")}


@functools.lru_cache(maxsize=1)
def symbol_args() -> dict[str, tuple[int, bool]]:
    """CUDA function -> (the position of its device-symbol argument, whether HIP overloads it for ``const T&``)."""
    return {row["cuda"]: (int(row["arg"]), row["hip_template"] == "yes") for row in _rows("symbol_args.csv")}


@functools.lru_cache(maxsize=1)
def call_fixups() -> frozenset[str]:
    """Every CUDA function one of the call tables above names: the identifier pass looks a call up in them
    only when its name is here (one set lookup for the many names none of them has)."""
    return frozenset().union(hip_signatures(), default_args(), kernel_args(), void_pointer_args(), symbol_args())


@functools.lru_cache(maxsize=1)
def in_call_names() -> frozenset[str]:
    """Every CUDA name whose HIP name depends on the call it is an argument of (data types, call contexts)."""
    return frozenset().union(library_datatypes(), call_context(), compute_datatypes())


#: the helper header whose text is made from ``math_constants.csv``, with the constants a file uses
MATH_CONSTANTS_HEADER = "cuda2rocm_math_constants.h"


@functools.lru_cache(maxsize=1)
def helper_functions() -> dict[str, str]:
    """CUDA device function (or math constant) HIP lacks -> the header of ours (``data/headers/``) that defines it."""
    table = {row["cuda"]: row["header"] for row in _rows("helper_functions.csv")}
    table.update(dict.fromkeys(math_constants(), MATH_CONSTANTS_HEADER))
    return table


@functools.lru_cache(maxsize=8)
def helper_header(name: str) -> str:
    """The text of one of our helper headers."""
    return resources.files("cuda2rocm.translate").joinpath("data").joinpath("headers").joinpath(name).read_text(
        encoding="utf-8")


@functools.lru_cache(maxsize=1)
def math_constants() -> dict[str, str]:
    """CUDA math constant (``CUDART_PI_F``) -> its value as a C literal (``math_constants.csv``)."""
    return {row["cuda"]: row["value"] for row in _rows("math_constants.csv")}


class HeaderNames(NamedTuple):
    """The names one CUDA header declares: exact ones, prefixes (``nvml*``) and suffixes (``*_params``)."""

    exact: frozenset[str]
    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]

    def declares(self, name: str) -> bool:
        return name in self.exact or name.startswith(self.prefixes) or name.endswith(self.suffixes)


@functools.lru_cache(maxsize=1)
def header_names() -> dict[str, HeaderNames]:
    """CUDA header without a HIP counterpart in some release -> the names it declares (``header_names.csv``)."""
    found: dict[str, tuple[set[str], list[str], list[str]]] = {}
    for row in _rows("header_names.csv"):
        exact, prefixes, suffixes = found.setdefault(row["header"], (set(), [], []))
        name = row["name"]
        if name.endswith("*"):
            prefixes.append(name[:-1])
        elif name.startswith("*"):
            suffixes.append(name[1:])
        else:
            exact.add(name)
    return {h: HeaderNames(frozenset(e), tuple(p), tuple(s)) for h, (e, p, s) in found.items()}


@functools.lru_cache(maxsize=1)
def version_values() -> dict[str, str]:
    """CUDA version macro -> the value a translated file that compares it gets under hipcc (``defined_only.csv``'s
    ``hip_value``: that of the CUDA release the mapping tables reach); architecture macros have none."""
    return {row["cuda"]: row["hip_value"] for row in _rows("defined_only.csv") if row["hip_value"]}


@functools.lru_cache(maxsize=1)
def vector_types() -> frozenset[str]:
    """CUDA's built-in vector types (``float4``, ``int2``, ...)."""
    return frozenset(row["type"] for row in _rows("vector_types.csv"))


@functools.lru_cache(maxsize=1)
def vector_member_operators() -> frozenset[str]:
    """Operators HIP's vector types define as non-template members for their own type (``+=``, ...)."""
    return frozenset(row["operator"] for row in _rows("vector_operators.csv"))
