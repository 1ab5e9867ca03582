"""Minimal cases of the shapes public GPU projects' deployment files take (written for these tests; the shapes, not
the files, come from public Dockerfiles, compose files, Kubernetes manifests, Helm charts, CI definitions and
launch scripts: docs/migrate.md, "Checked against public deployment files"). Each pins what a ROCm engineer
expects: the exact rewritten lines, and the file still reads (YAML with the safe loader and, for Kubernetes,
kubernetes-validate; scripts with ``bash -n``; Dockerfiles with dockerfile-parse)."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from ruamel.yaml import YAML

from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.environment import smi_change
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import migrate_file
from cuda2rocm.source.edits import apply_edits

OPTIONS = DeployOptions()
ROCM_FLAGS = ("--device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render "
              "--security-opt=seccomp=unconfined")


def _run(rel: str, text: str) -> tuple[str, FileMigration]:
    result = migrate_file(rel, text, OPTIONS)
    assert not result.problems, result.problems
    new = apply_edits(text, result.edits)
    again = migrate_file(rel, new, OPTIONS)
    assert apply_edits(new, again.edits) == new, "a second run changes nothing"
    return new, result


def _rules(result: FileMigration) -> set[str]:
    return {f.rule for f in result.findings}


def _yaml(text: str) -> list[object]:
    return list(YAML(typ="safe", pure=True).load_all(text))


def _bash_n(text: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    done = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr


def _dockerfile(text: str) -> list[dict[str, str]]:
    from dockerfile_parse import DockerfileParser

    parser = DockerfileParser(fileobj=io.BytesIO(text.encode()))
    structure: list[dict[str, str]] = parser.structure
    return structure


# ---- Dockerfiles ----------------------------------------------------------------------------------------------


def test_cuda_library_paths_become_rocm_lib() -> None:
    """``ENV LD_LIBRARY_PATH`` with the toolkit's lib64 and CUPTI's extras directory (TensorFlow-style images):
    ROCm's libraries are in /opt/rocm/lib; /opt/rocm/lib64 and /opt/rocm/extras/CUPTI do not exist."""
    text = ("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
            "ENV LD_LIBRARY_PATH /usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64:$LD_LIBRARY_PATH\n")
    new, _ = _run("Dockerfile", text)
    assert "ENV LD_LIBRARY_PATH /opt/rocm/lib:/opt/rocm/lib:$LD_LIBRARY_PATH\n" in new
    assert _dockerfile(new)[0]["instruction"] == "FROM"


def test_cuda10_math_packages_and_tensorrt() -> None:
    """CUDA 10 package names (``cuda-cublas-10-0``) map like their later ``libcublas`` names; TensorRT packages
    are reported (MIGraphX is another API), never silently kept."""
    text = ("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
            "RUN apt-get update && apt-get install -y cuda-cublas-dev-10-0 cuda-cufft-10-0 libnvinfer8 git\n")
    new, result = _run("Dockerfile", text)
    assert "apt-get install -y hipblas-dev hipfft libnvinfer8 git\n" in new
    assert [f.message.split(":")[0] for f in result.findings if f.rule == "C2R-M104" and f.remedy is None] == [
        "libnvinfer8"]


def test_ngc_entrypoint_is_reported() -> None:
    """NGC images start through /opt/nvidia/nvidia_entrypoint.sh: on the ROCm image it does not exist."""
    text = "FROM nvcr.io/nvidia/pytorch:24.01-py3\nENTRYPOINT [\"/opt/nvidia/nvidia_entrypoint.sh\"]\n"
    _, result = _run("Dockerfile", text)
    assert any(f.rule == "C2R-M102" and "nvidia_entrypoint" in f.message and f.line == 2 for f in result.findings)


def test_conda_cuda_builds_are_reported() -> None:
    text = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUN conda install -y pytorch pytorch-cuda=12.1 -c nvidia\n"
    _, result = _run("Dockerfile", text)
    assert [f.line for f in result.findings if f.rule == "C2R-M109"] == [2]


def test_cuda_local_version_without_a_rocm_index_gets_the_rocm_index() -> None:
    """``torch==2.1.0+cu121 -f .../torch_stable.html``: dropping +cu121 alone would install PyPI's CUDA wheel, so
    the pin becomes the ROCm index's build and the index is added (issue 30: never a CUDA build, silently)."""
    text = ("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
            "RUN pip install torch==2.1.0+cu121 -f https://download.pytorch.org/whl/torch_stable.html\n")
    new, result = _run("Dockerfile", text)
    assert "+cu121" not in new and "+rocm" in new and "--index-url https://download.pytorch.org/whl/rocm" in new
    assert {"C2R-B601", "C2R-M109"} <= {f.rule for f in result.findings}


