"""Properties of the container migrations on generated inputs (hypothesis): compose files with any mix of NVIDIA
runtime, reservations, variables, existing lists and comments, and Dockerfiles with any mix of stages and CUDA
instructions, migrate to files that read back, keep every comment, leave nothing NVIDIA's behind where it was
rewritten, leave GPU-free services alone, and do not change on a second run."""

from __future__ import annotations

import io
from typing import Any

from dockerfile_parse import DockerfileParser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.migrate.deploy.compose import migrate as migrate_compose
from cuda2rocm.migrate.deploy.dockerfile import migrate as migrate_dockerfile
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.dockerfile import read_dockerfile
from cuda2rocm.source.formats.yamlnodes import read_yaml

OPTIONS = DeployOptions(rocm="6.4.1", gfx=("gfx942",))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

service = st.fixed_dictionaries({
    "image": st.sampled_from(["myorg/app:1", "nvcr.io/nvidia/pytorch:24.01-py3", "postgres:16"]),
    "runtime": st.booleans(),
    "reserve": st.sampled_from(["", "all", "2"]),
    "env": st.sampled_from(["", "map", "list"]),
    "nvidia_env": st.booleans(),
    "devices": st.sampled_from(["", "block", "flow"]),
    "shm": st.booleans(),
    "comment": st.booleans(),
})


def _compose(services: list[dict[str, Any]]) -> str:
    out = ["# generated compose file", "services:"]
    for n, s in enumerate(services):
        c = f"   # c{n}" if s["comment"] else ""
        out += [f"  s{n}:", f"    image: {s['image']}{c}"]
        if s["runtime"]:
            out.append(f"    runtime: nvidia{c}")
        if s["devices"] == "block":
            out += ["    devices:", "      - /dev/fuse"]
        elif s["devices"] == "flow":
            out.append("    devices: [/dev/fuse]")
        if s["env"] == "map":
            out += ["    environment:", "      MODEL: llama"]
            if s["nvidia_env"]:
                out.append(f"      NVIDIA_VISIBLE_DEVICES: all{c}")
        elif s["env"] == "list":
            out += ["    environment:", "      - MODEL=llama"]
            if s["nvidia_env"]:
                out.append(f"      - NVIDIA_VISIBLE_DEVICES=all{c}")
        if s["shm"]:
            out.append("    shm_size: 16gb")
        if s["reserve"]:
            out += ["    deploy:", "      resources:", "        reservations:", "          devices:",
                    f"            - driver: nvidia{c}", f"              count: {s['reserve']}",
                    "              capabilities: [gpu]"]
    return "\n".join(out) + "\n"


def _gpu(s: dict[str, Any]) -> bool:
    return bool(s["runtime"] or s["reserve"] or (s["env"] and s["nvidia_env"]))


def _comments(text: str) -> list[str]:
    return [line[line.index("#"):] for line in text.splitlines() if "#" in line]


@SETTINGS
@given(st.lists(service, min_size=1, max_size=3))
def test_compose_migration_properties(services: list[dict[str, Any]]) -> None:
    text = _compose(services)
    result = migrate_compose("docker-compose.yml", text, OPTIONS)
    assert not result.problems
    new = apply_edits(text, result.edits)
    stream = read_yaml(new)
    assert not stream.problems, new
    data = stream.documents[0].to_python()["services"]
    before = read_yaml(text).documents[0].to_python()["services"]
    for n, s in enumerate(services):
        got = data[f"s{n}"]
        if _gpu(s):
            assert {"/dev/kfd", "/dev/dri"} <= set(got["devices"]), new
            assert {"video", "render"} <= set(got["group_add"]) and got["ipc"] == "host"
            assert got["shm_size"] == ("16gb" if s["shm"] else "8G")
            assert "runtime" not in got and "deploy" not in got
            assert "NVIDIA_VISIBLE_DEVICES" not in str(got.get("environment", ""))
            if s["devices"]:
                assert "/dev/fuse" in got["devices"]
        else:
            assert {k: v for k, v in got.items() if k != "image"} == \
                {k: v for k, v in before[f"s{n}"].items() if k != "image"}
        assert "nvidia" not in got["image"]
    assert all(c in _comments(new) for c in _comments(text))
    assert not migrate_compose("docker-compose.yml", new, OPTIONS).edits


STAGE_BASES = ["nvidia/cuda:12.1.1-devel-ubuntu22.04", "nvidia/cuda:12.4.1-runtime-ubuntu22.04",
               "nvidia/cuda:12.1.1-base-ubuntu22.04", "nvcr.io/nvidia/pytorch:24.01-py3", "ubuntu:22.04", "s0"]
LINES = [
    "ENV CUDA_HOME=/usr/local/cuda",
    "ENV NVIDIA_VISIBLE_DEVICES=all",
    "ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility LANG=C.UTF-8",
    'ENV TORCH_CUDA_ARCH_LIST="8.0;9.0"',
    "RUN apt-get update && apt-get install -y --no-install-recommends git libnccl2 libnccl-dev \\\n"
    "    libcudnn8 cuda-toolkit-12-1 && rm -rf /var/lib/apt/lists/*",
    "RUN pip install --no-cache-dir torch --index-url https://download.pytorch.org/whl/cu121",
    "HEALTHCHECK CMD nvidia-smi || exit 1",
    "# a comment line",
    "WORKDIR /app",
]


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(STAGE_BASES), st.lists(st.sampled_from(LINES), max_size=5)),
                min_size=1, max_size=3))
def test_dockerfile_migration_properties(stages: list[tuple[str, list[str]]]) -> None:
    out = []
    for n, (base, lines) in enumerate(stages):
        base = base if base != "s0" or n > 0 else "ubuntu:22.04"
        out.append(f"FROM {base} AS s{n}")
        out += lines
    text = "\n".join(out) + "\n"
    result = migrate_dockerfile("Dockerfile", text, OPTIONS)
    assert not result.problems
    new = apply_edits(text, result.edits)
    df = read_dockerfile(new)
    assert not df.problems, new
    parsed = DockerfileParser(fileobj=io.BytesIO(new.encode()))
    assert [i["startline"] for i in parsed.structure if i["instruction"] != "COMMENT"] == \
        [i.line - 1 for i in df.instructions]
    for ins in df.instructions:
        assert not (ins.name == "FROM" and ("nvidia" in ins.value or "nvcr.io" in ins.value)), new
        assert "NVIDIA_VISIBLE_DEVICES" not in ins.value and "TORCH_CUDA_ARCH_LIST" not in ins.value
        assert "nvidia-smi" not in ins.value and "whl/cu121" not in ins.value and "libnccl" not in ins.value
    migrated = any(b.startswith("nv") for b, _ in stages)
    assert ("io.cuda2rocm.image.rocm" in new) == migrated
    assert [c.src for c in read_dockerfile(text).comments] == [c.src for c in df.comments if "cuda2rocm" not in c.src]
    assert not migrate_dockerfile("Dockerfile", new, OPTIONS).edits
