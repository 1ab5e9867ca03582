"""YAML: Kubernetes manifests, Helm values, compose files, CI workflows (ruamel round-trip loader: safe,
and it keeps line numbers). Multi-document files are supported; a parse error names the line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import FileFacts

_COMMAND_KEYS = frozenset({"command", "args", "run", "script", "before_script", "after_script", "entrypoint",
                           "test", "environment", "cmd", "sh"})
_GPU_RUNNER = re.compile(r"\b(gpu|cuda|nvidia|a100|h100|h200|v100|t4|l4|a10g?)\b", re.IGNORECASE)
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def load_yaml(report: FileFacts, text: str) -> list[Any]:
    """All documents of ``text``; a parse error becomes a C2R-E105 problem with its line."""
    try:
        try:
            return _load_all(text)
        except DuplicateKeyError as exc:
            if "merge key" not in str(exc):
                raise
            return _load_all(_merge_keys_as_lists(text))  # GitLab CI accepts `<<: *A` and `<<: *B` in one mapping
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        report.problem("C2R-E105", f"invalid YAML at line {line}: {exc.problem or exc.context}", line)
    except YAMLError as exc:
        report.problem("C2R-E105", f"invalid YAML: {exc}")
    return []


def _load_all(text: str) -> list[Any]:
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = True  # compose files and CI configs repeat keys; the last one wins
    return [doc for doc in yaml.load_all(text) if doc is not None]


_MERGE_LINE = re.compile(r"^(\s*)<<:\s*(\*[\w.-]+)\s*$")


def _merge_keys_as_lists(text: str) -> str:
    """Consecutive ``<<: *A`` / ``<<: *B`` lines of one mapping become ``<<: [*A, *B]`` (the spelling every YAML
    loader accepts); the later lines become blank comments, so every line keeps its number."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        first = _MERGE_LINE.match(lines[i])
        j = i + 1
        aliases = [first.group(2)] if first else []
        while first and j < len(lines) and (m := _MERGE_LINE.match(lines[j])) and m.group(1) == first.group(1):
            aliases.append(m.group(2))
            lines[j] = first.group(1) + "#"
            j += 1
        if first and len(aliases) > 1:
            lines[i] = f"{first.group(1)}<<: [{', '.join(aliases)}]"
        i = j
    return "\n".join(lines)


def scan_yaml(report: FileFacts, text: str) -> None:
    if report.path.rsplit("/", 1)[-1] == "Chart.yaml":
        report.evidence("kubernetes", 1, "Helm chart")
    for doc in load_yaml(report, text):
        for path, key, value, line, col in _walk(doc, ()):
            _node(report, path, key, value, line, col)
            if isinstance(value, dict):
                _split_image(report, value, line)
        _workload_scale(report, doc)


def _split_image(report: FileFacts, node: dict[Any, Any], line: int) -> None:
    """Helm values spell images in parts: ``repository: nvcr.io/nvidia`` + ``image: driver`` + ``version: 550.54``
    (or ``repository: rayproject/ray-ml`` + ``tag: 2.9.0-gpu``)."""
    repo, tag = node.get("repository"), node.get("tag", node.get("version"))
    if not isinstance(repo, str) or not isinstance(tag, (str, int, float)) or not repo:
        return
    image = node.get("image")
    ref = f"{repo.rstrip('/')}/{image}" if isinstance(image, str) and image and "/" not in image else repo
    scan_image(report, f"{ref}:{tag}", _pos(node, "repository", is_map=True)[0] or line, 1)


