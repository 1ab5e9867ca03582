"""Kubernetes objects, Helm values and Prometheus configs: the per-document walk of ``migrate deploy`` (what it
rewrites: :mod:`cuda2rocm.migrate.deploy.kubernetes`)."""

from __future__ import annotations

import json
from typing import Any

from cuda2rocm.migrate.deploy import monitoring
from cuda2rocm.migrate.deploy.environment import RENAME, env_change, smi_change
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.migrate.deploy.rules import launch as L
from cuda2rocm.migrate.deploy.yamlfile import (
    YamlFile,
    canary_path,
    doc_kind,
    facts,
    is_gpu_deployment,
    replace_scalar,
)
from cuda2rocm.project.images import is_nvidia_image
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node, YamlStream

_SELECTOR_KEYS = frozenset({"nodeSelector", "matchLabels"})


def migrate_stream(f: YamlFile, stream: YamlStream) -> None:
    for doc in stream.documents:
        data = doc.to_python()
        if f.options.canary > 0 and not f.templated and is_gpu_deployment(data) and doc.kind == MAPPING:
            n, path = f.options.canary, canary_path(f.out.path)
            f.out.report(R.CANARY, doc.offset, f"Deployment {_name(data)} kept for CUDA; its ROCm canary "
                         f"({n} replica{'' if n == 1 else 's'}) is {path}", fix=f"kubectl apply -f {path}")
            f.skip.append((doc.offset, doc.end))
            continue
        kind = doc_kind(data)
        _walk(f, doc, (), kind)
        monitoring.migrate_exporters(f, doc, data)


def _name(data: dict[str, Any]) -> str:
    meta = data.get("metadata")
    return str(meta.get("name", "")) if isinstance(meta, dict) else ""


def _walk(f: YamlFile, node: Node, path: tuple[str, ...], kind: str) -> None:
    if node.kind == MAPPING:
        for k, v in node.pairs:
            key = k.value if k.kind == SCALAR else ""
            _pair(f, node, k, v, key, path)
            _walk(f, v, (*path, key), kind)
    elif node.kind == SEQUENCE:
        if kind == "k8s" and path and path[-1] == "env":
            _container_env(f, node)
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
        shown = f.out.text[v.offset:v.end] if v.kind == SCALAR and v.end > v.offset else "..."  # as written
        replace_scalar(f, k, resource["amd"], R.GPU_RESOURCE,
                       f"{key}: {shown} -> {resource['amd']} (the AMD device plugin's resource)")
    elif key.startswith("nvidia.com/"):
        _label(f, k, v, key, path)
    elif key == "key" and v.kind == SCALAR and v.value.startswith("nvidia.com/"):
        _label_expression(f, parent, v, path)
    elif key == "image" and v.kind == SCALAR and is_nvidia_image(v.value) and not monitoring.is_dcgm_image(v.value):
        f.report(R.CUDA_IMAGE, v.offset, f"{v.value} is an NVIDIA CUDA/NGC image; the pod needs a ROCm image",
                 fix="the ROCm image of the same framework for the target ROCm release (as for Dockerfiles)")
    elif key == "repository" and v.kind == SCALAR and is_nvidia_image(v.value) and \
            not monitoring.is_dcgm_image(v.value):
        f.report(R.CUDA_IMAGE, v.offset, f"{v.value} (an image repository value) is an NVIDIA CUDA/NGC image; the "
                 "pods need a ROCm image", fix="the ROCm image of the same framework for the target ROCm release, "
                 "its repository and tag (as for Dockerfiles)")
    elif key == "command" and path[-1:] == ("exec",) and _runs_smi(v):
        _exec_smi(f, v, path[-2] if len(path) > 1 else "exec")
    elif key in ("command", "args") and path[-1:] in (("containers",), ("initContainers",)) and _runs_smi(v):
        f.report(L.SMI, v.offset, "the container runs nvidia-smi: amd-smi on ROCm images (amd-smi list "
                 "lists the GPUs and fails when none is reachable)", fix="amd-smi list")
    elif key == "runtimeClassName" and v.kind == SCALAR and v.value == table["runtime_class"]["nvidia"]:
        _remove_entry(f, k, v, R.RUNTIME_CLASS, "runtimeClassName: nvidia removed: "
                      + table["runtime_class"]["note"])


def _exec_smi(f: YamlFile, command: Node, where: str) -> None:
    """An ``exec`` probe or hook (``livenessProbe``, ``readinessProbe``, ``startupProbe``, ``lifecycle``) that runs
    nvidia-smi: on a ROCm node it always fails, so a liveness probe restarts the pod forever. A list whose first
    word is nvidia-smi goes through the one mapping of every deploy file
    (:func:`~cuda2rocm.migrate.deploy.environment.smi_change`, as a probe: its exit status is what counts) and is
    rewritten as a flow list; a shell string (``sh -c "nvidia-smi ..."``) or an unmapped option is reported."""
    items = list(command.items) if command.kind == SEQUENCE else []
    words = [i.value for i in items if i.kind == SCALAR]
    if items and len(words) == len(items) and words[0].rsplit("/", 1)[-1] == "nvidia-smi":
        change = smi_change(words, probe=True)
        if change.argv is not None and f.edit(L.SMI, command.offset, command.end, json.dumps(list(change.argv)),
                                              f"{where}: {change.message}"):
            return
        f.report(L.SMI_FIELD, command.offset, f"{where} runs nvidia-smi: {change.message}",
                 fix="an amd-smi command with the same exit status (docs/migrate.md)")
        return
    f.report(L.SMI, command.offset, f"{where} runs nvidia-smi inside a shell command: it fails on ROCm nodes (a "
             "liveness probe restarts the pod forever)", fix="amd-smi list")


def _runs_smi(node: Node) -> bool:
    """Whether a container's ``command``/``args`` (a string or a list of them) runs nvidia-smi."""
    items = [node] if node.kind == SCALAR else list(node.items) if node.kind == SEQUENCE else []
    return any(i.kind == SCALAR and "nvidia-smi" in i.value for i in items)


def _container_env(f: YamlFile, env: Node) -> None:
    """A container's ``env:`` list: each ``name``/``value`` pair through the one decision every deploy file's
    environment takes (:func:`cuda2rocm.migrate.deploy.environment.env_change`). A rename edits the name (and a
    new value) in place; an added or dropped variable is reported with the entry to add or remove."""
    for item in env.items:
        if item.kind != MAPPING:
            continue
        fields = {k.value: v for k, v in item.pairs if k.kind == SCALAR}
        name, value = fields.get("name"), fields.get("value")
        if name is None or name.kind != SCALAR:
            continue
        change = env_change(name.value, value.value if value is not None and value.kind == SCALAR else "",
                            gfx=f.options.gfx)
        if change is None:
            continue
        if change.action == RENAME and len(change.new) == 1:
            new_name, new_value = change.new[0]
            replace_scalar(f, name, new_name, change.rule, change.message)
            if new_value is not None and value is not None and new_value != value.value:
                replace_scalar(f, value, new_value, change.rule, change.message)
        else:
            f.report(change.rule, name.offset, change.message,
                     fix=change.fix_text(value.value if value is not None else ""))


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


