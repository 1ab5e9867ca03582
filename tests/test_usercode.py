"""The user's own module is found from the working directory, as `python -m` finds it (issue 18: the README's
`cuda2rocm capture mymodel:factory` failed beside mymodel.py with "No module named 'mymodel'"; so did
`bench run --callable`).

The CLI runs the way the console script runs it: a launcher script in another directory, so `sys.path[0]` is
that directory and not the working directory (`python -m` and `python -c` would add the latter themselves).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.usercode import import_user_module, on_import_path, run_user_script

SRC = Path(__file__).resolve().parents[1] / "src"
MODEL = """import torch

def factory():
    torch.manual_seed(0)
    return torch.nn.Linear(3, 2), torch.ones(1, 3)

def work():
    return sum(range(1000))
"""


def _console(tmp_path: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    launcher = tmp_path / "bin" / "cuda2rocm_launcher.py"
    launcher.parent.mkdir(exist_ok=True)
    launcher.write_text("import sys\nfrom cuda2rocm.cli.main import main\nsys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"}
    return subprocess.run([sys.executable, str(launcher), *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300, check=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "mymodel.py").write_text(MODEL)
    return proj


def test_capture_finds_the_model_in_the_working_directory(tmp_path: Path, project: Path) -> None:
    done = _console(tmp_path, project, "capture", "mymodel:factory", "-o", "cap")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((project / "cap" / "manifest.json").read_text())
    assert "output" in json.dumps(manifest)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _console(tmp_path, elsewhere, "capture", "mymodel:factory", "-o", "cap")
    assert done.returncode == 2 and "No module named 'mymodel'" in done.stderr  # only the working directory


def test_bench_callable_finds_the_module_in_the_working_directory(tmp_path: Path, project: Path) -> None:
    done = _console(tmp_path, project, "bench", "run", "--callable", "mymodel:work", "-n", "2", "--warmup", "0",
                    "-o", "run.jsonl")
    assert done.returncode == 0, done.stderr
    record = json.loads((project / "run.jsonl").read_text().splitlines()[0])
    assert record["metric"] == "mymodel:work/time_s" and len(record["values"]) == 2


def test_a_script_finds_its_sibling_modules(tmp_path: Path) -> None:
    (tmp_path / "helper_mod_c2r.py").write_text("VALUE = 42\n")
    script = tmp_path / "script.py"
    script.write_text("import helper_mod_c2r\nANSWER = helper_mod_c2r.VALUE\n")
    assert run_user_script(script, "__test__")["ANSWER"] == 42
    assert str(tmp_path) not in sys.path
    sys.modules.pop("helper_mod_c2r", None)


def test_the_path_entry_is_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cwd_mod_c2r.py").write_text("X = 1\n")
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    assert import_user_module("cwd_mod_c2r").X == 1
    assert sys.path == before
    sys.modules.pop("cwd_mod_c2r", None)
    monkeypatch.syspath_prepend(str(tmp_path))
    with on_import_path(tmp_path):
        pass
    assert str(tmp_path) in sys.path  # it was there before: left alone
