"""What to do with one CUDA identifier under given options: emit a name, keep it, and which rule to report."""

from __future__ import annotations

import functools
from typing import NamedTuple

from cuda2rocm.lazyre import lazy
from cuda2rocm.mapping.entry import Entry
from cuda2rocm.mapping.table import roc_available, roc_versions
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.rules import Rule
from cuda2rocm.translate import data, rules, tables
from cuda2rocm.translate.options import Options


class Decision(NamedTuple):
    cuda: str
    replacement: str  # "" = keep the identifier
    library: str
    kind: str
    rule: Rule | None = None  # finding to report, if any
    message: str = ""
    drop_args: tuple[int, ...] = ()  # 0-based call arguments to remove (the lane mask of a *_sync fallback)

    @property
    def converted(self) -> bool:
        return bool(self.replacement) and self.replacement != self.cuda


class Settings(NamedTuple):
    """The part of :class:`Options` that decisions depend on (hashable, for caching)."""

    target: str
    roc: bool
    experimental: bool
    use_hip_data_types: bool

    @property
    def library_datatypes(self) -> bool:
        """hipBLAS's own data-type names (``HIPBLAS_R_32F``, ``library_datatypes.csv``) are emitted: no
        --use-hip-data-types, and a target before the release from which hipBLAS takes hipDataType."""
        return not self.use_hip_data_types and not _changed_by("cublas", "hipDataType", self.target)

    @property
    def compute_types(self) -> bool:
        """hipBLAS takes hipblasComputeType_t for GEMM compute types (from the hipDataType release, ROCm 6.0; before,
        the compute type is a hipblasDatatype_t like the data types)."""
        return _changed_by("cublas", "hipDataType", self.target)

    @classmethod
    def of(cls, options: Options) -> Settings:
        target = options.target_rocm or tables.newest_rocm()
        return cls(target, options.roc, options.experimental, options.use_hip_data_types)


@functools.lru_cache(maxsize=65536)
def decide(name: str, s: Settings) -> Decision | None:
    """None when ``name`` is not a CUDA identifier the tables know (memoised: files repeat names)."""
    entry = tables.lookup(name)
    if entry is None:
        return None
    lib, kind = entry.library, entry.kind
    if _is_experimental(entry) and not s.experimental:
        msg = f"{name} maps to experimental {_release_name(entry, s.target)}; kept (use --experimental to translate)"
        return Decision(name, "", lib, kind, rules.EXPERIMENTAL, msg)
    target_name, no_roc = _target_name(entry, s)
    if target_name and target_name == entry.roc and not roc_available(entry, s.target):
        return _roc_unavailable(entry, s)
    if target_name == entry.roc and name in data.roc_signatures():
        if entry.library in ROC_BY_DEFAULT:  # cuDNN: no hip* library takes CUDA's arguments, the call is kept
            msg = (f"{name}: {data.roc_signatures()[name]}; no argument rewrite is implemented, so the call is kept "
                   f"(rewrite it for {entry.roc} by hand)")
            return Decision(name, "", lib, kind, rules.ROC_SIGNATURE, msg)
        if s.roc:
            return _roc_signature(entry, s)
    if not target_name or (entry.support == "unsupported" and not _roc_only(entry, target_name, s)):
        return _unsupported_or_fallback(entry, s)
    if target_name == entry.hip and not entry.available_in(s.target):
        return _unavailable(entry, s)
    if target_name == entry.hip:
        target_name = _release_name(entry, s.target)
    if no_roc:
        return Decision(name, target_name, lib, kind, rules.NO_ROC, f"{name}: no roc* equivalent, using {target_name}")
    if _deprecated_in(entry, s.target):
        msg = f"{name} -> {target_name}, which is deprecated in ROCm {s.target}"
        return Decision(name, target_name, lib, kind, rules.DEPRECATED, msg)
    return Decision(name, target_name, lib, kind)


def _roc_unavailable(entry: Entry, s: Settings) -> Decision:
    """The roc* (or MIOpen) name arrived after, or was removed before, the target release: kept, C2R-A103."""
    _, added, removed = roc_versions()[entry.cuda]
    when = f"removed in ROCm {removed}" if removed is not None and parse_version(s.target) >= removed else (
        f"added in ROCm {added}")
    msg = f"{entry.cuda} -> {entry.roc} is not available in ROCm {s.target} ({when}); kept"
    return Decision(entry.cuda, "", entry.library, entry.kind, rules.NOT_AVAILABLE, msg)


def _roc_signature(entry: Entry, s: Settings) -> Decision:
    """--roc, but the roc* function takes other arguments than CUDA's (``roc_signatures.csv``): the decision
    without --roc (the hip* name, CUDA's argument list), reported as C2R-A120."""
    hip = decide(entry.cuda, s._replace(roc=False))
    replacement = hip.replacement if hip is not None else ""
    kept = f"written as {replacement}" if replacement else "kept"
    msg = (f"{entry.cuda}: {data.roc_signatures()[entry.cuda]}; no argument rewrite is implemented, so the call "
           f"is {kept} with CUDA's arguments (rewrite it for {entry.roc} by hand, or convert without --roc)")
    drop = hip.drop_args if hip is not None else ()
    return Decision(entry.cuda, replacement, entry.library, entry.kind, rules.ROC_SIGNATURE, msg, drop)


