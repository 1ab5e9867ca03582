"""``--canary N``: beside each migrated GPU Deployment, a ROCm canary Deployment on AMD nodes.

The CUDA Deployment is left exactly as it is in its file (the file's other documents are migrated as usual) and
``<dir>/<stem>.rocm-canary.yaml`` is added: for every GPU Deployment of the file, its migrated text (the same
edits ``migrate deploy`` makes everywhere) with ``metadata.name`` + ``-rocm-canary``, ``replicas: N``, the label
``track: canary-rocm`` added to the selector, the pod labels and the Deployment's labels (the Service, which
selects the shared labels, sends a share of the traffic to both), and an AMD node selector when the pods had
none. Every change is an edit by offset on the migrated document, so its comments stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy.manifests import migrate_stream
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.yamlfile import YamlFile, canary_path, facts, is_gpu_deployment, read, source_text
from cuda2rocm.migrate.engine import Generated
from cuda2rocm.model import Edit
from cuda2rocm.rewrite.runner import FileOutcome
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, Node, read_yaml

TRACK = ("track", "canary-rocm")
SUFFIX = "-rocm-canary"


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    out: list[Generated] = []
    for o in outcomes:
        rel = o.detail.path
        if o.detail.problems or rel.lower().endswith(".json"):
            continue
        text = source_text(o)
        if text is None or "{{" in text:
            continue  # Helm templates: the canary belongs in the chart's values, not in rendered text
        stream, _, problem = read(text)
        if problem is not None:
            continue
        docs = [canary(text[d.offset:_line_end(text, d.end)], rel, options) for d in stream.documents
                if d.kind == MAPPING and d.col == 1 and is_gpu_deployment(d.to_python())]
        if docs:
            head = (f"# ROCm canary of the GPU Deployments in {rel} ({options.canary} replicas on AMD nodes), written "
                    "by cuda2rocm migrate deploy --canary.\n# The CUDA Deployments there are unchanged; see "
                    "docs/migrate.md (Rollout and rollback).\n")
            out.append(Generated(canary_path(rel), head + "---\n".join(d if d.endswith("\n") else d + "\n"
                                                                          for d in docs)))
    return out


def _line_end(text: str, end: int) -> int:
    """The end of the line ``end`` is on (a comment after the document's last value stays with it)."""
    stop = text.find("\n", end)
    return len(text) if stop < 0 else stop


def canary(doc: str, rel: str, options: DeployOptions) -> str:
    """The canary of one Deployment document (its text as written)."""
    f = YamlFile(Collector(rel, doc), replace(options, canary=0))
    migrate_stream(f, read_yaml(doc))
    migrated = apply_edits(doc, f.out.edits)
    root = read_yaml(migrated).documents[0]
    edits: list[Edit] = []
    meta, spec = root.get("metadata"), root.get("spec")
    name = meta.get("name") if meta is not None else None
    if name is not None and name.kind == SCALAR and name.style not in ("|", ">"):
        end = name.end - 1 if name.style else name.end
        edits.append(Edit(end, end, SUFFIX, "C2R-M801"))
    if meta is not None and meta.get("labels") is not None:
        _add_label(migrated, meta.get("labels"), edits)  # type: ignore[arg-type]
    if spec is not None and spec.kind == MAPPING:
        replicas = spec.get("replicas")
        if replicas is not None and replicas.kind == SCALAR:
            edits.append(Edit(replicas.offset, replicas.end, str(options.canary), "C2R-M801"))
        else:
            edits.append(_insert_entry(spec, f"replicas: {options.canary}"))
        selector = spec.get("selector")
        match = selector.get("matchLabels") if selector is not None else None
        if match is not None:
            _add_label(migrated, match, edits)
        template = spec.get("template")
        tmeta = template.get("metadata") if template is not None else None
        labels = tmeta.get("labels") if tmeta is not None else None
        if labels is not None:
            _add_label(migrated, labels, edits)
        pod = template.get("spec") if template is not None else None
        if pod is not None and pod.kind == MAPPING and pod.get("nodeSelector") is None and pod.get("affinity") is None:
            label = facts()["labels"]["nvidia.com/gpu.present"]
            indent = " " * (pod.pairs[0][0].col - 1)
            edits.append(Edit(pod.pairs[0][0].offset, pod.pairs[0][0].offset,
                              f"nodeSelector:\n{indent}  {label['amd']}: \"{label['value']}\"\n{indent}", "C2R-M801"))
    return apply_edits(migrated, edits)


def _insert_entry(mapping: Node, entry: str) -> Edit:
    first = mapping.pairs[0][0]
    if mapping.style == "flow":
        return Edit(mapping.offset + 1, mapping.offset + 1, f"{entry}, ", "C2R-M801")
    return Edit(first.offset, first.offset, f"{entry}\n{' ' * (first.col - 1)}", "C2R-M801")


def _add_label(text: str, labels: Node, edits: list[Edit]) -> None:
    if labels.kind != MAPPING or not labels.pairs:
        return
    track = labels.get(TRACK[0])
    if track is not None and track.kind == SCALAR:
        edits.append(Edit(track.offset, track.end, TRACK[1], "C2R-M801"))
    else:
        edits.append(_insert_entry(labels, f"{TRACK[0]}: {TRACK[1]}"))
