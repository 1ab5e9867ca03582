"""Issue 30, class 2: Python packages never stay CUDA builds silently. torch installed from PyPI by a Dockerfile or
script pip install gets the target stack's ROCm index; PyTorch's +cu wheel files become the ROCm index's pins;
nvidia-*-cu12 wheels are dropped; cupy-cuda12x is replaced only where a ROCm wheel exists for the target, else
reported without pointing at PyTorch's index; conda's pytorch pins move to the pip: list with the ROCm index."""

from __future__ import annotations

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.deploy import dockerfile, shell
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.pydeps import migrate_conda, migrate_requirements
from cuda2rocm.project.stack import decide
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.yamlnodes import read_yaml

STACK = decide(rocm="7.1.1")
DEPLOY = DeployOptions(rocm="7.1.1")
BUILD = BuildOptions(gfx=("gfx942",), rocm="7.1.1")
INDEX = STACK.index_url
WHEEL = "https://download.pytorch.org/whl/cu124/torch-2.4.1%2Bcu124-cp311-cp311-linux_x86_64.whl"


def _docker(run: str) -> tuple[str, list[tuple[str, str]]]:
    text = f"FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN {run}\n"
    done = dockerfile.migrate("Dockerfile", text, DEPLOY)
    out = apply_edits(text, done.edits)
    assert dockerfile.migrate("Dockerfile", out, DEPLOY).edits == ()  # a second run changes nothing
    return out.splitlines()[-1], [(f.rule, f.message) for f in done.findings]


def test_torch_from_pypi_in_a_dockerfile_gets_the_rocm_index() -> None:
    line, _ = _docker("pip install torch==2.4.1 torchvision")
    assert line == f"RUN pip install --index-url {INDEX} torch=={STACK.torch} torchvision"
    line, _ = _docker("pip install torch numpy")  # other packages still come from PyPI
    assert line == f"RUN pip install --extra-index-url {INDEX} torch numpy"


def test_nvidia_wheels_go_and_cupy_is_reported_without_pytorchs_index() -> None:
    line, findings = _docker("pip install nvidia-nccl-cu12==2.20.5 cupy-cuda12x numpy")
    assert line == "RUN pip install cupy-cuda12x numpy"
    assert any(rule == "C2R-B604" for rule, _ in findings)
    (cupy,) = [m for rule, m in findings if "cupy" in m]
    assert "download.pytorch.org" not in cupy and "7.1" in cupy


def test_a_cuda_wheel_url_becomes_the_rocm_pin() -> None:
    line, _ = _docker(f"pip install {WHEEL}")
    assert line == f"RUN pip install --index-url {INDEX} torch=={STACK.torch}{STACK.local_tag}"
    text = f"numpy\n{WHEEL}\n"
    done = migrate_requirements("requirements.txt", text, BUILD)
    assert apply_edits(text, done.edits) == f"numpy\ntorch=={STACK.torch}{STACK.local_tag}\n"


def test_a_script_pip_install_of_torch_gets_the_index() -> None:
    text = "#!/bin/bash\npip install torch==2.4.1 --no-cache-dir\n"
    done = shell.migrate("setup.sh", text, DEPLOY)
    assert apply_edits(text, done.edits).splitlines()[-1] == (
        f"pip install --index-url {INDEX} torch=={STACK.torch} --no-cache-dir")


def test_conda_pytorch_pins_move_to_pip_with_the_rocm_index() -> None:
    text = ("name: t\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.11\n  - pytorch=2.4.1\n"
            "  - torchvision\n  - pytorch-cuda=12.1\n  - numpy\n")
    done = migrate_conda("environment.yml", text, BUILD)
    new = apply_edits(text, done.edits)
    env = read_yaml(new).documents[0].to_python()
    pips = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pips[0] == f"--extra-index-url {INDEX}" and pips[1] == f"torch=={STACK.torch}"
    assert pips[2].startswith("torchvision==")
    assert not any(str(d).startswith(("pytorch", "torchvision")) for d in env["dependencies"])
    assert any("moved to the pip: list" in f.message for f in done.findings)  # and says so
    assert migrate_conda("environment.yml", new, BUILD).edits == ()


def test_a_conda_install_of_pytorch_in_a_dockerfile_names_the_pip_line() -> None:
    _, findings = _docker("conda install -y pytorch torchvision -c pytorch")
    (message,) = [m for rule, m in findings if rule == "C2R-M109"]
    assert f"pip install --index-url {INDEX} torch=={STACK.torch} torchvision==" in message
