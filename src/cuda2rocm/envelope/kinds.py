"""The kinds of result an envelope carries: name -> payload type and payload schema version.

Adding a command's result is one :func:`kind` line here, its payload type a dataclass in :mod:`cuda2rocm.results`
(which imports no engine and no torch). The payload type is imported only when a payload of that kind is made or
decoded (``import cuda2rocm.envelope`` stays cheap). Bump a kind's ``version`` when its payload shape changes
incompatibly; envelopes with another version load as ``stale``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple

from cuda2rocm.envelope.codec import DecodeError


class Kind(NamedTuple):
    name: str
    schema: str | Callable[[], str]  # payload schema version, or the function reading it where it is defined
    type_ref: str  # "module:Name" of the payload type
    description: str
    check: Callable[[Any], None] | None = None  # extra validation of the decoded payload (raises DecodeError)

    @property
    def version(self) -> str:
        """The payload schema version."""
        return self.schema() if callable(self.schema) else self.schema

    def payload_type(self) -> Any:
        module, _, name = self.type_ref.partition(":")
        target: Any = importlib.import_module(module)
        for part in name.split("."):
            target = getattr(target, part)
        return target


KINDS: dict[str, Kind] = {}


def kind(name: str, version: str | Callable[[], str], type_ref: str, description: str,
         check: Callable[[Any], None] | None = None) -> Kind:
    KINDS[name] = k = Kind(name, version, type_ref, description, check)
    return k


def get(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown result kind {name!r}; known kinds: {', '.join(sorted(KINDS))}") from None


def _fingerprint(value: Any) -> None:
    from cuda2rocm.envinfo.fingerprint import SCHEMA

    if value.get("schema") != SCHEMA:
        raise DecodeError("$.schema", f"not a cuda2rocm fingerprint (expected {SCHEMA!r})")


def _scan_version() -> str:
    from cuda2rocm.results.scan import SCHEMA_VERSION

    return SCHEMA_VERSION


kind("scan", _scan_version, "cuda2rocm.results.scan:ScanResult", "cuda2rocm scan: the whole ScanResult")
kind("convert", "1", "cuda2rocm.results.translate:ConvertSummary",
     "cuda2rocm convert: per-file outcome, statistics, findings and output hashes")
kind("verify", "1", "cuda2rocm.results.translate:VerifySummary", "cuda2rocm verify: hipcc target, units compiled")
kind("env", "cuda2rocm.env/1", "builtins:dict", "cuda2rocm env: the machine fingerprint", _fingerprint)
kind("compare", "1", "cuda2rocm.results.regress:Outcome", "cuda2rocm compare: tensors, curves or metrics")
kind("bench-compare", "1", "cuda2rocm.results.perf:Report", "cuda2rocm bench compare / comm --compare")
kind("bench-run", "1", "builtins:list", "cuda2rocm bench run|service|soak: the JSONL metric records")
kind("comm", "1", "cuda2rocm.results.perf:CommRun", "cuda2rocm comm: the run header and one record per size")
kind("compat", "1", "cuda2rocm.results.compat:CompatReport",
     "cuda2rocm compat: the query, the ROCm release checked, one verdict per pair, the recommendation")
kind("capture", "1", "cuda2rocm.results.regress:Manifest",
     "cuda2rocm capture: the capture's manifest (tensors, device, dtype, fingerprint); the files as artifacts")
kind("smoke", "1", "cuda2rocm.results.regress:SmokeReport", "cuda2rocm smoke: fallbacks, backends, abnormal inputs")
kind("migrate-build", "1", "cuda2rocm.results.migrate:MigrationSummary",
     "cuda2rocm migrate build: per-file outcome, edits, findings, added files and options")
kind("migrate-deploy", "1", "cuda2rocm.results.migrate:MigrationSummary",
     "cuda2rocm migrate deploy: per-file outcome, edits, findings, added files and options")
