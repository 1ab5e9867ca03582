"""``migrate deploy`` for Kubernetes manifests, Helm charts, Prometheus configs and Grafana dashboards.

YAML is read with :mod:`cuda2rocm.source.formats.yamlnodes` (node spans: every edit is a replacement of the
bytes of one scalar, comments and layout stay). What a YAML document is, is told by its content: a Kubernetes
object (``apiVersion`` + ``kind``), a Prometheus rule file (``groups`` with ``rules``), a scrape config
(``scrape_configs``), or plain data (Helm ``values.yaml``); the edits are the same kinds of facts wherever they
occur (:file:`data/kubernetes.yaml`, sourced):

- ``nvidia.com/gpu`` resources -> ``amd.com/gpu`` (C2R-M301); NVIDIA node labels in selectors and affinities ->
  the AMD GPU operator / node labeller labels (M302, M303 when no value carries over); tolerations of the
  ``nvidia.com/gpu`` taint (M304); ``runtimeClassName: nvidia`` removed (M305);
- monitoring (:mod:`cuda2rocm.migrate.deploy.monitoring`): the DCGM exporter image and port (M701, M702, M703)
  and DCGM metric names in any scalar (PromQL in rules, relabelling regexes, embedded configs; M704, M705);
  Grafana dashboards (``.json``) go to :func:`cuda2rocm.migrate.deploy.monitoring.migrate_dashboard`.

Helm templates (files with ``{{ }}`` actions): actions are masked with bytes of the same length (a line that is
only actions becomes blank, an inline action a plain scalar), the masked text is read as YAML, and an edit is
made only on lines that contain no action; the others are reported with their line (M306). With ``--canary`` a
GPU Deployment is left as it is (:mod:`cuda2rocm.migrate.deploy.rollout` writes its ROCm canary), and
``--validation-job`` adds the multi-node Job (:mod:`cuda2rocm.migrate.deploy.validation`).

Environment variables in containers (``CUDA_VISIBLE_DEVICES``, ``NCCL_*``) are not rewritten here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ruamel.yaml import YAML

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.migrate.engine import Generated
from cuda2rocm.model import Severity
from cuda2rocm.rewrite.runner import FileOutcome
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node, YamlStream, read_yaml

_SELECTOR_KEYS = frozenset({"nodeSelector", "matchLabels"})


@functools.lru_cache(maxsize=1)
def facts() -> dict[str, Any]:
    """The sourced fact table (:file:`data/kubernetes.yaml`)."""
    text = resources.files("cuda2rocm.migrate.deploy").joinpath("data").joinpath("kubernetes.yaml").read_text(
        encoding="utf-8")
    data: dict[str, Any] = YAML(typ="safe", pure=True).load(text)
    return data


# --- Helm template actions -------------------------------------------------------------------------------------

def template_actions(text: str) -> list[tuple[int, int]]:
    """(start, end) of every ``{{ ... }}`` action; an unclosed one runs to the end of the text."""
    out: list[tuple[int, int]] = []
    pos = text.find("{{")
    while pos >= 0:
        close = text.find("}}", pos + 2)
        end = len(text) if close < 0 else close + 2
        out.append((pos, end))
        pos = text.find("{{", end)
    return out


def mask_templates(text: str, actions: Sequence[tuple[int, int]]) -> str:
    """``text`` with every action replaced by bytes of the same length: blanks where its lines hold nothing but
    actions and whitespace, else a plain scalar of ``x``; newlines are kept, so every offset stays."""
    chars = list(text)
    for start, end in actions:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        alone = not _outside_actions(text, line_start, line_end, actions).strip()
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " " if alone else "x"
    return "".join(chars)


def _outside_actions(text: str, start: int, end: int, actions: Sequence[tuple[int, int]]) -> str:
    """The part of ``text[start:end]`` that is not inside an action."""
    parts, pos = [], start
    for a, b in actions:
        if b <= start or a >= end:
            continue
        parts.append(text[pos:max(a, pos)])
        pos = max(pos, b)
    parts.append(text[pos:end] if pos < end else "")
    return "".join(parts)


def templated_lines(text: str, actions: Sequence[tuple[int, int]]) -> set[int]:
    """1-based lines that hold (part of) a template action."""
    lines: set[int] = set()
    for start, end in actions:
        first = text.count("\n", 0, start) + 1
        lines.update(range(first, first + text.count("\n", start, end) + 1))
    return lines


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


def read(rel: str, text: str) -> tuple[YamlStream, set[int], Problem | None]:
    """The YAML of a file (template actions masked) and its templated lines; a Problem when plain YAML is bad
    (a Helm template that does not read is not a problem of the file: its actions may make it YAML)."""
    actions = template_actions(text)
    source = mask_templates(text, actions) if actions else text
    stream = read_yaml(source)
    if stream.problems and not actions:
        return stream, set(), stream.problems[0]
    return stream, templated_lines(text, actions), None


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    if rel.lower().endswith(".json"):
        from cuda2rocm.migrate.deploy.monitoring import migrate_dashboard

        return migrate_dashboard(rel, text, options)
    stream, templated, problem = read(rel, text)
    if problem is not None:
        return FileMigration(rel, problems=(problem,))
    f = YamlFile(Collector(rel, text), options, templated)
    if stream.problems:  # a Helm template that is not YAML even with its actions masked
        p = stream.problems[0]
        f.out.report(R.HELM_TEMPLATE, p.offset if p.offset else 0,
                     f"Helm template not rewritten: not YAML once its actions are set aside ({p.message})",
                     fix="migrate the lines that name NVIDIA resources by hand")
        return f.out.result()
    migrate_stream(f, stream)
    return f.out.result()


def migrate_stream(f: YamlFile, stream: YamlStream) -> None:
    from cuda2rocm.migrate.deploy import monitoring

    for doc in stream.documents:
        data = doc.to_python()
        if f.options.canary > 0 and not f.templated and is_gpu_deployment(data) and doc.kind == MAPPING:
            from cuda2rocm.migrate.deploy.rollout import canary_path

            name = _name(data)
            f.out.report(R.CANARY, doc.offset, f"Deployment {name} kept for CUDA; its ROCm canary "
                         f"({f.options.canary} replicas) is {canary_path(f.out.path)}",
                         fix=f"kubectl apply -f {canary_path(f.out.path)}")
            f.skip.append((doc.offset, doc.end))
            continue
        kind = doc_kind(data)
        _walk(f, doc, (), kind)
        monitoring.migrate_exporters(f, doc, data)


def _name(data: dict[str, Any]) -> str:
    meta = data.get("metadata")
    return str(meta.get("name", "")) if isinstance(meta, dict) else ""


def _walk(f: YamlFile, node: Node, path: tuple[str, ...], kind: str) -> None:
    from cuda2rocm.migrate.deploy import monitoring

    if node.kind == MAPPING:
        for k, v in node.pairs:
            key = k.value if k.kind == SCALAR else ""
            _pair(f, node, k, v, key, path)
            _walk(f, v, (*path, key), kind)
    elif node.kind == SEQUENCE:
        for item in node.items:
            _walk(f, item, path, kind)
    elif node.kind == SCALAR and "DCGM_" in node.value:
        monitoring.migrate_metric_scalar(f, node, path)
    elif node.kind == SCALAR and kind == "scrape" and "targets" in path:
        monitoring.migrate_target(f, node)


def _pair(f: YamlFile, parent: Node, k: Node, v: Node, key: str, path: tuple[str, ...]) -> None:
    table = facts()
    resource = table["resource"]
    if key == resource["nvidia"]:
        replace_scalar(f, k, resource["amd"], R.GPU_RESOURCE,
                       f"{key}: {v.value or '...'} -> {resource['amd']} (the AMD device plugin's resource)")
    elif key.startswith("nvidia.com/"):
        _label(f, k, v, key, path)
    elif key == "key" and v.kind == SCALAR and v.value.startswith("nvidia.com/"):
        _label_expression(f, parent, v, path)
    elif key == "runtimeClassName" and v.kind == SCALAR and v.value == table["runtime_class"]["nvidia"]:
        _remove_entry(f, k, v, R.RUNTIME_CLASS, "runtimeClassName: nvidia removed: "
                      + table["runtime_class"]["note"])


def _label(f: YamlFile, k: Node, v: Node, key: str, path: tuple[str, ...]) -> None:
    """An NVIDIA label written as a mapping key (a nodeSelector, matchLabels, a Helm value)."""
    row = facts()["labels"].get(key)
    selector = bool(path) and path[-1] in _SELECTOR_KEYS
    if row is None:
        f.report(R.NODE_LABEL_REVIEW, k.offset, f"{key}: {facts()['other_label']['note']}",
                 fix="select AMD nodes with feature.node.kubernetes.io/amd-gpu or an amd.com/gpu.* label")
        return
    if row["action"] == "report" or not selector:
        target = f" (AMD: {row['amd']})" if row["amd"] else ""
        f.report(R.NODE_LABEL_REVIEW, k.offset, f"{key}: {v.value or '...'}{target}: {row['note']}",
                 fix=f"pick the value from the AMD nodes' labels{target}")
        return
    if row["action"] == "key":
        replace_scalar(f, k, row["amd"], R.NODE_LABEL, f"{key} -> {row['amd']}: {row['note']}")
    elif v.kind == SCALAR and v.style not in ("|", ">"):  # pair: key and value
        f.edit(R.NODE_LABEL, k.offset, v.end, f"{row['amd']}: \"{row['value']}\"",
               f"{key}: {v.value} -> {row['amd']}: \"{row['value']}\": {row['note']}")


def _label_expression(f: YamlFile, parent: Node, v: Node, path: tuple[str, ...]) -> None:
    """``key: nvidia.com/...`` in a toleration or a node-affinity match expression."""
    label = v.value
    resource = facts()["resource"]
    toleration = "tolerations" in path
    if label == resource["nvidia"]:
        row = facts()["toleration"]
        replace_scalar(f, v, row["amd"], R.TOLERATION, f"key {label} -> {row['amd']}: {row['note']}")
        return
    row = facts()["labels"].get(label)
    values = parent.get("values")
    if not toleration and row is not None and row["action"] == "pair" and values is not None and \
            values.kind == SEQUENCE and len(values.items) == 1 and values.items[0].kind == SCALAR:
        item = values.items[0]
        if replace_scalar(f, v, row["amd"], R.NODE_LABEL, f"{label} -> {row['amd']}: {row['note']}"):
            f.edit(R.NODE_LABEL, item.offset, item.end, f"\"{row['value']}\"",
                   f"{label} value {item.value} -> \"{row['value']}\"")
        return
    if toleration or row is None or row["action"] != "key":
        amd = f" (AMD: {row['amd']})" if row and row["amd"] else ""
        note = row["note"] if row else facts()["other_label"]["note"]
        f.report(R.NODE_LABEL_REVIEW, v.offset, f"match expression on {label}{amd}: {note}",
                 fix="key: feature.node.kubernetes.io/amd-gpu, operator: Exists (or an amd.com/gpu.* label)")
        return
    replace_scalar(f, v, row["amd"], R.NODE_LABEL, f"{label} -> {row['amd']}: {row['note']}")


def _remove_entry(f: YamlFile, k: Node, v: Node, rule: Rule, message: str) -> None:
    """Remove a block mapping entry with its whole line (key at the start of the line, nothing after the value
    but a comment, which stays on the line); otherwise only report."""
    text = f.out.text
    line_start = text.rfind("\n", 0, k.offset) + 1
    line_end = text.find("\n", v.end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:k.offset].strip() or text[v.end:line_end].strip().startswith(("}", ",")):
        f.report(rule, k.offset, message, fix="remove the entry")
        return
    comment = text[v.end:line_end].strip()
    keep = f"{text[line_start:k.offset]}{comment}\n" if comment.startswith("#") else ""
    f.edit(rule, line_start, line_end, keep, message)


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    """Canary Deployments (``--canary``) and the multi-node validation Job (``--validation-job``)."""
    from cuda2rocm.migrate.deploy import rollout, validation

    out: list[Generated] = []
    if options.canary > 0:
        out.extend(rollout.generate(outcomes, options))
    if options.validation_job:
        out.extend(validation.generate(outcomes, options))
    return out
