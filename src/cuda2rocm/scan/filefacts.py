"""What one file contributes to a scan. Built in a worker (picklable), merged by :mod:`cuda2rocm.scan.merge`.

Analyzers of build and deployment files are generators of records (:data:`Record`: a finding, a component, a
piece of deployment evidence, a tag, a count, a plugin reference, an input problem); :meth:`FileFacts.collect`
adds them to the file's report, in order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cuda2rocm.model import Component, Finding, InputProblem
from cuda2rocm.results import BinaryArtifact
from cuda2rocm.rules import Rule
from cuda2rocm.scan.rules import emit


@dataclass(frozen=True)
class PluginRef:
    package: str  # as written in the project
    version: str
    line: int
    via: str  # "requirement" | "import"


@dataclass(frozen=True)
class Hit:
    """A finding of ``rule`` in the file."""

    rule: Rule
    line: int
    col: int
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Fact:
    """An inventory component (kind, name, version) written at ``line``."""

    kind: str
    name: str
    version: str
    line: int
    evidence: str = ""


@dataclass(frozen=True)
class Scale:
    """Deployment evidence: ``scale`` is ``single-gpu``, ``multi-gpu``, ``multi-node`` or ``kubernetes``."""

    scale: str
    line: int
    text: str


@dataclass(frozen=True)
class Tag:
    name: str


@dataclass(frozen=True)
class Count:
    key: str
    n: int = 1


@dataclass(frozen=True)
class Bad:
    """An input problem (recorded as an :class:`InputProblem` and a finding of its C2R-E rule)."""

    rule: Rule
    message: str
    line: int = 0


Record = Hit | Fact | Scale | Tag | Count | Bad | PluginRef


@dataclass
class FileFacts:
    path: str
    language: str
    lines: int = 0
    tags: set[str] = field(default_factory=set)
    findings: list[Finding] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    api_refs: dict[str, list[int]] = field(default_factory=dict)  # name -> [count, first line]
    plugin_refs: list[PluginRef] = field(default_factory=list)
    binary: BinaryArtifact | None = None
    deploy: list[tuple[str, str]] = field(default_factory=list)  # (scale, evidence)
    problems: list[InputProblem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    declared: set[str] = field(default_factory=set)  # CUDA-looking names this file declares (the project's own)
    unknown_uses: list[tuple[str, int, int]] = field(default_factory=list)  # first uses the tables do not know
    includes: tuple[str, ...] = ()  # project headers this file's device analysis read (the include graph's)

    def collect(self, records: Iterable[Record]) -> None:
        """Add what an analyzer yields."""
        for r in records:
            if isinstance(r, Hit):
                self.add(r.rule, r.line, r.col, r.message, fix=r.fix)
            elif isinstance(r, Fact):
                self.component(r.kind, r.name, r.version, r.line, r.evidence)
            elif isinstance(r, Scale):
                self.evidence(r.scale, r.line, r.text)
            elif isinstance(r, Tag):
                self.tags.add(r.name)
            elif isinstance(r, Count):
                self.count(r.key, r.n)
            elif isinstance(r, Bad):
                self.problem(r.rule, r.message, r.line)
            else:
                self.plugin_refs.append(r)

    def add(self, rule: Rule, line: int, col: int, message: str, *, fix: str = "") -> None:
        self.findings.append(emit(rule, self.path, line, col, message, fix=fix))

    def component(self, kind: str, name: str, version: str, line: int, evidence: str = "") -> None:
        self.components.append(Component(kind, name, version, self.path, line, evidence.strip()[:160]))

    def evidence(self, scale: str, line: int, text: str) -> None:
        self.deploy.append((scale, f"{self.path}:{line} {text.strip()[:120]}"))

    def api(self, name: str, line: int) -> None:
        entry = self.api_refs.get(name)
        if entry is None:
            self.api_refs[name] = [1, line]
        else:
            entry[0] += 1

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def problem(self, rule: Rule, message: str, line: int = 0) -> None:
        """An input problem: recorded as an :class:`InputProblem` and as a finding of its C2R-E rule."""
        self.problems.append(InputProblem(self.path, message, line, {"rule": rule.id}))
        self.findings.append(emit(rule, self.path, line, 0, message))
