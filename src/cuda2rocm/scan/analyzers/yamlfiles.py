"""YAML: Kubernetes manifests, Helm values, compose files, CI workflows, read as node trees with spans
(:mod:`cuda2rocm.source.formats.yamlnodes`: safe, nothing but plain data is built). Multi-document files are
supported; anchors are followed from every alias and merge key, so a setting is reported where it is written;
a parse error names the line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from cuda2rocm.project.recognise import nvidia_runner
from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import Bad, Fact, Hit, Record, Scale
from cuda2rocm.source.formats.helm import read_template
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node

_COMMAND_KEYS = frozenset({"command", "args", "run", "script", "before_script", "after_script", "entrypoint",
                           "test", "environment", "cmd", "sh"})
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def load_documents(text: str) -> tuple[list[Node], list[Record]]:
    """The root node of every non-empty document, and its problems (syntax errors, undefined aliases) as
    C2R-E105 input problems with their line."""
    stream = read_template(text)  # a Helm template reads as YAML with its actions masked (same offsets)
    problems: list[Record] = [Bad(rules.E105, p.message, p.line) for p in stream.problems]
    return [d for d in stream.documents if not (d.kind == SCALAR and d.tag.endswith(":null"))], problems


def scan_yaml(text: str, file_path: str = "") -> Iterator[Record]:
    if file_path.rsplit("/", 1)[-1] == "Chart.yaml":
        yield Scale("kubernetes", 1, "Helm chart")
    docs, problems = load_documents(text)
    yield from problems
    for doc in docs:
        memo: dict[int, Any] = {}
        for path, key, node, line, col in walk(doc):
            value = node.to_python(memo)
            yield from _node(path, key, value, node, line, col)
            if isinstance(value, dict):
                yield from _split_image(value, node, line)
        yield from _workload_scale(doc.to_python(memo))


def _split_image(value: dict[Any, Any], node: Node, line: int) -> Iterator[Record]:
    """Helm values spell images in parts: ``repository: nvcr.io/nvidia`` + ``image: driver`` + ``version: 550.54``
    (or ``repository: rayproject/ray-ml`` + ``tag: 2.9.0-gpu``)."""
    repo, tag = value.get("repository"), value.get("tag", value.get("version"))
    if not isinstance(repo, str) or not isinstance(tag, (str, int, float)) or not repo:
        return
    image = value.get("image")
    ref = f"{repo.rstrip('/')}/{image}" if isinstance(image, str) and image and "/" not in image else repo
    key = node.resolved().key_node("repository")
    yield from scan_image(f"{ref}:{tag}", key.line if key is not None else line, 1)


def entries(node: Node) -> list[tuple[Node, Node]]:
    """A mapping's (key, value) nodes: its own entries, then those merged in with ``<<`` (the first source that
    has a key wins, own keys win over merged ones), each at the position where it is written."""
    node = node.resolved()
    own = [(k, v) for k, v in node.pairs if not _is_merge(k)]
    seen = {k.value for k, _ in own if k.kind == SCALAR}
    out = list(own)
    for k, v in node.pairs:
        if not _is_merge(k):
            continue
        target = v.resolved()
        for src in (target.items if target.kind == SEQUENCE else [v]):
            if src.resolved().kind != MAPPING:
                continue
            for mk, mv in entries(src):
                if mk.kind == SCALAR and mk.value not in seen:
                    seen.add(mk.value)
                    out.append((mk, mv))
    return out


def _is_merge(key: Node) -> bool:
    return key.kind == SCALAR and key.value == "<<" and key.style == ""


def walk(node: Node, path: tuple[str, ...] = (), _active: frozenset[int] = frozenset()) -> Iterator[
        tuple[tuple[str, ...], str, Node, int, int]]:
    """(parent path, key, value node, line, col) for every mapping entry and sequence item (1-based positions of
    the key, or of the item); aliases are followed (a cycle is walked once)."""
    target = node.resolved()
    if id(target) in _active:
        return
    active = _active | {id(target)}
    if target.kind == MAPPING:
        for k, v in entries(target):
            key = str(k.value if k.kind == SCALAR else k.to_python())
            yield path, key, v, k.line, k.col
            yield from walk(v, (*path, key), active)
    elif target.kind == SEQUENCE:
        for item in target.items:
            yield path, "", item, item.line, item.col
            yield from walk(item, path, active)


def _node(path: tuple[str, ...], key: str, value: Any, node: Node, line: int, col: int) -> Iterator[Record]:
    if key.startswith("nvidia.com/"):
        yield from _nvidia_key(key, value, line, col)
    elif key == "key" and isinstance(value, str) and value.startswith("nvidia.com/") and "tolerations" in path:
        yield Hit(rules.D102, line, col, f"a toleration of {value} taints: pods go to NVIDIA GPU nodes (AMD pools "
                  "carry amd.com/gpu)")
    elif key in ("image", "container") and isinstance(value, str):
        yield from scan_image(value, line, col)
    elif key == "name" and isinstance(value, str) and _ENV_NAME.fullmatch(value) and path[-1:] == ("env",):
        yield from check_env(value, line, col)
    elif path[-1:] in (("environment",), ("env",), ("variables",)) and _ENV_NAME.fullmatch(key):
        yield from check_env(key, line, col, str(value) if isinstance(value, (str, int, float)) else "")
    elif key in ("runtimeClassName", "runtime", "driver") and value == "nvidia":
        rule = rules.D102 if key == "runtimeClassName" else rules.D105
        yield Hit(rule, line, col, f"{key}: nvidia selects the NVIDIA container runtime")
        yield Scale("single-gpu", line, f"{key}: nvidia")
    elif key == "count" and "devices" in path and (value == "all" or (isinstance(value, int) and value > 1)):
        yield Scale("multi-gpu", line, f"GPU reservation count: {value}")  # compose device reservations
    elif key == "runs-on":
        yield from _runner(value, line, col)
    elif "matrix" in path and isinstance(value, list) and _MATRIX_KEY.fullmatch(key):
        yield from _matrix(key, value, line)
    elif key in ("InstanceType", "instance_type", "machineType", "machine_type", "gke-accelerator") or \
            key.endswith("/gke-accelerator"):
        yield from _cloud_gpu(key, value, line, col)
    elif key == "uses" and isinstance(value, str) and "cuda-toolkit" in value.lower():
        yield Hit(rules.D107, line, col, f"CI installs the CUDA toolkit ({value})")
    else:
        yield from _cluster_scale(key, value, line)
    if key in _COMMAND_KEYS:
        yield from _commands(value, node, line)


def _nvidia_key(key: str, value: Any, line: int, col: int) -> Iterator[Record]:
    if key == "nvidia.com/gpu":
        yield Hit(rules.D102, line, col, f"requests nvidia.com/gpu: {value}; AMD GPUs are amd.com/gpu")
        yield Scale("kubernetes", line, f"nvidia.com/gpu: {value}")
    else:
        yield Hit(rules.D102, line, col, f"{key}: {value} selects NVIDIA nodes")
        if key in ("nvidia.com/cuda.driver.major", "nvidia.com/cuda.driver-version.major") and str(value).isdigit():
            yield Fact("driver", "NVIDIA driver", str(value), line, f"{key}: {value}")
        elif key in ("nvidia.com/cuda.runtime.major", "nvidia.com/cuda.runtime-version.major") and \
                str(value).isdigit():
            yield Fact("cuda", "CUDA", str(value), line, f"{key}: {value}")


_MATRIX_KEY = re.compile(r"(?i)(cuda|torch|pytorch)[-_]?(version|ver)s?")


def _matrix(key: str, values: list[Any], line: int) -> Iterator[Record]:
    """A CI build matrix over CUDA or PyTorch versions: each value is a version the project builds against."""
    kind, name = ("cuda", "CUDA") if "cuda" in key.lower() else ("framework", "PyTorch")
    for value in values:
        text = str(value).strip()
        if re.fullmatch(r"\d+(\.\d+)*([.+-]\w+)*", text):
            yield Fact(kind, name, text, line, f"{key}: {text} (CI matrix)")


#: cloud instance and accelerator names that are NVIDIA GPUs (AWS p2/p3/p4/p5/g4dn/g5/g6, GCP a2/a3/g2, GKE labels)
_NVIDIA_INSTANCE = re.compile(r"(?i)^(?:p[2-5][a-z]*|g4dn|g5g?|g6e?|a2|a3|g2)[.-]|nvidia-(?:tesla-)?[a-z0-9-]+$")


def _cloud_gpu(key: str, value: Any, line: int, col: int) -> Iterator[Record]:
    if isinstance(value, str) and _NVIDIA_INSTANCE.search(value):
        yield Hit(rules.D102, line, col, f"{key}: {value} selects NVIDIA GPU machines; pick an AMD Instinct "
                   "instance type or node pool")


def _cluster_scale(key: str, value: Any, line: int) -> Iterator[Record]:
    """Ray cluster YAML (``resources: {GPU: 8}``, ``max_workers``) and accelerate configs (``num_machines``)."""
    if key == "resources" and isinstance(value, dict) and isinstance(value.get("GPU"), int) and value["GPU"] > 0:
        yield Scale("multi-gpu" if value["GPU"] > 1 else "single-gpu", line, f"resources: GPU {value['GPU']}")
    elif key in ("num_machines", "max_workers", "min_workers") and isinstance(value, int) and value > 1:
        yield Scale("multi-node", line, f"{key}: {value}")
    elif key == "distributed_type" and value in ("MULTI_GPU", "DEEPSPEED", "FSDP", "MEGATRON_LM"):
        yield Scale("multi-gpu", line, f"distributed_type: {value}")


def _runner(value: Any, line: int, col: int) -> Iterator[Record]:
    listed = value if isinstance(value, list) else [value]
    labels = " ".join(str(v) for v in listed)
    if nvidia_runner(listed):  # the recogniser migrate deploy's ROCm CI jobs use too
        yield Hit(rules.D107, line, col, f"CI job runs on NVIDIA GPU runners ({labels})")


def _commands(value: Any, node: Node, line: int) -> Iterator[Record]:
    if isinstance(value, str):
        first = line + 1 if "\n" in value.strip() else line
        yield from shell.scan_text(value, first)
    elif isinstance(value, list):
        by_line: dict[int, list[str]] = {}
        for item, item_node in zip(value, node.resolved().items, strict=False):
            if isinstance(item, (str, int)):
                by_line.setdefault(item_node.line or line, []).append(str(item))
        for item_line, words in by_line.items():
            text = " ".join(words)
            if "\n" in text:
                yield from shell.scan_text(text, item_line + 1)
            else:
                yield from shell.scan_line(text, item_line)


def _workload_scale(doc: Any) -> Iterator[Record]:
    """Kubeflow PyTorchJob/MPIJob with several workers is a multi-node deployment."""
    if not isinstance(doc, dict) or doc.get("kind") not in ("PyTorchJob", "MPIJob", "TFJob", "RayCluster"):
        return
    yield Scale("multi-node", 1, f"kind: {doc.get('kind')}")
