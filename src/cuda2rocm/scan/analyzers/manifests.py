"""Package manifests with structure: pyproject.toml and Pipfile (:mod:`cuda2rocm.source.formats.tomldoc`, every
value at the line it is written), conda environment.yml (:mod:`cuda2rocm.source.formats.yamlnodes`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers.packages import scan_index_option, scan_requirement
from cuda2rocm.scan.filefacts import Bad, Record
from cuda2rocm.source.formats.tomldoc import TomlDocument, read_toml
from cuda2rocm.source.tokens import LineIndex


class _Lines:
    """1-based lines of the values and keys of one TOML document (1 when a span cannot be found)."""

    def __init__(self, doc: TomlDocument) -> None:
        self.doc = doc
        self.index = LineIndex(doc.text)

    def value(self, *path: str | int) -> int:
        span = self.doc.span(*path)
        return self.index.line(span.offset) if span is not None else 1

    def key(self, *path: str | int) -> int:
        span = self.doc.key_span(*path)
        return self.index.line(span.offset) if span is not None else self.value(*path)


def scan_pyproject(text: str) -> Iterator[Record]:
    doc = read_toml(text)
    yield from _problems(doc)
    if doc.document is None:
        return
    data, lines = doc.data(), _Lines(doc)
    project = data.get("project", {})
    for i, spec in enumerate(project.get("dependencies", []) or []):
        if isinstance(spec, str):
            yield from scan_requirement(spec, lines.value("project", "dependencies", i))
    for extra, specs in (project.get("optional-dependencies", {}) or {}).items():
        for i, spec in enumerate(specs or []):
            if isinstance(spec, str):
                yield from scan_requirement(spec, lines.value("project", "optional-dependencies", extra, i))
    poetry = data.get("tool", {}).get("poetry", {})
    yield from _name_version_table(lines, ("tool", "poetry", "dependencies"), poetry.get("dependencies", {}) or {})
    for i, source in enumerate(poetry.get("source", []) or []):
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            yield from scan_index_option(source["url"], lines.value("tool", "poetry", "source", i, "url"))


def scan_pipfile(text: str) -> Iterator[Record]:
    doc = read_toml(text)
    yield from _problems(doc)
    if doc.document is None:
        return
    data, lines = doc.data(), _Lines(doc)
    for section in ("packages", "dev-packages"):
        yield from _name_version_table(lines, (section,), data.get(section, {}) or {})
    for i, source in enumerate(data.get("source", []) or []):
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            yield from scan_index_option(source["url"], lines.value("source", i, "url"))


def _name_version_table(lines: _Lines, where: tuple[str, ...], table: dict[str, Any]) -> Iterator[Record]:
    for name, value in table.items():
        if name == "python":
            continue
        version = value.get("version", "") if isinstance(value, dict) else str(value)
        spec = name if version in ("", "*") else f"{name}{version if version[0] in '=<>!~' else '==' + version}"
        yield from scan_requirement(spec, lines.key(*where, name))


def _problems(doc: TomlDocument) -> list[Record]:
    return [Bad(rules.E105, problem.message, problem.line) for problem in doc.problems]


def scan_conda(text: str) -> Iterator[Record]:
    from cuda2rocm.scan.analyzers.yamlfiles import load_documents

    docs, problems = load_documents(text)
    yield from problems
    for doc in docs:
        deps = doc.resolved().get("dependencies") if doc.resolved().kind == "mapping" else None
        if deps is None or deps.resolved().kind != "sequence":
            continue
        for dep in deps.resolved().items:
            value = dep.to_python()
            if isinstance(value, str):
                yield from scan_requirement(value.split("::")[-1], dep.line, conda=True)
            elif isinstance(value, dict) and isinstance(value.get("pip"), list):
                pips = dep.resolved().get("pip")
                for item in pips.resolved().items if pips is not None else []:
                    spec = item.to_python()
                    if isinstance(spec, str):
                        yield from _pip_entry(spec, item.line)


def _pip_entry(spec: str, line: int) -> Iterator[Record]:
    if spec.startswith("-"):
        yield from scan_index_option(spec, line)
    else:
        yield from scan_requirement(spec, line)
