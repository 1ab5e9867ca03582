"""Monitoring for ``migrate deploy``: the DCGM exporter -> the AMD device metrics exporter (image, port), DCGM
metric names -> the AMD exporter's names in Prometheus rules, scrape configs, embedded configs and Grafana
dashboards, every DCGM metric with no AMD counterpart reported (facts: :file:`data/kubernetes.yaml`).

Metric names are found by a small identifier scanner over the bytes of one scalar (YAML, from its node span) or
one string token (JSON, from the standard library's string scanner), so an edit replaces exactly the name.
Dashboards are never loaded and dumped: :func:`json.loads` only checks them, edits go by offset.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, undeclared in typeshed
from typing import Any

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.migrate.deploy.yamlfile import YamlFile, facts, replace_scalar
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_PORT_KEYS = frozenset({"containerPort", "port", "targetPort", "hostPort"})
#: scrape annotations that name the port Prometheus reads (they must follow the exporter's port)
_PORT_ANNOTATIONS = frozenset({"prometheus.io/port"})


def identifiers(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int, str]]:
    """(start, end, word) of every maximal run of letters, digits and ``_`` in ``text[start:end]`` that does
    not start with a digit (PromQL metric and label names, as far as DCGM's names go)."""
    stop = len(text) if end is None else end
    i = start
    while i < stop:
        if text[i] in _WORD:
            j = i
            while j < stop and text[j] in _WORD:
                j += 1
            if not text[i].isdigit():
                yield i, j, text[i:j]
            i = j
        else:
            i += 1


def amd_metric(name: str, options: DeployOptions) -> tuple[str, str] | None:
    """(AMD name or '', note) for a DCGM metric, None when the name is not in the table."""
    row = facts()["metrics"].get(name)
    if row is None:
        return None
    amd = row["amd"]
    if row.get("mi300") and options.gfx and all(g.startswith(("gfx94", "gfx95")) for g in options.gfx):
        amd = row["mi300"]
    return amd, row.get("note", "")


def _label_note(text: str, start: int, end: int) -> str:
    labels = {k: v for k, v in facts()["metric_labels"].items() if k not in ("source", "date", "unverified")}
    used = sorted({w for _, _, w in identifiers(text, start, end) if w in labels})
    return "; labels: " + ", ".join(f"{w} -> {labels[w]}" for w in used) if used else ""


def migrate_names(f: YamlFile, start: int, end: int) -> None:
    """Every DCGM metric name in ``text[start:end]`` -> its AMD name (C2R-M704), or reported (C2R-M705)."""
    text = f.out.text
    labels = _label_note(text, start, end)
    for a, b, word in identifiers(text, start, end):
        if not word.startswith("DCGM_") or word.startswith("DCGM_EXPORTER"):
            continue  # DCGM_EXPORTER_*: the exporter's own settings (C2R-M703), not metrics
        found = amd_metric(word, f.options)
        if found is None:
            f.report(R.METRIC_MISSING, a, f"{word} is not a DCGM metric with a known AMD counterpart (a name "
                     "pattern, or a field this table does not list)", fix="write the query on AMD exporter metrics")
        elif not found[0]:
            f.report(R.METRIC_MISSING, a, f"{word} has no AMD device metrics exporter counterpart: {found[1]}",
                     fix="drop it or rebuild it on an AMD metric")
        else:
            f.edit(R.METRIC, a, b, found[0], f"{word} -> {found[0]} ({found[1]}){labels}")


def migrate_metric_scalar(f: YamlFile, node: Node, path: tuple[str, ...]) -> None:
    if path and path[-1].lower().endswith(".csv"):
        f.report(R.EXPORTER_CONFIG, node.offset, f"{path[-1]}: a DCGM exporter counters file; "
                 + facts()["exporter"]["note"], fix="an AMD exporter config.json with the fields to export")
        return
    migrate_names(f, node.offset, node.end)


def migrate_target(f: YamlFile, node: Node) -> None:
    """A Prometheus target ``host:9400`` -> ``host:5000``."""
    exporter = facts()["exporter"]
    host, sep, port = node.value.rpartition(":")
    if sep and host and port == str(exporter["nvidia_port"]):
        replace_scalar(f, node, f"{host}:{exporter['amd_port']}", R.EXPORTER_PORT,
                       f"{node.value}: DCGM exporter port -> the AMD exporter's {exporter['amd_port']}")


def is_dcgm_image(value: str) -> bool:
    ref = value.split("@", 1)[0]
    name = ref[: ref.rfind(":")] if ref.rfind(":") > ref.rfind("/") else ref
    return name in facts()["exporter"]["nvidia_images"]


def migrate_exporters(f: YamlFile, doc: Node, data: Any) -> None:
    """DCGM exporter containers (and Helm ``image: {repository, tag}`` values) -> the AMD exporter; in a document
    that runs or exposes one, port 9400 -> 5000."""
    exporter = facts()["exporter"]
    image = f"{exporter['amd_image']}:{exporter['amd_tag']}"
    text = f.out.text[doc.offset:doc.end].lower()
    dcgm_doc = "dcgm" in text
    for node in doc.walk():
        if node.kind != MAPPING:
            continue
        img = node.get("image")
        repo = node.get("repository")
        if img is not None and img.kind == SCALAR and is_dcgm_image(img.value):
            replace_scalar(f, img, image, R.EXPORTER_IMAGE,
                           f"{img.value} -> {image}: {exporter['note']}")
            _exporter_container(f, node)
        elif repo is not None and repo.kind == SCALAR and repo.value in exporter["nvidia_images"]:
            replace_scalar(f, repo, exporter["amd_image"], R.EXPORTER_IMAGE,
                           f"{repo.value} -> {exporter['amd_image']}: {exporter['note']}")
            tag = node.get("tag")
            if tag is not None and tag.kind == SCALAR:
                replace_scalar(f, tag, exporter["amd_tag"], R.EXPORTER_IMAGE,
                               f"tag {tag.value} -> {exporter['amd_tag']} (the AMD exporter's release)")
        if dcgm_doc:
            for key in (*_PORT_KEYS, *_PORT_ANNOTATIONS):
                port = node.get(key)
                if port is not None and port.kind == SCALAR and port.value == str(exporter["nvidia_port"]):
                    replace_scalar(f, port, str(exporter["amd_port"]), R.EXPORTER_PORT,
                                   f"{key}: {port.value} (DCGM exporter) -> {exporter['amd_port']}")


def _exporter_container(f: YamlFile, container: Node) -> None:
    for key in ("args", "command"):
        node = container.get(key)
        if node is not None:
            f.report(R.EXPORTER_CONFIG, node.offset, f"{key}: DCGM exporter arguments do not apply to the AMD "
                     "exporter", fix="remove them; configure the AMD exporter with its config.json")
    env = container.get("env")
    if env is not None and env.kind == SEQUENCE:
        for item in env.items:
            name = item.get("name") if item.kind == MAPPING else None
            if name is not None and name.value.startswith("DCGM_EXPORTER"):
                f.report(R.EXPORTER_CONFIG, name.offset, f"{name.value}: a DCGM exporter setting",
                         fix="remove it; configure the AMD exporter with its config.json")


# --- Grafana dashboards (JSON) -------------------------------------------------------------------------------------

def json_strings(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_key) of every string token of a valid JSON text (the quotes included)."""
    i, n = 0, len(text)
    while i < n:
        if text[i] != '"':
            i += 1
            continue
        _, end = scanstring(text, i + 1)
        j = end
        while j < n and text[j] in " \t\r\n":
            j += 1
        yield i, end, j < n and text[j] == ":"
        i = end


def migrate_dashboard(rel: str, text: str, options: DeployOptions) -> FileMigration:
    """DCGM metric names in a Grafana dashboard's strings (queries, legends, variables) -> AMD names."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return FileMigration(rel, problems=(Problem(exc.lineno, f"invalid JSON at line {exc.lineno}: {exc.msg}",
                                                    exc.pos),))
    f = YamlFile(Collector(rel, text), options)
    for start, end, is_key in json_strings(text):
        if not is_key and "DCGM_" in text[start:end]:
            migrate_names(f, start + 1, end - 1)
    return f.out.result()