def _target_name(entry: Entry, s: Settings) -> tuple[str, bool]:
    """The name to emit and whether --roc had to fall back to the hip* name."""
    if s.library_datatypes and entry.cuda in data.library_datatypes():
        return data.library_datatypes()[entry.cuda], False
    if (s.roc or entry.library in ROC_BY_DEFAULT) and entry.roc:
        return entry.roc, False
    if s.roc and entry.hip and _has_roc_library(entry.library):
        return entry.hip, True
    return entry.hip, False


def _changed_by(library: str, change: str, target: str) -> bool:
    """Whether ``target`` is at or after the release that made ``change`` to ``library`` (library_releases.csv)."""
    since = data.library_releases().get((library, change))
    return since is not None and parse_version(target) >= since


_V2 = lazy(r"_v2(?=(_64)?$)")


def _release_name(entry: Entry, target: str) -> str:
    """The HIP name of ``entry`` as ``target`` spells it: hipBLAS's ``_v2`` functions took their plain names in
    ROCm 7.0 (``hipblasGemmEx_v2`` -> ``hipblasGemmEx``, ``hipblasCaxpy_v2_64`` -> ``hipblasCaxpy_64``)."""
    if _changed_by(entry.library, "drop_v2", target):
        return _V2().sub("", entry.hip)
    return entry.hip


def _roc_only(entry: Entry, target_name: str, s: Settings) -> bool:
    """--roc and a roc* type or function that has no hip* twin (``cusparseContext`` -> ``_rocsparse_handle``,
    ``cublasInit`` -> ``rocblas_initialize``): ``support`` is the hip* side, so it does not apply. Enum values
    stay reported: the tables pair some with a roc* value of another meaning (sliced ELL with ELL)."""
    return s.roc and bool(entry.roc) and target_name == entry.roc and entry.kind in ("type", "function")


#: Libraries whose only ROCm counterpart is the roc*/MIOpen one: cuDNN -> MIOpen (no hip* marshalling library).
ROC_BY_DEFAULT = frozenset({"cudnn"})
_ROC_LIBRARIES = frozenset({"cublas", "cusparse", "curand", "cufft", "cusolver"})


def _has_roc_library(library: str) -> bool:
    return library.lower().replace(" ", "") in _ROC_LIBRARIES


def _is_experimental(entry: Entry) -> bool:
    return entry.experimental or entry.support == "experimental"


def _deprecated_in(entry: Entry, target: str) -> bool:
    if entry.hip_deprecated is None:
        return entry.support == "deprecated"
    return entry.hip_deprecated <= parse_version(target)


def _unavailable(entry: Entry, s: Settings) -> Decision:
    fallback = _fallback(entry, s.target)
    if fallback is not None:
        return fallback
    header = data.helper_functions().get(entry.cuda)
    if header and entry.hip_added is not None and parse_version(s.target) < entry.hip_added:
        return Decision(entry.cuda, "", entry.library, entry.kind, rules.HELPER_HEADER,
                        f"{entry.cuda} -> {entry.hip} arrived in ROCm {entry.hip_added}; for ROCm {s.target} "
                        f"defined by {header}, inserted into this file")
    removed = entry.hip_removed
    when = f"removed in ROCm {removed}" if removed is not None else f"added in ROCm {entry.hip_added or '?'}"
    msg = f"{entry.cuda} -> {entry.hip} is not available in ROCm {s.target} ({when}); kept"
    return Decision(entry.cuda, "", entry.library, entry.kind, rules.NOT_AVAILABLE, msg)


def _unsupported_or_fallback(entry: Entry, s: Settings) -> Decision:
    fallback = _fallback(entry, s.target)
    if fallback is not None:
        return fallback
    header = data.helper_functions().get(entry.cuda)
    if header:  # defined by a header of ours that the helpers pass inserts
        return Decision(entry.cuda, "", entry.library, entry.kind, rules.HELPER_HEADER,
                        f"{entry.cuda} has no HIP equivalent; defined by {header}, inserted into this file")
    note = entry.note
    msg = f"{entry.cuda} has no HIP equivalent" + (f" ({note})" if note else "")
    return Decision(entry.cuda, "", entry.library, entry.kind, rules.UNSUPPORTED, msg)


def _fallback(entry: Entry, target: str) -> Decision | None:
    if not entry.fallback:
        return None
    name = entry.fallback
    dropped = ", ".join(str(a + 1) for a in entry.drop_args)
    what = f" without argument {dropped} (the lane mask): review it" if dropped else ""
    msg = f"{entry.cuda} is not available in ROCm {target}; emitted {name}{what}"
    return Decision(entry.cuda, name, entry.library, entry.kind, rules.FALLBACK, msg, entry.drop_args)