def test_nvidia_smi_query_in_a_run_step_goes_through_the_one_mapping() -> None:
    """A query of one amd-smi subcommand is rewritten as scripts rewrite it; a redirection stays."""
    text = ("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"
            "RUN nvidia-smi --query-gpu=memory.total --format=csv > /tmp/gpus.csv && nvidia-smi -L\n")
    new, _ = _run("Dockerfile", text)
    assert "RUN amd-smi metric --mem-usage --csv > /tmp/gpus.csv && amd-smi list\n" in new


# ---- docker run (scripts and CI) ----------------------------------------------------------------------------


def test_gpus_after_options_with_values() -> None:
    """``-v SRC:DST`` / ``-p 8000:8000`` before ``--gpus``: an option's value is not the image (it was taken for
    it, and --gpus was left); the NVIDIA image becomes its ROCm image."""
    text = ("#!/bin/bash\ndocker run --rm -v /data:/data -p 8000:8000 --gpus all "
            "nvidia/cuda:12.1.0-base-ubuntu22.04 ls\n")
    new, _ = _run("run.sh", text)
    assert new == ("#!/bin/bash\ndocker run --rm -v /data:/data -p 8000:8000 "
                   f"{ROCM_FLAGS} --ipc=host --shm-size=8G rocm/dev-ubuntu-22.04:{OPTIONS.rocm_version} ls\n")
    _bash_n(new)


def test_unmapped_nvidia_image_in_docker_run_is_reported() -> None:
    text = "docker run --gpus all --name x nvcr.io/nvidia/tritonserver:24.01-py3 tritonserver\n"
    new, result = _run("serve.sh", text)
    assert "nvcr.io/nvidia/tritonserver:24.01-py3" in new
    assert any(f.rule == "C2R-M409" and "tritonserver" in f.message for f in result.findings)


# ---- compose --------------------------------------------------------------------------------------------------


def test_compose_nvidia_device_files_are_replaced() -> None:
    """``devices: [/dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm]`` (older GPU compose files): the files do not
    exist on an AMD host and docker refuses to start the service; the ROCm device files take their place."""
    text = ("services:\n  app:\n    image: nvidia/cuda:12.1.0-base-ubuntu22.04\n    devices:\n"
            "      - /dev/nvidia0:/dev/nvidia0\n      - /dev/nvidiactl\n      - /dev/nvidia-uvm\n"
            "    command: python serve.py\n")
    new, _ = _run("docker-compose.yml", text)
    service = _yaml(new)[0]["services"]["app"]  # type: ignore[index]
    assert service["devices"] == ["/dev/kfd", "/dev/dri"]
    assert service["group_add"] == ["video", "render"] and service["command"] == "python serve.py"


def test_compose_runtime_with_devices_and_env_list() -> None:
    text = ("services:\n  m:\n    runtime: nvidia\n    image: app:1\n    devices:\n      - /dev/nvidia0\n"
            "    environment:\n      - NVIDIA_VISIBLE_DEVICES=all\n      - CUDA_VISIBLE_DEVICES=0\n")
    new, _ = _run("compose.yaml", text)
    service = _yaml(new)[0]["services"]["m"]  # type: ignore[index]
    assert "runtime" not in service and service["devices"] == ["/dev/kfd", "/dev/dri"]
    assert service["environment"] == ["HIP_VISIBLE_DEVICES=0"]  # through env_change, as in every deploy file


# ---- Kubernetes and Helm --------------------------------------------------------------------------------------

DCGM = """apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: dcgm-exporter
spec:
  selector:
    matchLabels:
      app: dcgm-exporter
  template:
    metadata:
      labels:
        app: dcgm-exporter
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "9400"
    spec:
      containers:
      - name: exporter
        image: nvcr.io/nvidia/k8s/dcgm-exporter:3.1.8-3.1.5-ubuntu20.04
        ports:
        - name: metrics
          containerPort: 9400
"""


def test_dcgm_scrape_annotation_follows_the_port() -> None:
    """The exporter's port becomes 5000: the prometheus.io/port annotation must say the same, or Prometheus
    scrapes a port nothing listens on."""
    kv = pytest.importorskip("kubernetes_validate")
    new, _ = _run("k8s/dcgm.yaml", DCGM)
    (doc,) = _yaml(new)
    assert doc["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == "5000"  # type: ignore[index]
    assert doc["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] == 5000  # type: ignore[index]
    kv.validate(doc, "1.30", strict=True)


def test_helm_key_beside_an_action_is_rewritten() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  containers:\n"
            "    - name: c\n      image: app:1\n      resources:\n        limits:\n"
            "          nvidia.com/gpu: {{ .Values.gpus | default 1 }}\n")
    new, result = _run("chart/templates/pod.yaml", text)
    assert new == text.replace("nvidia.com/gpu: {{", "amd.com/gpu: {{")
    assert "C2R-M306" not in _rules(result)


def test_helm_action_inside_the_edit_is_left_and_reported() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector:\n"
            "    nvidia.com/gpu.product: {{ .Values.product }}\n  containers:\n    - name: c\n      image: app:1\n")
    new, result = _run("chart/templates/pod.yaml", text)
    assert new == text and "C2R-M306" in _rules(result)


