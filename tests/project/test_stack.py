"""One target stack, decided once (project/stack.py): ``migrate`` prints it once, every file it writes agrees with
it, the envelopes record it, and a file that pins another ROCm or PyTorch is a finding naming both."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm import knowledge
from cuda2rocm.knowledge import wheels
from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_file
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import migrate_file as deploy_file
from cuda2rocm.project.stack import DEFAULT_GFX, TargetError, decide, default_rocm, resolve_targets

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "llm-service"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "cuda2rocm", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def test_default_rocm_is_the_newest_release_with_an_index_of_its_own() -> None:
    rocm, why = default_rocm()
    releases = list(knowledge.rocm_releases())
    assert wheels.index_for(rocm).exact
    newer = releases[:releases.index(rocm)]
    assert all(not wheels.index_for(r).exact for r in newer)  # nothing newer has an index of its own
    if newer:
        assert newer[0] in why


def test_decide_names_each_choice_and_its_source() -> None:
    stack = decide()
    assert stack.gfx == DEFAULT_GFX and stack.rocm == default_rocm()[0]
    index = wheels.index_for(stack.rocm).index
    assert (stack.torch, stack.index_url, stack.index_exact) == (index.torch[0], index.url, True)
    assert [what for what, _ in stack.reasons][:3] == ["AMD targets", "ROCm", "PyTorch"]
    given = decide(gfx=("gfx908",), gfx_from="--offload-arch", rocm="7.2.3", rocm_from="--target-rocm")
    lines = given.describe()
    assert "gfx908 (--offload-arch)" in lines[0] and "7.2.3 (--target-rocm)" in lines[1]
    assert not given.index_exact and "the nearest stands in" in lines[2]
    assert given.to_data()["torch_index"] == wheels.index_for("7.2.3").index.url


def test_decide_warns_about_targets_the_release_does_not_list() -> None:
    release = knowledge.get_release(default_rocm()[0])
    assert release is not None and "gfx906" not in release.gfx_targets
    assert "does not list gfx906" in decide(gfx=("gfx906",)).describe()[1]


def test_targets_resolve_through_one_function() -> None:
    assert resolve_targets() == DEFAULT_GFX
    assert resolve_targets("gfx942,gfx90a") == ("gfx942", "gfx90a")
    assert resolve_targets(target_gpu="MI300X") == ("gfx942",)
    with pytest.raises(TargetError):
        resolve_targets("gfx9999")


def test_build_and_deploy_options_share_the_stack() -> None:
    assert BuildOptions(gfx=DEFAULT_GFX).stack == DeployOptions().stack == decide()
    assert DeployOptions().rocm_version == BuildOptions().stack.rocm == default_rocm()[0]


def _rocm_versions(text: str) -> set[str]:
    """Every ROCm release a migrated file names (image tags, labels, wheel indexes, local versions)."""
    found = set(re.findall(r"rocm/dev-[\w.-]+:(\d+\.\d+(?:\.\d+)?)", text))
    found |= set(re.findall(r"image\.rocm=\"(\d+\.\d+(?:\.\d+)?)\"", text))
    found |= set(re.findall(r"whl/rocm(\d+\.\d+(?:\.\d+)?)", text))
    found |= set(re.findall(r"\+rocm(\d+\.\d+(?:\.\d+)?)", text))
    return found


def test_migrate_prints_the_stack_once_and_every_file_agrees(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    assert done.stderr.count("target stack:") == 1
    stack = decide()
    assert f"ROCm: {stack.rocm} (" in done.stderr and f"PyTorch: {stack.torch} from {stack.index_url}" in done.stderr
    # every file written names the stack's ROCm (or its index's series) and nothing else
    series = {stack.rocm, wheels.index_for(stack.rocm).index.rocm}
    named: dict[str, set[str]] = {}
    for path in out.rglob("*"):
        if path.is_file() and ".cuda2rocm-migrate" not in path.parts:
            hits = _rocm_versions(path.read_text(errors="replace"))
            if hits:
                named[path.relative_to(out).as_posix()] = hits
    assert {"Dockerfile", "requirements.txt", ".github/workflows/gpu-tests.yml"} <= set(named)
    assert all(hits <= series for hits in named.values()), named
    requirements = (out / "requirements.txt").read_text()
    assert f"torch=={stack.torch}{stack.local_tag}" in requirements and stack.index_url in requirements
    docker = (out / "Dockerfile").read_text()
    assert f'io.cuda2rocm.image.gpu-targets="{";".join(stack.gfx)}"' in docker
    assert f'PYTORCH_ROCM_ARCH="{";".join(stack.gfx)}"' in docker
    assert f"CMAKE_HIP_ARCHITECTURES {';'.join(stack.gfx)}" in (out / "libgemm" / "CMakeLists.txt").read_text()
    # the build and deploy envelopes record the stack they wrote for, and convert translated for its ROCm
    state = out / ".cuda2rocm-migrate"
    recorded = {}
    for env_file in state.rglob("*.json"):
        data = json.loads(env_file.read_text())
        payload = data.get("payload") if isinstance(data, dict) else None
        if isinstance(payload, dict) and isinstance(payload.get("options"), dict):
            recorded[data.get("kind")] = payload["options"]
    assert recorded["migrate-build"]["stack"] == recorded["migrate-deploy"]["stack"] == json.loads(
        json.dumps(stack.to_data()))


def test_toml_target_rocm_is_the_stack_of_build_and_deploy(tmp_path: Path) -> None:
    (tmp_path / "cuda2rocm.toml").write_text('target-rocm = "6.4.1"\n')
    (tmp_path / "requirements.txt").write_text("--extra-index-url https://download.pytorch.org/whl/cu121\n"
                                               "torch==2.1.2+cu121\n")
    (tmp_path / "Dockerfile").write_text("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n")
    build = _cli("migrate", "build", ".", cwd=tmp_path)
    deploy = _cli("migrate", "deploy", ".", cwd=tmp_path)
    for done in (build, deploy):
        assert "ROCm: 6.4.1 (target-rocm in cuda2rocm.toml)" in done.stderr, done.stderr
    assert "whl/rocm6.4" in build.stdout and "+rocm6.4" in build.stdout
    assert "rocm/dev-ubuntu-22.04:6.4.1" in deploy.stdout


def test_a_rocm_pytorch_base_with_another_pytorch_is_a_finding_naming_both() -> None:
    text = ("FROM pytorch/pytorch:2.1.2-cuda12.1-cudnn8-devel\nCOPY requirements.txt .\n"
            "RUN pip install -r requirements.txt\n")
    stack = decide()
    found = [f for f in deploy_file("Dockerfile", text, DeployOptions()).findings if f.rule == "C2R-M112"]
    assert stack.image_torch and stack.torch_differs(stack.image_torch)
    assert len(found) == 1 and found[0].line == 3
    assert stack.image_torch in found[0].message and stack.torch in found[0].message
    # no install of torch or requirements: nothing to say
    quiet = text.replace("-r requirements.txt", "numpy")
    assert "C2R-M112" not in {f.rule for f in deploy_file("Dockerfile", quiet, DeployOptions()).findings}


def test_a_rocm_image_of_another_release_is_a_finding_and_keeps_its_labels() -> None:
    text = "FROM rocm/dev-ubuntu-22.04:6.2-complete\nRUN pip install numpy\n"
    result = deploy_file("Dockerfile", text, DeployOptions())
    found = [f for f in result.findings if f.rule == "C2R-M112"]
    assert len(found) == 1 and "ROCm 6.2" in found[0].message and decide().rocm in found[0].message
    same = deploy_file("Dockerfile", text, DeployOptions(rocm="6.2.0"))
    assert "C2R-M112" not in {f.rule for f in same.findings}


def test_a_requirements_file_on_another_rocm_index_is_a_finding_naming_both() -> None:
    text = "--extra-index-url https://download.pytorch.org/whl/rocm6.2\ntorch==2.5.1+rocm6.2\n"
    result = migrate_file("requirements.txt", text, BuildOptions())
    found = [f for f in result.findings if f.rule == "C2R-B611"]
    assert len(found) == 1 and "ROCm 6.2 index" in found[0].message and decide().index_url in found[0].message
    assert not result.edits  # its pins follow its own index: nothing rewritten
    same = migrate_file("requirements.txt", text, BuildOptions(rocm="6.2.1"))  # its series: the same index
    assert "C2R-B611" not in {f.rule for f in same.findings}
