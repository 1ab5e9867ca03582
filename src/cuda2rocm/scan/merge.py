"""Merge per-file reports into one :class:`ScanResult` (plus cross-file facts: plugins, binaries' sources,
API usage per library, deployment scale, baselines)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from cuda2rocm.files.classify import is_benchmark_path, is_header, is_test_path
from cuda2rocm.model import Finding, InputProblem
from cuda2rocm.results import ApiUse, BinaryArtifact, Deployment, FileInfo
from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers.apinames import first_use_finding, lookup
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.scan.rules import emit

_SUFFIXES = re.compile(r"(\.cpython[^.]*|\.abi3)?\.(so(\.\d+)*|a|o|cubin|fatbin|ptx|whl|cu|cuh|cpp|cc|cxx|c|h|hpp)$")
SCALES = ("none", "single-gpu", "multi-gpu", "multi-node", "kubernetes")
_SOURCE_LANGS = frozenset({"cuda", "cpp", "c"})


def files(reports: Sequence[FileFacts]) -> tuple[FileInfo, ...]:
    return tuple(FileInfo(r.path, r.language, r.lines, tuple(sorted(r.tags))) for r in reports)


def project_declared(reports: Sequence[FileFacts]) -> frozenset[str]:
    """CUDA-looking names some file of the project declares: the project's own, not CUDA APIs."""
    return frozenset(name for r in reports for name in r.declared)


def unknown_use_findings(reports: Sequence[FileFacts], declared: frozenset[str]) -> list[Finding]:
    """First-use findings (S109/S112) for names the tables do not know and no file of the project declares."""
    out = []
    for r in reports:
        for name, line, col in r.unknown_uses:
            found = first_use_finding(name) if name not in declared else None
            if found is not None:
                out.append(emit(found[0], r.path, line, col, found[1]))
    return out


def api_usage(reports: Sequence[FileFacts], declared: frozenset[str] = frozenset()) -> tuple[ApiUse, ...]:
    counts: dict[str, int] = {}
    first: dict[str, tuple[str, int]] = {}
    for r in reports:
        for name, (count, line) in r.api_refs.items():
            if name in declared and lookup(name).support == "unknown":
                continue  # the project's own name (declared in another file)
            counts[name] = counts.get(name, 0) + count
            first.setdefault(name, (r.path, line))
    out = []
    for name, count in counts.items():
        entry = lookup(name)
        out.append(ApiUse(entry.library, name, entry.hip_name, entry.support, count, *first[name]))
    return tuple(sorted(out, key=lambda a: (a.library, -a.count, a.name)))


def binaries(reports: Sequence[FileFacts]) -> tuple[tuple[BinaryArtifact, ...], list[Finding]]:
    """The binaries with whether the repository holds a source that builds them: a translation unit (not a
    header: headers beside a library are its interface, not its source) named like it, or a directory named
    like it that holds translation units."""
    units = [r.path for r in reports if r.language in _SOURCE_LANGS and not is_header(r.path)]
    stems = {_stem(path) for path in units}
    stems |= {part.lower() for path in units for part in PurePosixPath(path).parts[:-1]}
    arts: list[BinaryArtifact] = []
    findings: list[Finding] = []
    for r in reports:
        art = r.binary
        if art is None:
            continue
        art = BinaryArtifact(art.path, art.kind, art.cuda_libraries, art.has_fatbin, _stem(art.path) in stems)
        arts.append(art)
        findings.extend(_binary_findings(art))
    return tuple(arts), findings


def _stem(path: str) -> str:
    name = PurePosixPath(path).name.lower()
    name = _SUFFIXES.sub("", name)
    name = name.split("-")[0] if path.endswith(".whl") else name
    name = name[3:] if name.startswith("lib") else name
    return name.lstrip("_")


def _binary_findings(art: BinaryArtifact) -> list[Finding]:
    if art.has_source:
        return []
    libs = ", ".join(art.cuda_libraries)
    if art.kind in ("cubin", "fatbin", "ptx"):
        return [emit(rules.S303, art.path, 0, 0, f"NVIDIA device code ({art.kind}) with no source in the repository")]
    if art.kind == "wheel" and (art.cuda_libraries or art.has_fatbin):
        return [emit(rules.S304, art.path, 0, 0, f"wheel with CUDA-linked binaries ({libs or 'embedded fatbin'})")]
    out = []
    if art.cuda_libraries:
        out.append(emit(rules.S301, art.path, 0, 0, f"{art.kind} links {libs} and has no source here"))
    if art.has_fatbin:
        out.append(emit(rules.S302, art.path, 0, 0, f"{art.kind} embeds NVIDIA device code (.nv_fatbin)"))
    return out


def deployment(reports: Sequence[FileFacts]) -> Deployment:
    evidence = [(scale, text) for r in reports for scale, text in r.deploy]
    if not evidence:
        return Deployment("none", ())
    scale = max((s for s, _ in evidence), key=SCALES.index)
    ordered = sorted(evidence, key=lambda e: -SCALES.index(e[0]))
    unique = list(dict.fromkeys(text for _, text in ordered))
    return Deployment(scale, tuple(unique[:20]))


def baselines(reports: Sequence[FileFacts]) -> dict[str, bool]:
    requirements = sum(r.counts.get("requirements", 0) for r in reports)
    pinned = sum(r.counts.get("pinned", 0) for r in reports)
    return {
        "tests": any(is_test_path(r.path) and r.language in ("python", "cuda", "cpp", "c") for r in reports),
        "pinned_versions": requirements > 0 and pinned >= 0.8 * requirements,
        "benchmarks": any(is_benchmark_path(r.path) for r in reports),
        "ci": any(r.language == "ci" for r in reports),
    }


def problems(walk_problems: Sequence[InputProblem], reports: Sequence[FileFacts]) -> tuple[InputProblem, ...]:
    out = list(walk_problems) + [p for r in reports for p in r.problems]
    return tuple(sorted(out, key=lambda p: (p.path, p.line)))


def walk_findings(walk_problems: Sequence[InputProblem]) -> list[Finding]:
    return [emit(p.extra["rule"], p.path, p.line, 0, p.message) for p in walk_problems if "rule" in p.extra]


def sorted_findings(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(set(findings), key=Finding.sort_key))

