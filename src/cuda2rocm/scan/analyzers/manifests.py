"""Package manifests with structure: pyproject.toml, Pipfile, conda environment.yml."""

from __future__ import annotations

import re
import sys
from typing import Any

from cuda2rocm.scan.analyzers.packages import scan_index_option, scan_requirement
from cuda2rocm.scan.filefacts import FileFacts

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def line_of(text: str, needle: str, default: int = 1) -> int:
    """1-based line of the first occurrence of ``needle`` (``default`` when absent)."""
    pos = text.find(needle)
    return text.count("\n", 0, pos) + 1 if pos >= 0 else default


def scan_pyproject(report: FileFacts, text: str) -> None:
    data = _toml(report, text)
    if data is None:
        return
    project = data.get("project", {})
    specs = list(project.get("dependencies", []) or [])
    for extra in (project.get("optional-dependencies", {}) or {}).values():
        specs.extend(extra or [])
    for spec in specs:
        if isinstance(spec, str):
            scan_requirement(report, spec, line_of(text, spec))
    poetry = data.get("tool", {}).get("poetry", {}).get("dependencies", {}) or {}
    _name_version_table(report, text, poetry)
    for source in data.get("tool", {}).get("poetry", {}).get("source", []) or []:
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            scan_index_option(report, source["url"], line_of(text, source["url"]))


def scan_pipfile(report: FileFacts, text: str) -> None:
    data = _toml(report, text)
    if data is None:
        return
    for section in ("packages", "dev-packages"):
        _name_version_table(report, text, data.get(section, {}) or {})
    for source in data.get("source", []) or []:
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            scan_index_option(report, source["url"], line_of(text, source["url"]))


def _name_version_table(report: FileFacts, text: str, table: dict[str, Any]) -> None:
    for name, value in table.items():
        if name == "python":
            continue
        version = value.get("version", "") if isinstance(value, dict) else str(value)
        spec = name if version in ("", "*") else f"{name}{version if version[0] in '=<>!~' else '==' + version}"
        scan_requirement(report, spec, line_of(text, f"{name} =", line_of(text, name)))


def _toml(report: FileFacts, text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        report.problem("C2R-E105", f"invalid TOML: {exc}", int(m.group(1)) if m else 0)
        return None


def scan_conda(report: FileFacts, text: str) -> None:
    from cuda2rocm.scan.analyzers.yamlfiles import load_yaml

    docs = load_yaml(report, text)
    for doc in docs:
        deps = doc.get("dependencies") if isinstance(doc, dict) else None
        if not isinstance(deps, list):
            continue
        for i, dep in enumerate(deps):
            line = deps.lc.item(i)[0] + 1 if hasattr(deps, "lc") else 1
            if isinstance(dep, str):
                scan_requirement(report, dep.split("::")[-1], line, conda=True)
            elif isinstance(dep, dict) and isinstance(dep.get("pip"), list):
                pips = dep["pip"]
                for j, spec in enumerate(pips):
                    if isinstance(spec, str):
                        sub = pips.lc.item(j)[0] + 1 if hasattr(pips, "lc") else line
                        _pip_entry(report, spec, sub)


def _pip_entry(report: FileFacts, spec: str, line: int) -> None:
    if spec.startswith("-"):
        scan_index_option(report, spec, line)
    else:
        scan_requirement(report, spec, line)