def _walk(node: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str, Any, int, int]]:
    """(parent path, key, value, line, col) for every mapping entry and sequence item (1-based positions)."""
    if isinstance(node, dict):
        for key, value in node.items():
            line, col = _pos(node, key, is_map=True)
            yield path, str(key), value, line, col
            yield from _walk(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            line, col = _pos(node, i, is_map=False)
            yield path, "", value, line, col
            yield from _walk(value, path)


def _pos(node: Any, key: Any, *, is_map: bool) -> tuple[int, int]:
    try:
        line, col = node.lc.key(key) if is_map else node.lc.item(key)
        return line + 1, col + 1
    except (AttributeError, KeyError, TypeError, IndexError):
        return 0, 0


def _node(report: FileFacts, path: tuple[str, ...], key: str, value: Any, line: int, col: int) -> None:
    if key.startswith("nvidia.com/"):
        _nvidia_key(report, key, value, line, col)
    elif key in ("image", "container") and isinstance(value, str):
        scan_image(report, value, line, col)
    elif key == "name" and isinstance(value, str) and _ENV_NAME.fullmatch(value) and path[-1:] == ("env",):
        check_env(report, value, line, col)
    elif path[-1:] in (("environment",), ("env",), ("variables",)) and _ENV_NAME.fullmatch(key):
        check_env(report, key, line, col, str(value) if isinstance(value, (str, int, float)) else "")
    elif key in ("runtimeClassName", "runtime", "driver") and value == "nvidia":
        rule = "C2R-D102" if key == "runtimeClassName" else "C2R-D105"
        report.add(rule, line, col, f"{key}: nvidia selects the NVIDIA container runtime")
        report.evidence("single-gpu", line, f"{key}: nvidia")
    elif key == "count" and "devices" in path and (value == "all" or (isinstance(value, int) and value > 1)):
        report.evidence("multi-gpu", line, f"GPU reservation count: {value}")  # compose device reservations
    elif key == "runs-on":
        _runner(report, value, line, col)
    elif "matrix" in path and isinstance(value, list) and _MATRIX_KEY.fullmatch(key):
        _matrix(report, key, value, line)
    elif key in ("InstanceType", "instance_type", "machineType", "machine_type", "gke-accelerator") or \
            key.endswith("/gke-accelerator"):
        _cloud_gpu(report, key, value, line, col)
    elif key == "uses" and isinstance(value, str) and "cuda-toolkit" in value.lower():
        report.add("C2R-D107", line, col, f"CI installs the CUDA toolkit ({value})")
    else:
        _cluster_scale(report, key, value, line)
    if key in _COMMAND_KEYS:
        _commands(report, value, line)


def _nvidia_key(report: FileFacts, key: str, value: Any, line: int, col: int) -> None:
    if key == "nvidia.com/gpu":
        report.add("C2R-D102", line, col, f"requests nvidia.com/gpu: {value}; AMD GPUs are amd.com/gpu")
        report.evidence("kubernetes", line, f"nvidia.com/gpu: {value}")
    else:
        report.add("C2R-D102", line, col, f"{key}: {value} selects NVIDIA nodes")


_MATRIX_KEY = re.compile(r"(?i)(cuda|torch|pytorch)[-_]?(version|ver)s?")


def _matrix(report: FileFacts, key: str, values: list[Any], line: int) -> None:
    """A CI build matrix over CUDA or PyTorch versions: each value is a version the project builds against."""
    kind, name = ("cuda", "CUDA") if "cuda" in key.lower() else ("framework", "PyTorch")
    for value in values:
        text = str(value).strip()
        if re.fullmatch(r"\d+(\.\d+)*([.+-]\w+)*", text):
            report.component(kind, name, text, line, f"{key}: {text} (CI matrix)")


#: cloud instance and accelerator names that are NVIDIA GPUs (AWS p2/p3/p4/p5/g4dn/g5/g6, GCP a2/a3/g2, GKE labels)
_NVIDIA_INSTANCE = re.compile(r"(?i)^(?:p[2-5][a-z]*|g4dn|g5g?|g6e?|a2|a3|g2)[.-]|nvidia-(?:tesla-)?[a-z0-9-]+$")


def _cloud_gpu(report: FileFacts, key: str, value: Any, line: int, col: int) -> None:
    if isinstance(value, str) and _NVIDIA_INSTANCE.search(value):
        report.add("C2R-D102", line, col, f"{key}: {value} selects NVIDIA GPU machines; pick an AMD Instinct "
                   "instance type or node pool")


def _cluster_scale(report: FileFacts, key: str, value: Any, line: int) -> None:
    """Ray cluster YAML (``resources: {GPU: 8}``, ``max_workers``) and accelerate configs (``num_machines``)."""
    if key == "resources" and isinstance(value, dict) and isinstance(value.get("GPU"), int) and value["GPU"] > 0:
        report.evidence("multi-gpu" if value["GPU"] > 1 else "single-gpu", line, f"resources: GPU {value['GPU']}")
    elif key in ("num_machines", "max_workers", "min_workers") and isinstance(value, int) and value > 1:
        report.evidence("multi-node", line, f"{key}: {value}")
    elif key == "distributed_type" and value in ("MULTI_GPU", "DEEPSPEED", "FSDP", "MEGATRON_LM"):
        report.evidence("multi-gpu", line, f"distributed_type: {value}")


def _runner(report: FileFacts, value: Any, line: int, col: int) -> None:
    labels = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    if _GPU_RUNNER.search(labels):
        report.add("C2R-D107", line, col, f"CI job runs on NVIDIA GPU runners ({labels})")


def _commands(report: FileFacts, value: Any, line: int) -> None:
    if isinstance(value, str):
        first = line + 1 if "\n" in value.strip() else line
        shell.scan_text(report, value, first)
    elif isinstance(value, list):
        by_line: dict[int, list[str]] = {}
        for i, item in enumerate(value):
            if isinstance(item, (str, int)):
                by_line.setdefault(_pos(value, i, is_map=False)[0] or line, []).append(str(item))
        for item_line, words in by_line.items():
            text = " ".join(words)
            if "\n" in text:
                shell.scan_text(report, text, item_line + 1)
            else:
                shell.scan_line(report, text, item_line)


def _workload_scale(report: FileFacts, doc: Any) -> None:
    """Kubeflow PyTorchJob/MPIJob with several workers is a multi-node deployment."""
    if not isinstance(doc, dict) or doc.get("kind") not in ("PyTorchJob", "MPIJob", "TFJob", "RayCluster"):
        return
    report.evidence("multi-node", 1, f"kind: {doc.get('kind')}")
