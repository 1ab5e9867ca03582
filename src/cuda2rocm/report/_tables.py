"""The sections every human-readable format shows, as plain tables (title, headers, rows of strings).

Text, Markdown and HTML all render these, so the three formats always agree on content.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from cuda2rocm.report._data import location
from cuda2rocm.results import ScanResult


class Table(NamedTuple):
    key: str
    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]


def summary_lines(result: ScanResult) -> list[tuple[str, str]]:
    """(label, value) pairs for the header of a report."""
    stats = result.stats
    lines = [("Project", result.root), ("Target GPU", result.target_gpu or "-")]
    if stats:
        lines.append(("Scanned", f"{int(stats.get('files', 0))} files, {int(stats.get('lines', 0))} lines"))
    lines.append(("Risk", result.risk.level))
    low, high = result.risk.effort_person_days
    lines.append(("Effort", f"{low}-{high} person-days" if high else "0 person-days"))
    if result.risk.poc_recommendation:
        lines.append(("Proof of concept", result.risk.poc_recommendation))
    lines.append(("Deployment", result.deployment.scale))
    return lines


def _layers(r: ScanResult) -> Table:
    rows = [(str(a.layer), a.difficulty, str(a.finding_count), "; ".join(a.reasons)) for a in r.layers]
    return Table("layers", "Layers", ("Layer", "Difficulty", "Findings", "Why"), rows)


def _signals(r: ScanResult) -> Table:
    return Table("signals", "High-risk signals", ("Signal",), [(s,) for s in r.risk.signals])


def _inventory(r: ScanResult) -> Table:
    rows = [(c.kind, c.name, c.version, location(c.path, c.line), c.evidence) for c in r.inventory]
    return Table("inventory", "Inventory", ("Kind", "Name", "Version", "Source", "Evidence"), rows)


def _plugins(r: ScanResult) -> Table:
    rows = [
        (p.package, p.version, p.rocm_support, p.replacement, "; ".join(p.caveats), location(p.path, p.line), p.source)
        for p in r.plugins
    ]
    headers = ("Package", "Version", "ROCm status", "Replacement", "Caveats", "Where", "Fact source")
    return Table("plugins", "Third-party plugins", headers, rows)


def _api_usage(r: ScanResult) -> Table:
    rows = [
        (a.library, a.name, a.hip_name or "-", a.support, str(a.count), location(a.first_path, a.first_line))
        for a in sorted(r.api_usage, key=lambda a: (a.library, -a.count, a.name))
    ]
    return Table("api_usage", "CUDA API usage", ("Library", "CUDA", "HIP", "Support", "Uses", "First use"), rows)


def _binaries(r: ScanResult) -> Table:
    rows = [
        (b.path, b.kind, ", ".join(b.cuda_libraries) or "-", _yes(b.has_fatbin), _yes(b.has_source)) for b in r.binaries
    ]
    headers = ("Path", "Kind", "CUDA libraries", "Fatbin", "Source in repo")
    return Table("binaries", "Binaries", headers, rows)


def _deployment(r: ScanResult) -> Table:
    return Table(
        "deployment", f"Deployment ({r.deployment.scale})", ("Evidence",), [(e,) for e in r.deployment.evidence]
    )


def _baselines(r: ScanResult) -> Table:
    rows = [(name.replace("_", " "), _yes(present)) for name, present in sorted(r.baselines.items())]
    return Table("baselines", "Baselines", ("Baseline", "Present"), rows)


def _problems(r: ScanResult) -> Table:
    rows = [(location(p.path, p.line), p.message) for p in r.problems]
    return Table("problems", "Input problems", ("File", "Problem"), rows)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


SECTIONS: tuple[Callable[[ScanResult], Table], ...] = (
    _layers,
    _signals,
    _inventory,
    _plugins,
    _api_usage,
    _binaries,
    _deployment,
    _baselines,
    _problems,
)


def tables(result: ScanResult) -> list[Table]:
    """Every non-empty section, in report order."""
    return [t for t in (section(result) for section in SECTIONS) if t.rows]
