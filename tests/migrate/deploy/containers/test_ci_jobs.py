"""Issue 30, class 6: which runner and container a copied ROCm CI job gets. A compile-only job (no GPU test runs)
gets the ROCm container on its own hosted runner, without device options; GPU runners only for jobs that run GPU
tests; no CUDA-toolkit install step in the ROCm job; the ROCm job's own cache key. The migrated workflow is
validated against GitHub's workflow schema (check-jsonschema's vendored copy) and read back for its structure."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cuda2rocm.migrate.deploy.ci import migrate as migrate_ci
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.yamlnodes import read_yaml

WORKFLOW = Path(__file__).parent / "golden" / "github_compile_only.yml"
OPTIONS = DeployOptions(rocm="6.4.1", os="ubuntu22.04", gfx=("gfx90a", "gfx942"))


def _migrated() -> tuple[str, dict[str, Any]]:
    text = WORKFLOW.read_text()
    new = apply_edits(text, migrate_ci(".github/workflows/ci.yml", text, OPTIONS).edits)
    stream = read_yaml(new)
    assert not stream.problems
    return new, stream.documents[0].to_python()["jobs"]


def _uses(job: dict[str, Any]) -> list[str]:
    return [str(step.get("uses", "")) for step in job["steps"]]


def test_a_compile_only_job_keeps_its_hosted_runner_and_gets_no_devices() -> None:
    _, jobs = _migrated()
    for name, runner in (("build", "ubuntu-22.04"), ("compile-in-container", "ubuntu-latest")):
        rocm = jobs[f"{name}-rocm"]
        assert rocm["runs-on"] == runner == jobs[name]["runs-on"]
        assert rocm["container"] == {"image": "rocm/dev-ubuntu-22.04:6.4.1-complete"}  # no --device options
    assert jobs["compile-in-container"]["container"] == "nvidia/cuda:12.4.1-devel-ubuntu22.04"  # CUDA job kept


def test_gpu_runners_only_for_jobs_that_run_gpu_tests() -> None:
    _, jobs = _migrated()
    gpu = jobs["gpu-tests-rocm"]
    assert gpu["runs-on"] == ["self-hosted", "linux", "rocm"]
    assert gpu["container"]["options"].startswith("--device=/dev/kfd --device=/dev/dri")
    assert "lint-rocm" not in jobs


def test_no_cuda_toolkit_step_and_an_own_cache_key_in_the_rocm_job() -> None:
    new, jobs = _migrated()
    assert any(u.startswith("Jimver/cuda-toolkit") for u in _uses(jobs["build"]))  # the CUDA job keeps it
    rocm = jobs["build-rocm"]
    assert not any("cuda-toolkit" in u for u in _uses(rocm))
    assert all("cuda" not in str(step.get("with", {})) for step in rocm["steps"])  # cuda: '12.1.0' went with it
    cuda_cache = next(s["with"] for s in jobs["build"]["steps"] if str(s.get("uses", "")).startswith("actions/cache"))
    rocm_cache = next(s["with"] for s in rocm["steps"] if str(s.get("uses", "")).startswith("actions/cache"))
    assert rocm_cache["key"] == "rocm-" + cuda_cache["key"]
    assert rocm_cache["restore-keys"] == "rocm-" + cuda_cache["restore-keys"]
    assert migrate_ci(".github/workflows/ci.yml", new, OPTIONS).edits == ()  # a second run adds nothing


@pytest.mark.skipif(shutil.which("check-jsonschema") is None, reason="check-jsonschema is not installed")
def test_the_migrated_workflow_validates_against_the_github_workflow_schema(tmp_path: Path) -> None:
    new, _ = _migrated()
    out = tmp_path / "ci.yml"
    out.write_text(new, encoding="utf-8")
    proc = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(out)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_compile_only_gitlab_job_keeps_its_runners() -> None:
    text = ("build:\n  image: nvidia/cuda:12.4.1-devel-ubuntu22.04\n  script:\n    - make -j\n"
            "gpu:\n  image: nvidia/cuda:12.4.1-devel-ubuntu22.04\n  tags: [gpu]\n  script:\n    - ctest\n")
    done = migrate_ci(".gitlab-ci.yml", text, OPTIONS)
    data = read_yaml(apply_edits(text, done.edits)).documents[0].to_python()
    assert "tags" not in data["build-rocm"] and data["gpu-rocm"]["tags"] == ["self-hosted", "linux", "rocm"]
    messages = {f.message.split(":")[0]: f.message for f in done.findings if f.rule == "C2R-M602"}
    assert "config.toml" not in messages["build"] and "config.toml" in messages["gpu"]
