"""Resolve package and import references against the knowledge base's plugin facts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from cuda2rocm.model import Finding
from cuda2rocm.results import PluginUse
from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers.packages import NVIDIA_WHEEL, NVML_PACKAGES
from cuda2rocm.scan.filefacts import FileFacts, PluginRef
from cuda2rocm.scan.rules import emit

_RULE = {"none": rules.S201, "deprecated_project": rules.S201, "native_upstream": rules.S203,
         "native_amd": rules.S203}
#: packages whose risks other rules already report (NVML bindings, the frameworks themselves)
_NOT_PLUGINS = frozenset({"pynvml", "torch", "pytorch", "numpy"})
#: imports that are not a CUDA dependency (Triton kernels compile for AMD GPUs); their pins still count
_QUIET_IMPORTS = frozenset({"triton"})


#: requirement names that say "CUDA only" (the CUDA library wheels nvidia-*-cu12 are reported as S102)
_CUDA_NAMED = re.compile(r"^nvidia-|cuda|cutlass|tensorrt|cudnn|-cu1\d\b|^cupy-")


def _get_plugin(name: str) -> Any:
    from cuda2rocm import knowledge

    return knowledge.get_plugin(name)


def resolve(reports: Iterable[FileFacts]) -> tuple[list[PluginUse], list[Finding]]:
    """One :class:`PluginUse` per plugin (its first declaration, requirements preferred) and a finding at
    every place a plugin is declared or imported."""
    reports = list(reports)
    own = local_packages(r.path for r in reports)
    uses: dict[str, PluginUse] = {}
    findings: list[Finding] = []
    for report in reports:
        for ref in report.plugin_refs:
            top = ref.package.split(".")[0]
            if ref.package in _NOT_PLUGINS or (ref.via == "import" and (top in _QUIET_IMPORTS or top in own)):
                continue
            plugin = _get_plugin(ref.package)
            if plugin is None:
                findings.extend(_unknown(ref, report.path))
                continue
            use = _use(plugin, ref.package, ref.version, report.path, ref.line)
            if plugin.key not in uses or (ref.version and not uses[plugin.key].version):
                uses[plugin.key] = use
            findings.append(_finding(use, ref.via))
    return sorted(uses.values(), key=lambda u: u.name.lower()), findings


def local_packages(paths: Iterable[str]) -> frozenset[str]:
    """Top-level Python packages the scanned tree holds itself: a top-level directory with Python files
    (``flash_attn/ops.py``; namespace packages have no ``__init__.py``), also under ``src/`` or ``python/``.
    Importing them is the project importing its own code, not a dependency (a pin of the same name still counts)."""
    out = set()
    for path in paths:
        parts = path.split("/")
        if not parts[-1].endswith(".py") or len(parts) < 2:
            continue
        top = parts[1] if parts[0] in ("src", "python") and len(parts) >= 3 else parts[0]
        if top.isidentifier():
            out.add(top)
    return frozenset(out)


def _unknown(ref: PluginRef, path: str) -> list[Finding]:
    """S204 for a required package the knowledge base lacks whose name says it is CUDA-only."""
    if ref.via != "requirement" or not _CUDA_NAMED.search(ref.package) or NVIDIA_WHEEL.match(ref.package):
        return []
    if ref.package in NVML_PACKAGES:  # C2R-P103 already names these NVML bindings
        return []
    return [emit(rules.S204, path, ref.line, 1, f"{ref.package}: a CUDA-specific package the knowledge base does "
                 "not know; check its ROCm support")]


def _use(plugin: Any, package: str, version: str, path: str, line: int) -> PluginUse:
    source = f"{plugin.source} ({plugin.date})" if plugin.date else plugin.source
    return PluginUse(plugin.key, package, version, path, line, plugin.rocm_support, plugin.replacement,
                     tuple(plugin.caveats), source)


def _finding(use: PluginUse, via: str) -> Finding:
    rule = _RULE.get(use.rocm_support, rules.S202)
    what = f"{use.package}{'==' + use.version if use.version else ''} ({via}): ROCm support "
    what += use.rocm_support.replace("_", " ")
    if use.replacement:
        what += f"; use {use.replacement}"
    return emit(rule, use.path, use.line, 1, what)
