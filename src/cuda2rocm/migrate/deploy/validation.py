"""``--validation-job``: a multi-node validation run on the AMD nodes, as Kubernetes manifests.

``<dir>/rocm-validation-job.yaml``: a headless Service and an indexed Job of ``options.nodes`` pods (one per
node, ``amd.com/gpu: options.gpus_per_node`` each, AMD node selector); pod ``i`` runs ``torchrun
--node-rank=i`` against pod 0 (stable DNS name ``<job>-0.<service>``), first ``cuda2rocm comm`` (all-reduce and
all-gather across every GPU, results checked), then the project's smoke test (``cuda2rocm smoke
$SMOKE_TARGET``). Where the project uses Kubeflow (a PyTorchJob in its manifests),
``<dir>/rocm-validation-pytorchjob.yaml`` does the same as a PyTorchJob (Master + Workers; the training
operator sets MASTER_ADDR, MASTER_PORT and RANK). ``<dir>`` is the folder of the project's first GPU manifest.
The RCCL environment is :func:`rccl_environment`. The files are written by a small block-style emitter of plain
data (generated text, not a user's file rewritten).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.migrate.deploy.yamlfile import facts, gpu_requests, read, source_text
from cuda2rocm.migrate.engine import Generated
from cuda2rocm.rewrite.runner import FileOutcome

NAME = "rocm-validation"
PORT = 29500
DEFAULT_IMAGE = "rocm/pytorch:latest"


@dataclass
class Project:
    """What the project's manifests say about the validation run."""

    folder: str = ""
    image: str = ""
    socket_ifname: str = ""
    kubeflow: bool = False
    found: bool = False


def rccl_environment(socket_ifname: str = "") -> list[tuple[str, str]]:
    """The RCCL variables a multi-node run sets: the network interface RCCL's bootstrap and socket transport use
    (``NCCL_SOCKET_IFNAME``, honoured by RCCL under the same name; the project's value when it sets one) and
    ``NCCL_DEBUG=INFO`` (RCCL prints its version, the transports and rings it chose)."""
    return [("NCCL_SOCKET_IFNAME", socket_ifname or "eth0"), ("NCCL_DEBUG", "INFO")]


def survey(outcomes: Sequence[FileOutcome[FileMigration]]) -> Project:
    project = Project()
    for o in outcomes:
        rel = o.detail.path
        if o.detail.problems or rel.lower().endswith(".json"):
            continue
        text = source_text(o)
        if text is None or "{{" in text:
            continue  # Helm templates: their values are not the rendered ones
        stream, _, problem = read(text)
        if problem is not None:
            continue
        for doc in stream.documents:
            data = doc.to_python()
            if not isinstance(data, dict):
                continue
            if data.get("kind") == "PyTorchJob":
                project.kubeflow = True
            if not project.found and (gpu_requests(data) or _amd(data)) and "kind" in data:
                project.found = True
                project.folder = str(PurePosixPath(rel).parent)
                project.image = _first(data, "image")
            if not project.socket_ifname:
                project.socket_ifname = _env(data, "NCCL_SOCKET_IFNAME")
    return project


def _amd(data: Any) -> bool:
    if isinstance(data, dict):
        return any(k == facts()["resource"]["amd"] or _amd(v) for k, v in data.items())
    return isinstance(data, list) and any(_amd(v) for v in data)


def _first(data: Any, key: str) -> str:
    if isinstance(data, dict):
        if isinstance(data.get(key), str) and "{{" not in data[key]:
            return str(data[key])
        values = list(data.values())
    elif isinstance(data, list):
        values = data
    else:
        return ""
    for v in values:
        found = _first(v, key)
        if found:
            return found
    return ""


def _env(data: Any, name: str) -> str:
    if isinstance(data, dict):
        if data.get("name") == name and isinstance(data.get("value"), str):
            return str(data["value"])
        values = list(data.values())
    elif isinstance(data, list):
        values = data
    else:
        return ""
    for v in values:
        found = _env(v, name)
        if found:
            return found
    return ""


def script(options: DeployOptions, rank: str, addr: str, port: str) -> str:
    """The shell each pod runs: torchrun across the nodes with ``cuda2rocm comm``, then the smoke test."""
    run = (f"torchrun --nnodes={options.nodes} --nproc-per-node={options.gpus_per_node} --node-rank={rank} "
           f"--master-addr={addr} --master-port={port}")
    return (
        "set -euo pipefail\n"
        f"{run} -m cuda2rocm comm --ops all_reduce,all_gather -b 1M -e 256M\n"
        "if [ -n \"${SMOKE_TARGET:-}\" ]; then\n"
        "  cuda2rocm smoke \"$SMOKE_TARGET\"\n"
        "else\n"
        "  echo 'SMOKE_TARGET is not set: smoke test skipped' >&2\n"
        "  exit 3\n"
        "fi\n")


