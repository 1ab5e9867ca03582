"""What the Kubernetes-side migrators share (:mod:`~cuda2rocm.migrate.deploy.kubernetes` and the modules it
drives): the sourced fact table, one YAML file under migration (:class:`YamlFile`: its collector, its templated
lines, the spans a canary run leaves alone), Helm template masking, scalar replacement by span, and what a
document is."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from ruamel.yaml import YAML

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.model import Severity
from cuda2rocm.rewrite.runner import FileOutcome
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.formats.helm import read_template, template_actions, templated_lines
from cuda2rocm.source.formats.yamlnodes import SCALAR, Node, YamlStream


@functools.lru_cache(maxsize=1)
def facts() -> dict[str, Any]:
    """The sourced fact table (:file:`data/kubernetes.yaml`)."""
    text = resources.files("cuda2rocm.migrate.deploy").joinpath("data").joinpath("kubernetes.yaml").read_text(
        encoding="utf-8")
    data: dict[str, Any] = YAML(typ="safe", pure=True).load(text)
    return data


# --- the per-file migration --------------------------------------------------------------------------------------

@dataclass
class YamlFile:
    """One YAML file being migrated: its collector, which lines are templated, and the run's options."""

    out: Collector
    options: DeployOptions
    templated: set[int] = field(default_factory=set)
    reported_lines: set[int] = field(default_factory=set)
    skip: list[tuple[int, int]] = field(default_factory=list)  # spans left alone (a kept CUDA Deployment)

    def lines_of(self, start: int, end: int) -> range:
        return range(self.out.lines.line(start), self.out.lines.line(max(start, end - 1)) + 1)

    def edit(self, rule: Rule, start: int, end: int, replacement: str, message: str) -> bool:
        """Edit unless the span touches a templated line (then the line is reported once, C2R-M306)."""
        if any(a <= start < b for a, b in self.skip):
            return False
        hit = [n for n in self.lines_of(start, end) if n in self.templated]
        if hit and not any(a < end and start < b for a, b in template_actions(self.out.text)) and \
                not self.out.text[self.out.lines.start(hit[0]):start].strip().startswith("{{"):
            # literal text beside an action (the key of ``nvidia.com/gpu: {{ .Values.gpus }}``): the action and
            # the line's structure stay as written
            hit = []
        if hit:
            if hit[0] not in self.reported_lines:
                self.reported_lines.add(hit[0])
                text = self.out.text
                first = self.out.lines.start(hit[0])
                stop = text.find("\n", first)
                line = text[first:len(text) if stop < 0 else stop].strip()
                self.out.report(R.HELM_TEMPLATE, start, f"templated line not rewritten: `{line}` ({rule.title})",
                                fix=f"by hand, or in the value the action reads ({rule.title})")
            return False
        return self.out.edit(rule, start, end, replacement, message)

    def report(self, rule: Rule, offset: int, message: str, *, fix: str = "",
               severity: Severity | None = None) -> None:
        if any(a <= offset < b for a, b in self.skip):
            return
        self.out.report(rule, offset, message, fix=fix, severity=severity)


def scalar_span(node: Node) -> tuple[int, int]:
    """Where a scalar's characters are: inside the quotes of a quoted scalar, the whole span of a plain one."""
    if node.style in ("'", '"') and node.end - node.offset >= 2:
        return node.offset + 1, node.end - 1
    return node.offset, node.end


def replace_scalar(f: YamlFile, node: Node, new: str, rule: Rule, message: str) -> bool:
    """Replace a plain or quoted scalar's value (a value with escapes or a block scalar is left: False)."""
    if node.kind != SCALAR or node.style in ("|", ">"):
        return False
    start, end = scalar_span(node)
    if f.out.text[start:end] != node.value:
        return False
    return f.edit(rule, start, end, new, message)


def doc_kind(data: Any) -> str:
    """``k8s``, ``rules`` (Prometheus rule file), ``scrape`` (Prometheus config) or ``data``."""
    if not isinstance(data, dict):
        return "data"
    if isinstance(data.get("apiVersion"), str) and isinstance(data.get("kind"), str):
        return "k8s"
    groups = data.get("groups")
    if isinstance(groups, list) and any(isinstance(g, dict) and "rules" in g for g in groups):
        return "rules"
    if "scrape_configs" in data:
        return "scrape"
    return "data"


def gpu_requests(data: Any) -> bool:
    """Whether the data asks for ``nvidia.com/gpu`` anywhere."""
    if isinstance(data, dict):
        return any(k == facts()["resource"]["nvidia"] or gpu_requests(v) for k, v in data.items())
    if isinstance(data, list):
        return any(gpu_requests(v) for v in data)
    return False


def is_gpu_deployment(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "Deployment" and gpu_requests(data)


def canary_path(rel: str) -> str:
    """Where the canary of the GPU Deployments in ``rel`` is written: ``<dir>/<stem>.rocm-canary.yaml``."""
    p = PurePosixPath(rel)
    return str(p.with_name(f"{p.stem}.rocm-canary.yaml"))


def source_text(outcome: FileOutcome[FileMigration]) -> str | None:
    """The file's text as read (diff mode keeps it); otherwise the file itself, whose GPU Deployments a canary
    run leaves as they were."""
    if outcome.original:
        return outcome.original
    try:
        return Path(outcome.job.source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def read(text: str) -> tuple[YamlStream, set[int], Problem | None]:
    """The YAML of a file (template actions masked) and its templated lines; a Problem when plain YAML is bad
    (a Helm template that does not read is not a problem of the file: its actions may make it YAML)."""
    actions = template_actions(text)
    stream = read_template(text, actions)
    if stream.problems and not actions:
        return stream, set(), stream.problems[0]
    return stream, templated_lines(text, actions), None


