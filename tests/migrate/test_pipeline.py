"""`cuda2rocm migrate PATH -o OUT`: the static pipeline end to end on the bundled example, the input never
touched, and runs killed with SIGKILL at several points that resume to exactly the uninterrupted output."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.migrate import pipeline

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples/llm-service"
STATE = pipeline.JOURNAL_DIR


def tree(root: Path, skip: str = STATE) -> dict[str, str]:
    """rel path -> sha256 and mode of every file (``skip``: a top-level folder left out)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and rel.split("/")[0] != skip:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest() + oct(path.stat().st_mode & 0o777)
    return out


def cli(*args: str, kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop(pipeline.KILL_HOOK, None)
    if kill_at:
        env[pipeline.KILL_HOOK] = kill_at
    return subprocess.run([sys.executable, "-m", "cuda2rocm", "--no-record", *args], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def example_input() -> dict[str, str]:
    return tree(EXAMPLE)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, example_input: dict[str, str]) -> Path:
    """One uninterrupted run (no hipcc: verify is tested on its own below)."""
    out = tmp_path_factory.mktemp("ref") / "out"
    assert main(["--no-record", "migrate", str(EXAMPLE), "-o", str(out), "--no-verify", "-q"]) == 0
    assert tree(EXAMPLE) == example_input
    return out


def test_the_pipeline_migrates_the_example_into_a_complete_new_tree(reference: Path,
                                                                     example_input: dict[str, str]) -> None:
    out = tree(reference)
    renamed = {rel.removesuffix(".cu") + ".hip" if rel.endswith(".cu") else rel for rel in example_input}
    assert set(out) == renamed  # every input file is there, .cu as the translated .hip
    assert out["README.md"] == example_input["README.md"] and out["service/app.py"] == example_input["service/app.py"]
    hip = (reference / "libgemm/src/gemm.hip").read_text()
    assert "hipblas" in hip.lower() and "cublas" not in hip.replace("// cublas", "").lower().split("hip")[0]
    cmake = (reference / "libgemm/CMakeLists.txt").read_text()
    assert cmake != (EXAMPLE / "libgemm/CMakeLists.txt").read_text() and "HIP" in cmake and "gemm.hip" in cmake
    journal = json.loads((reference / STATE / "journal.json").read_text())
    assert journal["complete"] and [s["name"] for s in journal["stages"]] == list(pipeline.STAGES)
    for name, kind in (("scan", "scan"), ("convert", "convert"), ("build", "migrate-build"),
                       ("deploy", "migrate-deploy")):
        data = json.loads((reference / STATE / f"{name}.json").read_text())
        assert data["kind"] == kind and data["payload"] is not None


def test_a_second_run_resumes_everything_and_changes_nothing(reference: Path, tmp_path: Path) -> None:
    before = tree(reference, skip="")
    result = cli("migrate", str(EXAMPLE), "-o", str(reference), "--no-verify")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("resumed") == len(pipeline.STAGES) and tree(reference, skip="") == before


@pytest.mark.parametrize("kill_at", ["scan", "convert/3", "convert", "build/1", "deploy", "copy/2"])
def test_killed_runs_resume_to_the_uninterrupted_output(kill_at: str, reference: Path, tmp_path: Path,
                                                        example_input: dict[str, str]) -> None:
    out = tmp_path / "out"
    killed = cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify", "-q", kill_at=kill_at)
    assert killed.returncode == -9, killed.stderr  # SIGKILL: no handler, no cleanup
    assert tree(out) != tree(reference)  # it really stopped half way
    assert not [p for p in out.rglob("*") if p.is_file() and p.name.endswith(".tmp") and STATE not in p.parts]
    resumed = cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify")
    assert resumed.returncode == 0, resumed.stderr
    assert tree(out) == tree(reference) and tree(EXAMPLE) == example_input
    assert not (out / STATE / "staging").exists()


def test_killed_twice_then_resumed(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify", kill_at="convert/2").returncode == -9
    assert cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify", kill_at="copy/1").returncode == -9
    assert cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify").returncode == 0
    assert tree(out) == tree(reference)


def test_nothing_the_user_wrote_is_overwritten(reference: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert cli("migrate", str(EXAMPLE), "-o", str(out), "--no-verify", kill_at="build").returncode == -9
    (out / "csrc/reduce_kernels.hip").write_text("// my own edit\n")  # written by convert, edited by the user
    (out / "NOTES.md").write_text("mine\n")  # a file of the user's
    (out / "README.md").write_text("my readme\n")  # where the copy stage will want to write
    code = main(["--no-record", "migrate", str(EXAMPLE), "-o", str(out), "--no-verify", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "conflict:" in err and "README.md" in err and "reduce_kernels.hip" in err
    assert (out / "csrc/reduce_kernels.hip").read_text() == "// my own edit\n"
    assert (out / "NOTES.md").read_text() == "mine\n" and (out / "README.md").read_text() == "my readme\n"
    rest = {k: v for k, v in tree(out).items() if k not in ("csrc/reduce_kernels.hip", "NOTES.md", "README.md")}
    assert rest == {k: v for k, v in tree(reference).items() if k not in ("csrc/reduce_kernels.hip", "README.md")}


def test_a_folder_that_is_not_a_pipeline_output_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    assert main(["--no-record", "migrate", str(EXAMPLE), "-o", str(out)]) == 2
    assert "not a cuda2rocm migrate output" in capsys.readouterr().err and [p.name for p in out.iterdir()] == [
        "keep.txt"]
    assert main(["--no-record", "migrate", str(EXAMPLE), "-o", str(EXAMPLE / "out")]) == 2
    assert not (EXAMPLE / "out").exists()


def test_changed_input_restarts_and_removes_what_is_no_longer_made(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_text("#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }\n")
    (src / "notes.txt").write_text("n\n")
    out = tmp_path / "out"
    assert main(["--no-record", "migrate", str(src), "-o", str(out), "--no-verify", "-q"]) == 0
    assert sorted(tree(out)) == ["a.hip", "notes.txt"] and "hipMalloc" in (out / "a.hip").read_text()
    (src / "notes.txt").unlink()
    (src / "b.cu").write_text("#include <cuda_runtime.h>\nvoid g() { cudaDeviceSynchronize(); }\n")
    assert main(["--no-record", "migrate", str(src), "-o", str(out), "--no-verify", "-q"]) == 0
    assert sorted(tree(out)) == ["a.hip", "b.hip"]


def test_the_group_still_has_build_and_deploy_and_says_how_to_run_the_pipeline() -> None:
    from click.testing import CliRunner

    from cuda2rocm.cli.main import cli as group

    runner = CliRunner()
    text = runner.invoke(group, ["migrate", "--help"]).output
    assert "cuda2rocm migrate PATH -o OUT" in text and "build" in text and "deploy" in text
    assert "--cmake-style" in runner.invoke(group, ["migrate", "build", "--help"]).output
    assert "--no-verify" in runner.invoke(group, ["migrate", "-o", "x", "--help"]).output


def test_the_next_steps_are_real_commands(reference: Path) -> None:
    from tests.test_advice_commands import commands_in, parse_problem

    run = pipeline.run_pipeline(EXAMPLE, reference, pipeline.Settings(verify=False))
    assert all(s.status == "resumed" for s in run.stages[:5])
    steps = pipeline.next_steps(run, ["tokens_per_s>=0.95x", "time_s<=1.1x", "*busbw_gbps>=0.95x"])
    lines = [line for _, block in steps for line in block if line.startswith("cuda2rocm")]
    assert any(" comm " in line for line in lines)  # the example uses NCCL: collectives are benchmarked
    # bench run --name workload records workload/time_s: only thresholds that can match it gate bench compare
    # (tokens_per_s matches no metric there and made bench compare exit 2; tests/test_advice_commands.py runs them)
    bench = next(line for line in lines if " bench compare " in line)
    assert "-t 'time_s<=1.1x'" in bench and "tokens_per_s" not in bench and "busbw" not in bench
    assert sum("bench run --name workload " in line for line in lines) == 2
    for line in lines:
        assert commands_in(f"`{line}`") and parse_problem(line) == "", line


@pytest.mark.hipcc
def test_verify_runs_when_hipcc_is_there(tmp_path: Path) -> None:
    from cuda2rocm.toolchain.discover import find_hipcc

    if find_hipcc() is None:
        pytest.skip("hipcc not installed")
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n")
    first = pipeline.run_pipeline(src, tmp_path / "out", pipeline.Settings(gfx=("gfx90a",), verify=False))
    assert first.stages[-1].status == "skipped"
    run = pipeline.run_pipeline(src, tmp_path / "out", pipeline.Settings(gfx=("gfx90a",)))
    verify = run.stages[-1]
    assert [s.status for s in run.stages[:-1]] == ["resumed"] * 5  # asking for verify redoes only verify
    assert verify.status == "done" and verify.envelope is not None and verify.envelope.result.passed
    assert run.exit_code() == 0 and (tmp_path / "out/k.hip").is_file()


def test_inside_a_workspace_each_stage_is_recorded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cuda2rocm.workspace import store

    ws = tmp_path / "ws"
    assert main(["init", str(ws)]) == 0
    src = ws / "src"
    src.mkdir()
    (src / "a.cu").write_text("#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }\n")
    (src / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(a LANGUAGES CXX CUDA)\n"
                                        "add_library(a a.cu)\n")
    monkeypatch.chdir(ws)
    assert main(["migrate", "src", "-o", str(tmp_path / "out"), "--no-verify", "-q"]) in (0, 1)
    assert main(["migrate", "src", "-o", str(tmp_path / "out"), "--no-verify", "-q"]) in (0, 1)  # all resumed
    kinds = [s.envelope.kind for s in store.load_records(ws) if s.envelope is not None]
    assert kinds == ["scan", "convert", "migrate-build", "migrate-deploy"]
    build = next(s.envelope for s in store.load_records(ws) if s.envelope and s.envelope.kind == "migrate-build")
    assert build.result.options["gfx"] == ["gfx942"]  # the workspace's MI300X
    assert "a.hip" in (tmp_path / "out/CMakeLists.txt").read_text()