def _container(options: DeployOptions, project: Project, name: str, shell: str) -> dict[str, Any]:
    env = [{"name": k, "value": v} for k, v in rccl_environment(project.socket_ifname)]
    env.append({"name": "SMOKE_TARGET", "value": ""})
    return {
        "name": name,
        "image": project.image or DEFAULT_IMAGE,
        "command": ["bash", "-c", shell],
        "env": env,
        "ports": [{"containerPort": PORT}],
        "resources": {"limits": {facts()["resource"]["amd"]: options.gpus_per_node}},
        "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
    }


def _pod_spec(containers: list[dict[str, Any]], restart: str, **extra: Any) -> dict[str, Any]:
    label = facts()["labels"]["nvidia.com/gpu.present"]
    spec: dict[str, Any] = dict(extra)
    spec.update({
        "restartPolicy": restart,
        "nodeSelector": {label["amd"]: label["value"]},
        "containers": containers,
        "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
    })
    return spec


def job_manifests(options: DeployOptions, project: Project) -> list[dict[str, Any]]:
    service = {
        "apiVersion": "v1", "kind": "Service", "metadata": {"name": NAME},
        "spec": {"clusterIP": "None", "selector": {"job-name": NAME}, "ports": [{"name": "rdzv", "port": PORT}]},
    }
    shell = script(options, "${JOB_COMPLETION_INDEX}", f"{NAME}-0.{NAME}", str(PORT))
    job = {
        "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": NAME},
        "spec": {
            "completionMode": "Indexed", "completions": options.nodes, "parallelism": options.nodes,
            "backoffLimit": 0,
            "template": {"metadata": {"labels": {"job-name": NAME}},
                         "spec": _pod_spec([_container(options, project, "validate", shell)], "Never",
                                           subdomain=NAME)},
        },
    }
    return [service, job]


def pytorchjob_manifest(options: DeployOptions, project: Project) -> dict[str, Any]:
    shell = script(options, "${RANK}", "${MASTER_ADDR}", "${MASTER_PORT}")

    def replica(count: int) -> dict[str, Any]:
        return {"replicas": count, "restartPolicy": "Never",
                "template": {"spec": _pod_spec([_container(options, project, "pytorch", shell)], "Never")}}

    specs = {"Master": replica(1)}
    if options.nodes > 1:
        specs["Worker"] = replica(options.nodes - 1)
    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": NAME},
            "spec": {"pytorchReplicaSpecs": specs}}


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    project = survey(outcomes)
    folder = "" if project.folder in ("", ".") else project.folder + "/"
    image = project.image or DEFAULT_IMAGE
    head = (f"# Multi-node validation on AMD GPUs ({options.nodes} nodes x {options.gpus_per_node} GPUs), written by "
            "cuda2rocm migrate deploy --validation-job.\n# Set the image (the ROCm build of the application, "
            "with cuda2rocm installed) and SMOKE_TARGET (module:factory or script.py of the smoke test).\n")
    out: list[Generated] = []
    path = f"{folder}{NAME}-job.yaml"
    note = R.VALIDATION.finding(path, 1, 1, f"validation Job for {options.nodes} nodes x {options.gpus_per_node} "
                                f"GPUs with image {image}: set SMOKE_TARGET and check the image has ROCm and "
                                "cuda2rocm", fix=f"kubectl apply -f {path}")
    out.append(Generated(path, head + "---\n".join(emit(m) for m in job_manifests(options, project)), (note,)))
    if project.kubeflow:
        path = f"{folder}{NAME}-pytorchjob.yaml"
        note = R.VALIDATION.finding(path, 1, 1, f"validation PyTorchJob (Kubeflow) for {options.nodes} nodes",
                                    fix=f"kubectl apply -f {path}")
        out.append(Generated(path, head + emit(pytorchjob_manifest(options, project)), (note,)))
    return out


# --- a block-style YAML emitter for generated manifests -------------------------------------------------------------

_RESERVED = frozenset({"", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"})


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    s = str(value)
    plain = (s.lower() not in _RESERVED and s[0].isalpha() and s.strip() == s
             and all(c.isalnum() or c in "-_./" for c in s))
    return s if plain else json.dumps(s)


def emit(data: Any, indent: int = 0) -> str:
    """Plain data (dicts, lists, strings, numbers) as block-style YAML; a multi-line string as a literal block."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            lines.append(_entry(f"{pad}{_scalar(k)}:", v, indent + 2))
    elif isinstance(data, list):
        for v in data:
            if isinstance(v, dict) and v:
                body = emit(v, indent + 2)
                lines.append(f"{pad}- {body[indent + 2:]}".rstrip("\n"))
            else:
                lines.append(_entry(f"{pad}-", v, indent + 2))
    return "\n".join(lines) + "\n"


def _entry(head: str, value: Any, indent: int) -> str:
    if isinstance(value, (dict, list)) and value:
        return f"{head}\n{emit(value, indent).rstrip(chr(10))}"
    if isinstance(value, dict):
        return f"{head} {{}}"
    if isinstance(value, list):
        return f"{head} []"
    if isinstance(value, str) and "\n" in value:
        body = "\n".join((" " * indent + line) if line else "" for line in value.rstrip("\n").split("\n"))
        return f"{head} |\n{body}"
    return f"{head} {_scalar(value)}"