def test_helm_values_image_repository_is_reported() -> None:
    text = ("image:\n  repository: nvcr.io/nvidia/pytorch\n  tag: 24.01-py3\n"
            "resources:\n  limits:\n    nvidia.com/gpu: 1\n")
    new, result = _run("chart/values.yaml", text)
    assert _yaml(new) == [{"image": {"repository": "nvcr.io/nvidia/pytorch", "tag": "24.01-py3"},
                           "resources": {"limits": {"amd.com/gpu": 1}}}]
    assert any(f.rule == "C2R-M307" and f.line == 2 for f in result.findings)


def test_container_running_nvidia_smi_is_reported() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n"
            "      image: app:1\n      command: [\"nvidia-smi\"]\n")
    _, result = _run("k8s/pod.yaml", text)
    assert [f.line for f in result.findings if f.rule == "C2R-M407"] == [9]


# ---- CI -------------------------------------------------------------------------------------------------------


def test_github_rocm_job_rewrites_wheel_index_and_docker_run() -> None:
    text = ("on: [push]\njobs:\n  test:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
            "      - run: pip install torch --index-url https://download.pytorch.org/whl/cu121\n"
            "      - run: docker run --rm -v $PWD:/w --gpus all nvidia/cuda:12.1.0-base-ubuntu22.04 ls\n")
    new, _ = _run(".github/workflows/gpu.yml", text)
    rocm = _yaml(new)[0]["jobs"]["test-rocm"]  # type: ignore[index]
    runs = [s["run"] for s in rocm["steps"]]
    assert "download.pytorch.org/whl/rocm" in runs[0] and "cu121" not in runs[0]
    assert "--gpus" not in runs[1] and "--device=/dev/kfd" in runs[1] and "rocm/dev-ubuntu-22.04" in runs[1]
    assert new.startswith(text)  # the CUDA job stays as it was


def test_github_container_env_is_reviewed() -> None:
    """GPU runners that pass ``container.env.NVIDIA_VISIBLE_DEVICES: ${{ env.NVIDIA_VISIBLE_DEVICES }}``: the copy
    keeps the expression as written and says the variable is the NVIDIA runtime's."""
    text = ("on: [push]\njobs:\n  gpu:\n    runs-on: linux-amd64-gpu-v100-latest-1\n    container:\n"
            "      image: nvidia/cuda:12.0.0-base-ubuntu22.04\n      env:\n"
            "        NVIDIA_VISIBLE_DEVICES: ${{ env.NVIDIA_VISIBLE_DEVICES }}\n    steps:\n      - run: nvidia-smi\n")
    new, result = _run(".github/workflows/gpu.yml", text)
    assert [f.line for f in result.findings if f.rule == "C2R-M603"] == [8]
    rocm = _yaml(new)[0]["jobs"]["gpu-rocm"]  # type: ignore[index]
    assert rocm["steps"] == [{"run": "amd-smi list"}] and rocm["container"]["image"].startswith("rocm/")


# ---- launch scripts -------------------------------------------------------------------------------------------


def test_backquoted_nvidia_smi_is_migrated() -> None:
    text = "#!/bin/bash\nMEM=`nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1`\n"
    new, _ = _run("job.sh", text)
    assert new == "#!/bin/bash\nMEM=`amd-smi metric --mem-usage --csv | tail -n +2 | head -1`\n"
    _bash_n(new)


def test_noheader_query_counted_through_a_pipe() -> None:
    """``$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)`` counts GPUs: amd-smi's CSV header is dropped
    so the count stays right."""
    text = "N=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)\n"
    new, result = _run("run.sh", text)
    assert new == "N=$(amd-smi static --asic --csv | tail -n +2 | wc -l)\n"
    assert "C2R-M408" not in _rules(result)
    _bash_n(new)


def test_script_pip_wheel_index() -> None:
    text = "set -e\npip install torch torchvision --index-url https://download.pytorch.org/whl/cu118\n"
    new, result = _run("setup.sh", text)
    assert "--index-url https://download.pytorch.org/whl/rocm" in new and "C2R-M413" in _rules(result)
    _bash_n(new)


# ---- the one nvidia-smi mapping -------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "probe", "expected"), [
    (["nvidia-smi"], True, ("amd-smi", "list")),
    (["nvidia-smi", "-L"], True, ("amd-smi", "list")),
    (["nvidia-smi", "-L"], False, ("amd-smi", "list", "--csv")),
    (["nvidia-smi"], False, ("amd-smi",)),
    (["nvidia-smi", "--query-gpu=memory.total", "--format=csv"], True, ("amd-smi", "metric", "--mem-usage", "--csv")),
])
def test_smi_change_serves_scripts_dockerfiles_and_ci(argv: list[str], probe: bool,
                                                      expected: tuple[str, ...]) -> None:
    assert smi_change(argv, probe=probe).argv == expected
