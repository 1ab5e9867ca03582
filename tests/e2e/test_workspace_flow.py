"""The typical migration of the README, end to end through the CLI on the bundled example: ``init`` ->
``migrate`` (scan, convert, migrate build and deploy, verify) -> ``evidence import`` of the committed H200
fingerprint -> a ``compare`` of the committed H200 captures and
a ``bench compare`` of the committed ncu kernel records -> ``report``. Every step records itself in the
workspace; the report decides its checklist from those records only."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "llm-service"
CAPTURES = ROOT / "benchmarks" / "results" / "gpu-2026-11-30" / "regress.tar.gz"
NCU = ROOT / "tests" / "perf" / "data" / "ncu"


@pytest.mark.slow
def test_init_migrate_compare_bench_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "llm-service"
    shutil.copytree(EXAMPLE, project)
    before = {p.relative_to(project): p.read_bytes() for p in project.rglob("*") if p.is_file()}
    monkeypatch.chdir(project)
    assert main(["init", ".", "--target-gpu", "MI300X"]) == 0
    assert (project / "cuda2rocm.toml").is_file()
    code = main(["migrate", ".", "-o", str(tmp_path / "rocm")])
    assert code in (0, 1), capsys.readouterr().err  # 1: findings at the default threshold remain
    assert (tmp_path / "rocm" / "csrc" / "reduce_kernels.hip").is_file()
    assert (tmp_path / "rocm" / "Dockerfile").read_text().startswith("FROM rocm/")
    with tarfile.open(CAPTURES) as tar:
        tar.extractall(tmp_path / "caps", filter="data")
    caps = tmp_path / "caps" / "regress"
    # the CUDA baseline machine's fingerprint, made on the H200 and committed: imported as evidence
    assert main(["evidence", "import", str(ROOT / "tests" / "envinfo" / "fixtures" / "env-h200.json")]) == 0
    assert main(["compare", str(caps / "cpu-float32"), str(caps / "gpu-float32")]) == 0
    assert main(["bench", "compare", str(NCU / "two_kernels.ncu.csv"), str(NCU / "two_kernels_run2.ncu.csv")]) == 0
    capsys.readouterr()
    assert main(["report", ".", "--format", "json", "-o", str(tmp_path / "report.json")]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    status = {item["id"]: item["status"] for item in report["checklist"]}
    assert len(status) == 10
    assert status["CL1"] == "done"  # the pipeline's scan and the imported CUDA baseline fingerprint
    assert status["CL5"] in ("done", "partial", "failed")  # convert + migrate build (+ verify where hipcc is)
    assert status["CL8"] != "not-started"  # the compare and bench compare records
    kinds = {json.loads(p.read_text())["kind"] for p in (project / ".cuda2rocm" / "records").glob("*.json")}
    assert {"scan", "convert", "migrate-build", "migrate-deploy", "compare", "bench-compare"} <= kinds
    after = {p.relative_to(project): p.read_bytes() for p in project.rglob("*") if p.is_file()
             and ".cuda2rocm" not in p.parts and p.name != "cuda2rocm.toml"}
    assert after == before  # the input tree is untouched
    assert main(["report", ".", "--format", "html", "-o", str(tmp_path / "report.html")]) == 0
    html = (tmp_path / "report.html").read_text()
    assert html.count('<tr class="item">') == 10
