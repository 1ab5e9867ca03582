"""Without PyTorch (an optional extra) every --help works and the commands that need it say what to install.

The CLI runs in a subprocess whose import system refuses ``torch`` (a meta-path finder raising ImportError),
as on a machine where ``pip install cuda2rocm`` was run without ``[torch]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.cli.main import SUBCOMMANDS

SRC = Path(__file__).resolve().parents[1] / "src"
SHIM = """
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}", name="torch")
        return None

sys.meta_path.insert(0, NoTorch())
from cuda2rocm.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def run_without_torch(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-c", SHIM, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120, check=False)


def test_the_shim_really_hides_torch() -> None:
    done = subprocess.run([sys.executable, "-c", SHIM.replace("from cuda2rocm.cli.main import main\n", "")
                           .replace("sys.exit(main(sys.argv[1:]))", "import torch")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "No module named 'torch'" in done.stderr


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_help_works_without_torch(name: str) -> None:
    done = run_without_torch(name, "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage: " in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [("capture", "mymodel:factory", "-o", "cap"), ("smoke", "mymodel:factory"),
                                  ("comm", "--nproc", "2"), ("comm", "--nproc", "2", "--backend", "gloo")])
def test_commands_that_need_torch_say_what_to_install(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = run_without_torch(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "ModuleNotFoundError" not in done.stderr
    assert f"`cuda2rocm {args[0]}` needs PyTorch" in done.stderr
    assert "pip install 'cuda2rocm[torch]'" in done.stderr
    assert not (tmp_path / "cap").exists()


def test_comm_compare_needs_no_torch(tmp_path: Path) -> None:
    results = Path(__file__).resolve().parents[1] / "benchmarks/results/comm-h200x2-2026-11-30"
    done = run_without_torch("comm", "--compare", str(results / "first-run/allreduce.jsonl"),
                             str(results / "allreduce.jsonl"), "--threshold", "*busbw_gbps>=0.5x")
    assert done.returncode == 0, done.stderr
    assert "ok=42" in done.stdout


def test_comm_names_match_the_torch_tables() -> None:
    from cuda2rocm.perf import collectives, commbench, commnames

    assert tuple(collectives._BUILDERS) == commnames.COLLECTIVES == collectives.COLLECTIVES
    assert tuple(commbench.DTYPES) == commnames.DTYPES
