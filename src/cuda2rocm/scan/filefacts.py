"""The facts one file contributes to a scan (:class:`FileFacts`). Built in a worker (picklable), merged by
:mod:`cuda2rocm.scan.merge`."""

from __future__ import annotations

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

    def add(self, rule: Rule | str, line: int, col: int, message: str, *, fix: str = "") -> None:
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
