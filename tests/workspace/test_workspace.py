"""The workspace: init and its config, recording every run (and --no-record), artifacts by content hash, stale
records, and evidence import of the real H200 results committed in this repository."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import tomlkit
from tests.envelope.samples import SAMPLES

from cuda2rocm import __version__, envelope
from cuda2rocm.cli.main import main
from cuda2rocm.regress.policy import default_policy
from cuda2rocm.workspace import config, store
from cuda2rocm.workspace.evidence import import_paths

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples/llm-service"
H200_ENV = ROOT / "tests/envinfo/fixtures"
H200_COMM = ROOT / "benchmarks/results/comm-h200x2-2026-11-30"
H200_REGRESS = ROOT / "benchmarks/results/gpu-2026-11-30/regress.tar.gz"


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ws"
    assert main(["init", str(root)]) == 0
    monkeypatch.chdir(root)
    return root


def kinds_recorded(root: Path) -> list[str]:
    return [s.envelope.kind for s in store.load_records(root) if s.envelope is not None]


# --- init and the config ---------------------------------------------------------------------------------------

def test_init_writes_a_commented_config_for_every_key_and_the_state_folders(ws: Path) -> None:
    text = (ws / "cuda2rocm.toml").read_text()
    doc = tomlkit.parse(text)
    assert store.records_dir(ws).is_dir() and store.artifacts_dir(ws).is_dir()
    lines = text.splitlines()
    for key in ("target-gpu", "target-rocm", "target-os", "dual-platform", "pytorch", "float32", "thresholds",
                "alpha", "tolerance", "[frameworks]", "[tolerances]", "[performance]"):
        at = next(i for i, line in enumerate(lines) if line.startswith(key))
        near = lines[max(0, at - 2):at] + lines[at + 1:at + 2]  # the comment above (or, for a table, below) it
        assert any(line.startswith("#") for line in near), key
    cfg = config.load(ws / "cuda2rocm.toml")
    assert (cfg.target_gpu, cfg.target_os, cfg.dual_platform) == ("MI300X", "ubuntu22.04", False)
    shipped = default_policy().classes["bf16"].max_rel_l2  # init writes the shipped class (1.5e-2 since 2026-12-07)
    assert doc["tolerances"]["float32"] == "fp32" and cfg.tolerance_policy().classes["bf16"].max_rel_l2 == shipped
    assert [str(t) for t in cfg.bench_policy().thresholds] == ["tokens_per_s >= 0.95x", "*busbw_gbps >= 0.95x"]


def test_init_refuses_to_overwrite_without_force_and_keeps_records(ws: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (ws / "cuda2rocm.toml").write_text('target-gpu = "MI250X"\n')
    envelope.record("bench-run", [], store.records_dir(ws))
    assert main(["init", str(ws)]) == 2 and "exists" in capsys.readouterr().err
    assert (ws / "cuda2rocm.toml").read_text() == 'target-gpu = "MI250X"\n'
    assert main(["init", str(ws), "--target-gpu", "H100", "--force"]) == 2  # a bad value replaces nothing
    assert (ws / "cuda2rocm.toml").read_text() == 'target-gpu = "MI250X"\n'
    assert main(["init", str(ws), "--force", "--dual-platform", "--target-gpu", "MI250X"]) == 0
    assert config.load(ws / "cuda2rocm.toml").dual_platform and len(store.load_records(ws)) == 1


@pytest.mark.parametrize(("text", "line", "message"), [
    ('target-gpu = "MI300X"\n[performance\n', 2, "invalid TOML"),
    ('# one\ntarget-gpu = "H100"\n', 2, "NVIDIA GPU"),
    ('target-rocm = "1.0"\n', 1, "unknown ROCm release"),
    ('dual-platform = "yes"\n', 1, "true or false"),
    ('\n[performance]\nthresholds = ["tokens_per_s>>1"]\n', 3, "not a threshold"),
    ('[performance]\nalpha = 3\n', 2, "between 0 and 1"),
    ('[tolerances]\nfloat32 = "fp31"\n', 1, "unknown policy class"),
    ('[tolerances.classes.bf16]\nmax_rel_l2 = "big"\n', 1, "bf16"),
    ('[frameworks]\npytorch = 2.6\n', 2, "must be a string"),
    ('[frameworks]\ncaffe = "1"\n', 2, "unknown framework"),
])
def test_a_bad_config_names_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "cuda2rocm.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError, match=message) as err:
        config.load(path)
    assert str(err.value).startswith(f"{path}:{line}:")


def test_pyproject_tool_table_has_the_same_keys_and_unknown_keys_warn(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.cuda2rocm]\ntarget-gpu = "MI250X"\n'
                                             'exclude = ["third_party/"]\nfuture-key = 1\n'
                                             '[tool.cuda2rocm.performance]\nthresholds = ["p99_ms<=1.1x"]\n')
    (tmp_path / "sub").mkdir()
    cfg = config.for_project(tmp_path / "sub")  # the nearest pyproject.toml from the path up
    assert cfg.target_gpu == "MI250X" and cfg.thresholds == ("p99_ms<=1.1x",) and cfg.source.endswith("pyproject.toml")
    assert len(cfg.warnings) == 1 and "future-key" in cfg.warnings[0] and ":7:" in cfg.warnings[0]
    (tmp_path / "pyproject.toml").write_text('[tool.cuda2rocm]\ntarget-gpu = "V100"\n')
    with pytest.raises(config.ConfigError, match=r"pyproject\.toml:2: target-gpu"):
        config.for_project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert config.for_project(tmp_path) == config.WorkspaceConfig()  # no [tool.cuda2rocm]: the defaults


def test_the_config_file_scan_reads_is_the_same(tmp_path: Path) -> None:
    from cuda2rocm.files.config import load_config

    (tmp_path / "cuda2rocm.toml").write_text(config.template(target_gpu="MI250X"))
    assert load_config(tmp_path).target_gpu == config.load(tmp_path / "cuda2rocm.toml").target_gpu == "MI250X"


def test_migrate_build_takes_its_targets_from_the_workspace(ws: Path) -> None:
    shutil.copytree(EXAMPLE / "libgemm", ws / "libgemm")
    assert main(["migrate", "build", "libgemm", "-q"]) in (0, 1)
    (ws / "cuda2rocm.toml").write_text((ws / "cuda2rocm.toml").read_text().replace('"MI300X"', '"MI250X"'))
    assert main(["migrate", "build", "libgemm", "-q"]) in (0, 1)
    assert main(["migrate", "build", "libgemm", "-q", "--offload-arch", "gfx1100"]) in (0, 1)
    runs = [s.envelope for s in store.load_records(ws) if s.envelope and s.envelope.kind == "migrate-build"]
    assert [r.result.options["gfx"] for r in runs] == [["gfx942"], ["gfx90a"], ["gfx1100"]]
    assert all(r.result.changed and r.result.edits > 0 and r.project.path.endswith("libgemm") for r in runs)


# --- recording -------------------------------------------------------------------------------------------------

def test_every_run_inside_records_once_and_no_record_opts_out(ws: Path, tmp_path: Path) -> None:
    (ws / "k.cu").write_text("__global__ void k(int *p) { p[threadIdx.x & 31] = 0; }\n")
    assert main(["scan", ".", "--format", "json"]) in (0, 1)
    assert main(["convert", "k.cu", "-o", "out/"]) in (0, 1)
    assert main(["--no-record", "scan", "."]) in (0, 1)
    assert main(["migrate", "deploy", ".", "-q"]) in (0, 1)
    assert main(["compat", "--gpu", "MI300X", "--rocm", "6.4"]) in (0, 1)
    assert kinds_recorded(ws) == ["scan", "convert", "migrate-deploy", "compat"]
    outside = tmp_path / "outside"
    outside.mkdir()
    assert main(["scan", str(outside)]) == 0  # the project is not in a workspace, the current directory is
    assert kinds_recorded(ws)[-1] == "scan"
    first = store.load_records(ws)[0].envelope
    assert first is not None and first.tool.version == __version__ and first.command_line[:2] == ("cuda2rocm", "scan")
    assert first.exit_status is not None and first.started_at <= first.finished_at


def test_record_and_workspace_both_get_the_envelope(ws: Path, tmp_path: Path) -> None:
    assert main(["--record", str(tmp_path / "r.json"), "scan", "."]) == 0
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads(store.load_records(ws)[0].path.read_text())


def test_bench_compare_inputs_are_artifacts_by_content_hash(ws: Path) -> None:
    base, cand = ws / "b.jsonl", ws / "c.jsonl"
    base.write_text(json.dumps({"metric": "tokens_per_s", "values": [1000.0, 1001.0, 999.0, 1000.5]}) + "\n")
    cand.write_text(json.dumps({"metric": "tokens_per_s", "values": [998.0, 1002.0, 999.5, 1000.0]}) + "\n")
    assert main(["bench", "compare", str(base), str(cand)]) == 0
    assert main(["bench", "compare", str(base), str(cand)]) == 0
    runs = [s.envelope for s in store.load_records(ws) if s.envelope]
    assert len(runs) == 2 and [a.role for a in runs[0].artifacts] == ["baseline", "candidate"]
    for art in runs[0].artifacts:
        kept = store.artifact(ws, art.sha256)
        assert kept is not None and kept.read_bytes() == Path(art.path).read_bytes()
    assert len(list(store.artifacts_dir(ws).iterdir())) == 2  # the second run stored nothing new


def test_a_record_from_another_version_loads_stale_and_garbage_is_an_error_never_a_crash(ws: Path) -> None:
    folder = store.records_dir(ws)
    future = json.loads(envelope.dump("migrate-build", SAMPLES["migrate-build"]()))
    future.update(schema_version="1.9", payload_schema_version="7", tool={"name": "cuda2rocm", "version": "9.0"})
    future["payload"]["files"][0]["status"] = {"new": "shape"}
    future["payload"]["added_later"] = True
    (folder / "20990101T000000000Z-migrate-build-00000000.json").write_text(json.dumps(future))
    newer_kind = {**future, "kind": "report-v9"}
    (folder / "20990101T000000001Z-report-v9-00000000.json").write_text(json.dumps(newer_kind))
    (folder / "20990101T000000002Z-scan-00000000.json").write_text('{"kind": "scan", "payload": {')
    (folder / "20990101T000000003Z-scan-00000001.json").write_text(json.dumps({**future, "schema_version": "2.0"}))
    stored = store.load_records(ws)
    assert len(stored) == 4
    assert stored[0].envelope is not None and stored[0].envelope.stale and stored[0].envelope.from_other_version
    assert stored[1].envelope is not None and stored[1].envelope.stale and "report-v9" in stored[1].envelope.problems[0]
    assert stored[2].envelope is None and "not JSON" in stored[2].error
    assert stored[3].envelope is None and "envelope schema 2.0" in stored[3].error


def test_an_older_migrate_record_still_decodes_leniently(ws: Path) -> None:
    old = json.loads(envelope.dump("migrate-build", SAMPLES["migrate-build"]()))
    old.update(payload_schema_version="0.9")
    del old["payload"]["for_review"], old["payload"]["seconds"]
    loaded = envelope.load(json.dumps(old))
    assert loaded.stale and loaded.result.for_review == () and loaded.result.changed[0].path == "CMakeLists.txt"


# --- evidence import -------------------------------------------------------------------------------------------

def test_the_committed_h200_evidence_imports_once_with_its_origin(ws: Path) -> None:
    paths = [H200_ENV / "env-h200.json", H200_ENV / "env-h200x2.json", H200_COMM, H200_REGRESS]
    first = import_paths(ws, paths)
    by_status: dict[str, list[str]] = {}
    for r in first:
        by_status.setdefault(r.status, []).append(r.kind)
    assert sorted(by_status["imported"]) == sorted(["env"] * 2 + ["comm"] * 8 + ["capture"] * 7 + ["smoke"])
    assert "failed" not in by_status and len(by_status["skipped"]) == 7  # compare reports: no typed loader
    records = sorted(store.records_dir(ws).iterdir())
    assert len(records) == 18
    again = import_paths(ws, paths)
    assert {r.status for r in again} == {"already", "skipped"} and sorted(store.records_dir(ws).iterdir()) == records
    stored = [s.envelope for s in store.load_records(ws)]
    assert all(e is not None and e.origin is not None and not e.stale for e in stored)
    env = next(e for e in stored if e and e.kind == "env" and e.result["gpu_count"] == 1)
    gpu_captures = [e for e in stored if e and e.kind == "capture" and e.result.device.startswith("cuda")]
    assert env.origin is not None and env.origin.host == "vm" and env.machine == env.origin.machine
    assert len(gpu_captures) == 4 and {e.machine for e in gpu_captures} == {env.machine}  # the same H200 box
    assert env.result["gpus"][0]["name"] == "NVIDIA H200" and env.started_at == "2026-11-30T01:22:33.000Z"
    comm = next(e for e in stored if e and e.kind == "comm")
    assert comm.result.header["world_size"] == 2 and comm.result.records and comm.machine
    for cap in gpu_captures:  # the tensors are kept by hash: a compare can be re-run from the workspace alone
        tensors = next(a for a in cap.artifacts if a.path.endswith("tensors.safetensors"))
        assert store.artifact(ws, tensors.sha256) is not None and tensors.bytes > 0


def test_import_reports_bad_files_and_still_imports_the_rest(ws: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    made = tmp_path / "elsewhere"
    made.mkdir()
    envelope.record("bench-run", SAMPLES["bench-run"](), made / "bench.json", machine="fp-0123456789abcdef")
    broken = json.loads(envelope.dump("scan", SAMPLES["scan"]()))
    broken["payload"]["root"] = 5
    (made / "broken.json").write_text(json.dumps(broken))
    (made / "headless.json").write_text('{"kind": "scan", "payload": null, "schema_version": "1.0"}')
    (made / "notes.json").write_text('{"hello": 1}')
    assert main(["evidence", "import", str(made / "bench.json"), str(made / "broken.json"), str(made)]) == 2
    err = capsys.readouterr().err
    assert "broken.json" in err and "$.root: expected str" in err and "incomplete envelope" in err
    assert "3 failed" in err and "1 imported" in err and "1 already" in err and "1 skipped" in err
    assert main(["evidence", "import", str(made / "notes.json")]) == 2  # named explicitly: not evidence
    assert main(["evidence", "import", str(made / "bench.json")]) == 0
    bench = [s.envelope for s in store.load_records(ws) if s.envelope and s.envelope.kind == "bench-run"]
    assert len(bench) == 1 and bench[0].origin is not None and bench[0].origin.machine == "fp-0123456789abcdef"


def test_import_outside_a_workspace_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["evidence", "import", str(H200_ENV / "env-h200.json")]) == 2
