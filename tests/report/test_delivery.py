"""The delivery report on a fixed evidence set: golden Markdown and JSON (regenerate with UPDATE_GOLDEN=1), the
JSON against its versioned schema, the HTML self-contained and checked in a real headless Chromium (the
screenshot docs/img/report.png is written when UPDATE_GOLDEN=1), the committed H200 evidence as the CUDA baseline,
and the CLI end to end on records the real commands wrote with --record."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from tests.envelope import samples
from tests.report import evidence as E
from tests.report.test_html_report import CHROMIUM_ARGS, VIEWPORT, _playwright

from cuda2rocm import envelope
from cuda2rocm.checklist import SCHEMA, Status, build
from cuda2rocm.cli.main import main
from cuda2rocm.report import render
from cuda2rocm.report._delivery import build_schema
from cuda2rocm.workspace.store import records_dir

GOLDEN = Path(__file__).parent / "golden"
SCHEMA_FILE = E.ROOT / "docs" / "schema" / "report.schema.json"
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))


def fixed_workspace(root: Path, compare_pass: Any) -> E.Workspace:
    """Scan and convert of the example, the committed H200 env and comm records (the CUDA baseline), a ROCm
    fingerprint, compare of the H200 captures, bench's comparison, smoke and verify samples, an 8-GPU RCCL run,
    and one record that does not load. Dual platform."""
    ws = E.Workspace(root, config='target-gpu = "MI300X"\ndual-platform = true\n')
    ws.add("scan", E.scan_result(), "scan", ".")
    ws.add("convert", E.convert_summary(), "convert", ".", "-o", "hip")
    ws.add("verify", samples.verify_summary(), "verify", "hip", exit_status=1)
    ws.add("env", E.h200_env(), "env", machine=envelope.machine_id(E.h200_env()))
    ws.add("comm", E.h200_comm(), "comm", "--nproc", "2")
    ws.add("env", E.rocm_env(), "env", machine=envelope.machine_id(E.rocm_env()))
    ws.compared("compare", compare_pass, "cuda", "rocm", "compare", "cuda/capture", "rocm/capture")
    ws.compared("bench-compare", E.bench_report(), "cuda", "rocm", "bench", "compare", "cuda.jsonl", "rocm.jsonl")
    ws.add("smoke", samples.smoke_report(), "smoke", "model:build", exit_status=1)
    ws.add("comm", E.rccl_comm(8), "comm", "--nproc", "8")
    (ws.folder / "011-truncated.json").write_text('{"kind": "scan", "payload": ', encoding="utf-8")
    return ws


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory, compare_pass: Any) -> Path:
    return fixed_workspace(tmp_path_factory.mktemp("fixed") / "llm-service-ws", compare_pass).root


def _round(data: Any) -> Any:
    """Floats to 6 significant digits: the golden JSON does not depend on the last bits of a numpy reduction."""
    if isinstance(data, float):
        return float(f"{data:.6g}") if math.isfinite(data) else data
    if isinstance(data, list):
        return [_round(v) for v in data]
    if isinstance(data, dict):
        return {k: _round(v) for k, v in data.items()}
    return data


def _golden(name: str, text: str) -> str:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    return path.read_text(encoding="utf-8")


def test_golden_markdown(fixed: Path) -> None:
    text = render(build(fixed), "markdown", kind="delivery")
    assert text == _golden("delivery.md", text)


def test_golden_json(fixed: Path) -> None:
    data = _round(json.loads(render(build(fixed), "json", kind="delivery")))
    expected = _golden("delivery.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    assert _same(data, json.loads(expected))


def _same(a: Any, b: Any, where: str = "$") -> bool:
    """Equal JSON values, floats within a relative 1e-5: rounding alone cannot absorb a last-bit difference that
    lands on a rounding boundary (1.102475e-06 rounds either way; seen with another numpy build)."""
    if isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-12) or a == b or (math.isnan(a) and math.isnan(b)), \
            f"{where}: {a} != {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"{where}: keys {sorted(a.keys() ^ b.keys())}"
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"
    return True


def test_json_matches_its_versioned_schema(fixed: Path, tmp_path: Path) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema == build_schema(), "regenerate with: python -m cuda2rocm.report._delivery"
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    empty = E.Workspace(tmp_path / "empty").root
    for root in (fixed, empty):
        data = json.loads(render(build(root), "json", kind="delivery"))
        assert data["schema"] == SCHEMA and len(data["checklist"]) == 10
        validator.validate(data)
    data["checklist"] = data["checklist"][:9]
    assert not validator.is_valid(data)


def test_fixed_set_decisions(fixed: Path) -> None:
    report = build(fixed)
    status = {i.id: i.status for i in report.checklist}
    assert status == {"CL1": Status.DONE, "CL2": Status.DONE, "CL3": Status.FAILED, "CL4": Status.PARTIAL,
                      "CL5": Status.FAILED, "CL6": Status.DONE, "CL7": Status.PARTIAL, "CL8": Status.DONE,
                      "CL9": Status.PARTIAL, "CL10": Status.NOT_STARTED}
    assert [u.path for u in report.unreadable] == [".cuda2rocm/records/011-truncated.json"]
    assert report.correctness[0].passed and report.correctness[0].tensors
    perf = report.performance[0].metrics
    tokens = next(m for m in perf if m.metric == "serve/tokens_per_s")
    assert tokens.ci_low <= tokens.ratio <= tokens.ci_high and abs(tokens.ratio - 1.04) < 1e-9


def test_html_is_one_self_contained_file(fixed: Path) -> None:
    html = render(build(fixed), "html", kind="delivery")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # no external asset or link
    assert "<script" not in html and "<link" not in html
    rows = re.findall(r'<tr class="item">', html)
    assert len(rows) == 10
    assert html.count("<svg") >= 4  # checklist strip, findings by layer, relative error, performance ratios
    first = ".cuda2rocm/records/001-scan.json"
    assert f'href="#rec-{first}"' in html and f'id="rec-{first}"' in html


def test_report_in_headless_chromium(fixed: Path, tmp_path: Path) -> None:
    sync_api = _playwright()
    page_file = fixed / "report.html"
    assert main(["report", str(fixed), "-o", str(page_file)]) == 0
    shot = E.ROOT / "docs" / "img" / "report.png" if UPDATE else tmp_path / "report.png"
    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=_chromium(), args=CHROMIUM_ARGS,
            headless=True, viewport=VIEWPORT, offline=True)
        try:
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(page_file.as_uri())
            assert page.title() == "cuda2rocm delivery report: llm-service-ws"
            rows = page.locator("#table-checklist tbody tr")
            assert rows.count() == 10
            assert [rows.nth(i).locator("td").first.inner_text() for i in range(10)] == [f"CL{n}" for n in
                                                                                           range(1, 11)]
            for key in ("checklist", "scan", "correctness", "performance"):
                svg = page.locator(f"#chart-{key} svg").first
                box = svg.bounding_box()
                assert box and box["width"] > 100 and box["height"] > 20, key
                assert svg.locator("rect, circle").count() > 0, key
            verdict = page.locator("#verdict")
            assert verdict.inner_text().startswith("not ready: 2 failed, 1 not started, 3 partial; next: CL3")
            box, table = verdict.bounding_box(), page.locator("#table-checklist").bounding_box()
            assert box and table and box["y"] < table["y"] and box["y"] < 120  # the first thing read
            assert page.locator("#chart-checklist .legend").inner_text().split() == \
                ["done", "partial", "not", "started", "failed"]
            assert page.locator("#chart-scan .legend .swatch").count() == 5
            assert page.locator("h2, h3").filter(has_text="Remaining work").count() == 1
            strip = page.locator("#chart-checklist svg rect")
            assert strip.count() == 10
            assert page.locator("#chart-performance svg circle").count() == 2
            page.screenshot(path=str(shot))
        finally:
            context.close()
    assert errors == []
    assert [u for u in requests if not u.startswith("file:")] == []
    assert shot.stat().st_size > 10_000


def _chromium() -> str:
    from tests.report.test_html_report import CHROMIUM

    return CHROMIUM


def test_committed_h200_evidence_is_the_cuda_baseline(tmp_path: Path) -> None:
    """The real H200 fingerprints and comm runs in the repository, recorded into a workspace."""
    ws = E.Workspace(tmp_path / "ws")
    for fixture in ("env-h200.json", "env-h200x2.json"):
        fp = json.loads((E.ROOT / "tests" / "envinfo" / "fixtures" / fixture).read_text())
        ws.add("env", fp, "env", machine=envelope.machine_id(fp))
    from cuda2rocm.perf.commrun import load

    for name in ("allreduce.jsonl", "alltoall.jsonl", "allops.jsonl"):
        run, problems = load(E.H200_COMM.parent / name)
        assert not problems
        ws.add("comm", run, "comm", "--nproc", "2")
    report = build(ws.root)
    assert {m.platform for m in report.machines} == {"cuda"}
    assert all("NVIDIA H200" in " ".join(m.gpus) for m in report.machines)
    assert [c.platform for c in report.comm] == ["cuda"] * 3 and all(c.wrong == 0 for c in report.comm)
    items = {i.id: i for i in report.checklist}
    assert items["CL9"].status is Status.NOT_STARTED
    assert "CUDA baseline: 2 GPUs on 1 node(s)" in " ".join(items["CL9"].reasons)
    assert any("CUDA baseline machine: CUDA 13.0" in r for r in build(_with_scan(ws)).checklist[0].reasons)
    md = render(report, "markdown", kind="delivery")
    assert "| cuda | vm | NVIDIA H200 |" in md and "NCCL 2.28.9" in md


def _with_scan(ws: E.Workspace) -> Path:
    ws.add("scan", E.scan_result(), "scan", ".")
    return ws.root


# --- the CLI ---------------------------------------------------------------------------------------------------

def test_cli_exit_codes_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert main(["report", str(plain)]) == 2
    assert "not inside a cuda2rocm workspace" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert main(["report", str(plain), "--format", "pdf"]) == 2
    ws = E.Workspace(tmp_path / "ws")
    (ws.folder / "bad.json").write_text("[]", encoding="utf-8")
    capsys.readouterr()
    assert main(["report", str(ws.root / ".cuda2rocm")]) == 0  # inside the workspace: found upwards
    out = capsys.readouterr().out
    assert out.startswith("# cuda2rocm delivery report: ws") and "bad.json" in out
    for name, first in (("r.html", "<!DOCTYPE html>"), ("r.json", "{"), ("r.md", "# cuda2rocm")):
        assert main(["report", str(ws.root), "-o", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(first)
    assert main(["report", str(ws.root), "--format", "json", "-o", str(tmp_path / "r.txt")]) == 0
    assert json.loads((tmp_path / "r.txt").read_text())["schema"] == SCHEMA


def test_cli_end_to_end_on_recorded_runs(tmp_path: Path, capture_root: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Real commands record into the workspace (--record FOLDER); the report decides from what they wrote."""
    ws = E.Workspace(tmp_path / "ws")
    rec = str(records_dir(ws.root))
    monkeypatch.chdir(capture_root)
    assert main(["--record", rec, "scan", str(E.EXAMPLE)]) in (0, 1)
    assert main(["--record", rec, "convert", str(E.EXAMPLE), "-o", str(tmp_path / "hip")]) in (0, 1)
    assert main(["--record", rec, "compare", "regress/cpu-float32", "regress/gpu-float32"]) == 0
    tiny = ["--", sys.executable, "-c", "pass"]
    for side in ("base", "cand"):
        assert main(["--record", rec, "bench", "run", "-n", "3", "--warmup", "0", "-o",
                     str(tmp_path / f"{side}.jsonl"), *tiny]) == 0
    assert main(["--record", rec, "bench", "compare", str(tmp_path / "base.jsonl"), str(tmp_path / "cand.jsonl"),
                 "-t", "*/time_s<=10x"]) == 0
    capsys.readouterr()
    assert main(["report", str(ws.root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"] == 6 and not data["unreadable"]
    status = {i["id"]: i["status"] for i in data["checklist"]}
    assert status["CL1"] == "partial" and status["CL4"] == "partial" and status["CL8"] == "partial"
    cl8 = next(i for i in data["checklist"] if i["id"] == "CL8")
    assert {r["kind"] for r in cl8["evidence"]} == {"compare", "bench-compare"}
    assert all(r["command_line"][0] == "cuda2rocm" and r["started_at"] for r in cl8["evidence"])
    assert data["performance"][0]["metrics"] and data["correctness"][0]["passed"]


def test_docs_list_every_items_evidence_rule() -> None:
    from cuda2rocm.report._delivery import rules_markdown

    page = (E.ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    block = page.split("<!-- rules:begin -->\n", 1)[1].split("<!-- rules:end -->", 1)[0]
    assert block == rules_markdown(), "docs/report.md: paste rules_markdown() between the rules markers"


@pytest.mark.hipcc
def test_real_verify_record_decides_item_5(tmp_path: Path) -> None:
    """convert, migrate build and verify run for real (hipcc) and record: item 5 is done; the same migrate-build
    record under another payload version makes it partial (stale)."""
    import json

    from cuda2rocm.toolchain import find_hipcc

    if find_hipcc() is None:
        pytest.skip("hipcc not installed")
    project = E.clean_project(tmp_path)
    (project / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(c LANGUAGES CXX CUDA)\n"
                                            "add_executable(fill fill.cu)\n")
    ws = E.Workspace(tmp_path / "ws")
    rec = str(records_dir(ws.root))
    assert main(["--record", rec, "convert", str(project), "-o", str(tmp_path / "hip")]) == 0
    assert main(["--record", rec, "migrate", "build", str(project), "-o", str(tmp_path / "hip")]) == 0
    assert main(["--record", rec, "verify", str(project), "--offload-arch", "gfx90a"]) == 0
    after = next(i for i in build(ws.root).checklist if i.id == "CL5")
    assert after.status is Status.DONE, after.reasons
    assert {r.kind for r in after.evidence} == {"convert", "migrate-build", "verify"}
    (migrate,) = [p for p in records_dir(ws.root).glob("*.json") if "migrate-build" in p.name]
    data = json.loads(migrate.read_text())
    data["payload_schema_version"] = "0-old"
    migrate.write_text(json.dumps(data))
    before = next(i for i in build(ws.root).checklist if i.id == "CL5")
    assert before.status is Status.PARTIAL and "verify: 1 units compile for gfx90a" in before.reasons


def test_untrusted_text_is_escaped_in_every_format(tmp_path: Path) -> None:
    """A file name with table and markup characters, from a real convert failure, stays one cell and inert."""
    project = E.clean_project(tmp_path)
    (project / "x|<b>y<i>.cu").write_bytes(b"/* never closed\n")
    ws = E.Workspace(tmp_path / "ws")
    ws.add("convert", E.convert_of(project), "convert", ".")
    report = build(ws.root)
    assert "x|<b>y<i>.cu" in " ".join(next(i for i in report.checklist if i.id == "CL4").reasons)
    md = render(report, "markdown", kind="delivery")
    row = next(line for line in md.splitlines() if line.startswith("| CL4 |"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 6 and "<b>" not in row
    html = render(report, "html", kind="delivery")
    assert "<b>y<i>" not in html and "&lt;b&gt;y&lt;i&gt;" in html


def test_report_without_torch(fixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`report` on a workspace holding smoke, compare, comm, env, scan, convert, verify and bench records, in a
    process whose imports refuse torch: the same Markdown as with torch, exit 0 (a smoke record used to pull
    torch in through the smoke module's instrumentation import and end in a traceback)."""
    from tests.test_without_torch import run_without_torch

    assert main(["report", str(fixed)]) == 0
    with_torch = capsys.readouterr().out
    done = run_without_torch("report", str(fixed))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == with_torch


def test_every_payload_type_loads_without_torch() -> None:
    """Each result kind's payload type imports in a process that refuses torch, so any record decodes there."""
    from tests.test_without_torch import SHIM, SRC

    probe = SHIM.split("from cuda2rocm.cli.main")[0] + (
        "from cuda2rocm.envelope import kinds\n"
        "import cuda2rocm.envelope\n"
        "names = sorted(kinds.KINDS)\n"
        "for name in names:\n"
        "    kinds.KINDS[name].payload_type()\n"
        "print(' '.join(names))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(SRC)})
    assert done.returncode == 0, done.stderr
    assert "smoke" in done.stdout.split() and "scan" in done.stdout.split()
