"""Issue 30, class 4: a migrated setup.py still runs. Each setup.py fixture of tests/migrate is migrated, then run
(``setup.py --name``, as pip's metadata step runs it) against a stand-in ROCm PyTorch first on sys.path
(tests/migrate/rocm_torch: CUDA_HOME None, ROCM_HOME set, torch.version.cuda None, extensions that record their
arguments): it must not crash, and no nvcc-only option (-gencode, --ptxas-options, an arch=compute_ value) may
reach the recorded ``extra_compile_args``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.source.edits import apply_edits

HERE = Path(__file__).parent
STAND_IN = HERE / "rocm_torch"
FIXTURES = sorted([*(HERE / "golden").glob("*.py"), *(HERE / "projects").rglob("setup.py")])
#: names a fixture uses without defining them (goldens of a computed or unknown value): given to the run
MISSING = {"ext_setup.py": "def nvcc_flags():\n    return ['-O3']\n"}
#: fixtures that crash on ROCm before migration (the stand-in reproduces the crash)
CRASH_BEFORE = {"version_check_setup.py", "arch_loop_setup.py", "env_checks.py", "local_cuda_home.py"}
NVCC_ONLY = ("-gencode", "--generate-code", "--ptxas-options", "-Xptxas", "arch=compute_", "code=sm_",
             "--use_fast_math", "--expt-relaxed-constexpr", "-lineinfo")


def _ids(path: Path) -> str:
    return path.name if path.parent.name == "golden" else f"{path.parent.name}/{path.name}"


def _run(text: str, name: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], list[dict[str, object]]]:
    folder = tmp_path / "project"
    folder.mkdir(exist_ok=True)
    (folder / "setup.py").write_text(MISSING.get(name, "") + text, encoding="utf-8")
    record = tmp_path / "extensions.json"
    record.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(STAND_IN), os.environ.get("PYTHONPATH", "")]),
           "C2R_EXTENSION_RECORD": str(record)}
    env.pop("CUDA_HOME", None)
    env.pop("CUDA_PATH", None)
    proc = subprocess.run([sys.executable, "setup.py", "--name"], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    return proc, json.loads(record.read_text()) if record.exists() else []


def test_the_stand_in_is_what_a_rocm_build_of_pytorch_says(tmp_path: Path) -> None:
    probe = ("import torch, torch.utils.cpp_extension as c\n"
             "print(torch.version.cuda, bool(torch.version.hip), c.CUDA_HOME, c.ROCM_HOME, c.IS_HIP_EXTENSION)\n")
    env = {**os.environ, "PYTHONPATH": str(STAND_IN)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["None", "True", "None", "/opt/rocm", "True"]


@pytest.mark.parametrize("path", FIXTURES, ids=_ids)
def test_a_migrated_setup_py_runs_against_rocm_pytorch(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rel = "setup.py"
    renames = {"csrc/reduce.cu": "csrc/reduce.hip"} if path.name == "renamed_sources.py" else {}
    done = migrate_setup_py(rel, text, BuildOptions(gfx=("gfx90a", "gfx942"), renames=renames))
    new = apply_edits(text, done.edits)
    before, _ = _run(text, path.name, tmp_path)
    if path.name in CRASH_BEFORE:
        assert before.returncode != 0, "the stand-in should reproduce the crash of the original on ROCm"
    proc, extensions = _run(new, path.name, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    args = json.dumps([e.get("extra_compile_args", {}) for e in extensions])
    assert not [w for w in NVCC_ONLY if w in args], args
    if "setup(" in text:
        assert proc.stdout.strip().splitlines()[-1] == _name(text)
    # and a second migration changes nothing
    assert migrate_setup_py(rel, new, BuildOptions(gfx=("gfx90a", "gfx942"), renames=renames)).edits == ()


def _name(text: str) -> str:
    import ast

    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setup":
            for kw in node.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                    return str(kw.value.value)
    return "UNKNOWN"
