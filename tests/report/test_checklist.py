"""Each checklist item's evidence rule, on real records: done (all evidence present), partial, stale (a record
of another payload version, or of a kind this tool does not know: partial at most, reason shown), failed and
not started. Records are written with ``cuda2rocm.envelope.record`` from the typed results of real runs
(tests/report/evidence.py) and read back through the workspace store, as ``cuda2rocm report`` reads them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.envelope import samples
from tests.report import evidence as E
from tests.test_advice_commands import commands_in, parse_problem

from cuda2rocm import envelope
from cuda2rocm.checklist import ITEMS, Status
from cuda2rocm.checklist.delivery import build
from cuda2rocm.checklist.items import ItemResult
from cuda2rocm.envelope import kinds
from cuda2rocm.results.translate import CompileOutcome, VerifySummary

CASES = ("done", "partial", "stale", "failed", "not-started")


class Ctx:
    """What a scenario needs: the workspace, the session's real results, and a way to register the migrate kinds
    as the merged tool will (payload: the raw JSON object)."""

    def __init__(self, ws: E.Workspace, tmp: Path, request: pytest.FixtureRequest, mp: pytest.MonkeyPatch) -> None:
        self.ws, self.tmp, self.request, self.mp = ws, tmp, request, mp

    def fixture(self, name: str) -> Any:
        return self.request.getfixturevalue(name)

    def known(self, *names: str) -> None:
        """The migrate kinds are registered now (migrate.summary); records of them decode as the real payload."""
        for name in names:
            assert name in kinds.KINDS

    def stale(self, kind: str, payload: Any, *args: str) -> Path:
        """A record of ``kind`` written under another payload schema version (loads leniently, stale)."""
        data = envelope.make(kind, payload, command_line=("cuda2rocm", *(args or (kind,)))).to_data()
        data["payload_schema_version"] = "0-old"
        return self.ws.add_raw(data)

    def env(self, fp: dict[str, Any]) -> Path:
        return self.ws.add("env", fp, "env", machine=envelope.machine_id(fp))

    def migrate(self, kind: str, payload: Any, exit_status: int = 0, stale: bool = False) -> Path:
        """A migrate record; ``stale``: written under another payload schema version."""
        return self.ws.add_raw(self.ws.raw(kind, payload, *kind.split("-"), exit_status=exit_status,
                                           version="0-old" if stale else kinds.KINDS[kind].version))


def _passing_verify() -> VerifySummary:
    """Hand-built (hipcc runs in test_report_cli's real verify): every unit compiled."""
    return VerifySummary("gfx942", (CompileOutcome("fill.cu", True, (), ("hipcc", "-c", "fill.hip"), 0.5),))


def _deploy(*files: tuple[str, str], generated: tuple[str, ...] = (), rules: tuple[str, ...] = ()) -> dict[str, Any]:
    return E.migrate_payload(list(files), generated, rules)


# --- the scenarios: (item, case) -> build the workspace; the expected status follows from the case ---------------

def cl1(c: Ctx, case: str) -> None:
    if case == "done":
        c.ws.add("scan", E.scan_result(), "scan", ".")
        c.env(E.h200_env())
    elif case == "partial":
        c.ws.add("scan", E.scan_of(E.broken_project(c.tmp)), "scan", ".")  # input problem, no CUDA fingerprint
    elif case == "stale":
        c.stale("scan", E.scan_result(), "scan", ".")
        c.env(E.h200_env())
    elif case == "failed":
        c.ws.add("scan", None, "scan", "missing-dir", exit_status=2)
    else:
        c.env(E.rocm_env())


def cl2(c: Ctx, case: str) -> None:
    if case == "done":
        c.ws.add("scan", E.scan_result(), "scan", ".")  # target MI300X
        c.env(E.rocm_env())
    elif case == "partial":
        c.ws.add("scan", E.scan_result(), "scan", ".")
    elif case == "stale":
        c.ws.add("scan", E.scan_result(), "scan", ".")
        c.stale("env", E.rocm_env())
    elif case == "failed":
        c.ws.add("scan", E.scan_result(), "scan", ".")
        c.env(E.rocm_env(gpu="AMD Instinct MI210", arch="gfx90a"))
    else:
        c.env(E.h200_env())


def gpu_smoke(c: Ctx) -> Any:
    """The real CPU smoke run, relabelled as run on the GPU (there is none here): same payload shape."""
    return dataclasses.replace(c.fixture("smoke_pass"), device="cuda:0")


def cl3(c: Ctx, case: str) -> None:
    smoke = gpu_smoke(c)
    if case == "done":
        c.ws.add("smoke", smoke)
    elif case == "partial":
        c.ws.add("smoke", dataclasses.replace(smoke, cpu_fallbacks=(("aten::nonzero", 2),)))
    elif case == "stale":
        c.stale("smoke", smoke)
    elif case == "failed":
        c.ws.add("smoke", samples.smoke_report())  # aten::foo not implemented
    else:
        c.ws.add("scan", E.scan_result(), "scan", ".")


def cl4(c: Ctx, case: str) -> None:
    clean = E.clean_project(c.tmp)
    if case == "done":
        c.ws.add("scan", E.scan_of(clean), "scan", ".")
        c.ws.add("convert", E.convert_of(clean), "convert", ".")
    elif case == "partial":
        c.ws.add("scan", E.scan_result(), "scan", ".")  # the example: an unsupported reference, GPU plugins
        c.ws.add("convert", E.convert_summary(), "convert", ".")
    elif case == "stale":
        c.ws.add("scan", E.scan_of(clean), "scan", ".")
        c.stale("convert", E.convert_of(clean), "convert", ".")
    elif case == "failed":
        c.ws.add("convert", E.convert_of(E.broken_project(c.tmp / "b")), "convert", ".")
    else:
        c.env(E.h200_env())


def cl5(c: Ctx, case: str) -> None:
    clean = E.clean_project(c.tmp)
    build = _deploy(("CMakeLists.txt", "changed"))
    if case == "done":
        c.known("migrate-build")
        c.ws.add("convert", E.convert_of(clean), "convert", ".")
        c.migrate("migrate-build", build)
        c.ws.add("verify", _passing_verify())
    elif case == "partial":
        c.ws.add("convert", E.convert_of(clean), "convert", ".")
    elif case == "stale":  # a migrate-build record of another payload version
        c.ws.add("convert", E.convert_of(clean), "convert", ".")
        c.migrate("migrate-build", build, stale=True)
        c.ws.add("verify", _passing_verify())
    elif case == "failed":
        c.ws.add("convert", E.convert_of(clean), "convert", ".")
        c.migrate("migrate-build", build)  # stale, but the failing verify is current
        c.ws.add("verify", samples.verify_summary(), exit_status=1)
    else:
        c.ws.add("scan", E.scan_result(), "scan", ".")


def cl6(c: Ctx, case: str) -> None:
    if case in ("done", "partial", "stale"):
        c.ws.add("scan", E.scan_result(), "scan", ".")  # cublas, nccl, thrust
        c.ws.add("convert", E.convert_summary(), "convert", ".")
    if case == "done":
        c.ws.add("comm", E.rccl_comm(8), "comm", "--nproc", "8")
    elif case == "stale":
        c.stale("comm", E.rccl_comm(8), "comm", "--nproc", "8")
    elif case == "failed":
        c.ws.add("scan", E.scan_result(), "scan", ".")
        c.ws.add("comm", E.rccl_comm(8, problems=("torch.distributed loaded libnccl.so.2, not librccl",)), "comm")
    elif case == "not-started":
        c.ws.add("comm", E.h200_comm(), "comm")


def cl7(c: Ctx, case: str) -> None:
    deploy = _deploy(("Dockerfile", "changed"), ("k8s/deploy.yaml", "changed"))
    if case == "done":
        c.known("migrate-deploy")
    if case in ("done", "stale"):
        c.migrate("migrate-deploy", deploy, stale=case == "stale")
        c.env(E.rocm_env())
    elif case == "partial":
        c.env(E.rocm_env())
    elif case == "failed":
        c.known("migrate-deploy")
        c.migrate("migrate-deploy", _deploy(("Dockerfile", "failed")), exit_status=2)
    else:
        c.env(E.rocm_env(container=False))


def cl8(c: Ctx, case: str) -> None:
    if case in ("done", "stale"):
        c.ws.compared("compare", c.fixture("compare_pass"), "cuda", "rocm", "compare")
        c.ws.compared("bench-compare", E.bench_report(), "cuda", "rocm", "bench", "compare")
    if case == "done":
        c.ws.add("smoke", gpu_smoke(c))
    elif case == "stale":
        c.stale("smoke", gpu_smoke(c))
    elif case == "partial":
        c.ws.compared("compare", c.fixture("compare_pass"), "cuda", "rocm", "compare")
    elif case == "failed":
        c.ws.compared("compare", c.fixture("compare_pass"), "cuda", "rocm", "compare")
        c.ws.compared("bench-compare", E.bench_report(slower=True), "cuda", "rocm", "bench", "compare",
                      exit_status=1)
    else:
        c.ws.add("scan", E.scan_result(), "scan", ".")


def cl9(c: Ctx, case: str) -> None:
    c.ws.add("comm", E.h200_comm(), "comm")  # the CUDA baseline: shown, never counted
    if case in ("done", "partial", "stale"):
        c.ws.compared("compare", c.fixture("compare_pass"), "cuda", "rocm", "compare")
        c.ws.add("comm", E.rccl_comm(8), "comm", "--nproc", "8")
    if case == "done":
        c.ws.add("comm", E.rccl_comm(16, 2), "comm", "--nnodes", "2")
    elif case == "stale":
        c.stale("comm", E.rccl_comm(16, 2), "comm", "--nnodes", "2")
    elif case == "failed":
        c.ws.add("comm", E.rccl_comm(8, wrong=True), "comm", "--nproc", "8", exit_status=1)


def cl10(c: Ctx, case: str) -> None:
    full = _deploy(("grafana/gpu-dashboard.json", "changed"), generated=("k8s/canary.yaml",),
                   rules=("C2R-M801",))
    if case == "done":
        c.known("migrate-deploy")
        c.migrate("migrate-deploy", full)
    elif case == "partial":
        c.known("migrate-deploy")
        c.migrate("migrate-deploy", _deploy(("grafana/gpu-dashboard.json", "changed")))
    elif case == "stale":
        c.migrate("migrate-deploy", full, stale=True)
    elif case == "failed":
        c.known("migrate-deploy")
        c.migrate("migrate-deploy", None, exit_status=2)
    else:
        c.ws.add("scan", E.scan_result(), "scan", ".")


SCENARIOS: dict[str, Callable[[Ctx, str], None]] = {
    "CL1": cl1, "CL2": cl2, "CL3": cl3, "CL4": cl4, "CL5": cl5, "CL6": cl6, "CL7": cl7, "CL8": cl8, "CL9": cl9,
    "CL10": cl10,
}
EXPECTED = {"done": Status.DONE, "partial": Status.PARTIAL, "stale": Status.PARTIAL, "failed": Status.FAILED,
            "not-started": Status.NOT_STARTED}


def _item(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, item: str,
          case: str) -> ItemResult:
    ws = E.Workspace(tmp_path / "ws")
    SCENARIOS[item](Ctx(ws, tmp_path, request, monkeypatch), case)
    report = build(ws.root)
    assert not report.unreadable
    return next(i for i in report.checklist if i.id == item)


def test_every_item_has_a_scenario_for_every_case() -> None:
    assert sorted(SCENARIOS, key=lambda i: int(i[2:])) == sorted(ITEMS, key=lambda i: int(i[2:]))
    assert [f"CL{n}" for n in range(1, 11)] == list(ITEMS)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("item", list(SCENARIOS))
def test_item_status_from_evidence(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                                   item: str, case: str) -> None:
    result = _item(tmp_path, request, monkeypatch, item, case)
    assert result.status is EXPECTED[case], result.reasons
    assert result.reasons
    if case == "stale":
        assert any("is stale" in r and "would be done" in r for r in result.reasons), result.reasons
        assert any(ref.stale for ref in result.evidence)
    if case in ("done", "failed", "stale"):
        assert result.evidence, "a decided item links to its records"
        for ref in result.evidence:
            assert ref.path.startswith(".cuda2rocm/records/") and ref.command.startswith("cuda2rocm")
            assert ref.started_at and ref.tool_version
    if case != "stale":
        assert all("stale" not in r for r in result.reasons)


def test_advice_in_reasons_parses_with_the_real_cli(tmp_path: Path, request: pytest.FixtureRequest,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seen = set()
    for item in SCENARIOS:
        for case in ("partial", "not-started"):
            (tmp_path / item / case).mkdir(parents=True)
            result = _item(tmp_path / item / case, request, monkeypatch, item, case)
            for reason in result.reasons:
                for cmd in commands_in(reason):
                    if "stale" not in reason:
                        seen.add(cmd)
                        assert parse_problem(cmd) == "", (item, case, cmd)
    assert {"cuda2rocm scan .", "cuda2rocm migrate deploy", "cuda2rocm comm --nproc 8"} <= seen


def test_baseline_comm_is_shown_but_never_counted(tmp_path: Path, request: pytest.FixtureRequest,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    result = _item(tmp_path, request, monkeypatch, "CL9", "not-started")
    assert result.status is Status.NOT_STARTED
    assert any("CUDA baseline: 2 GPUs on 1 node" in r for r in result.reasons)
    assert [ref.kind for ref in result.evidence] == ["comm"]


def test_migrate_rules_read_the_raw_payload_before_and_after_the_kind_is_known(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same migrate-deploy JSON: read by a tool that does not know the kind -> stale, partial with the
    reason; by this one -> done."""
    payload = _deploy(("Dockerfile", "changed"), ("grafana/dash.json", "changed"), generated=("k8s/canary.yaml",))
    ws = E.Workspace(tmp_path / "ws")
    raw = ws.raw("migrate-deploy", payload, "migrate", "deploy", version=kinds.KINDS["migrate-deploy"].version)
    ws.add_raw(raw)
    after = {i.id: i for i in build(ws.root).checklist}
    assert after["CL10"].status is Status.DONE and after["CL10"].evidence[0].stale is False
    monkeypatch.delitem(kinds.KINDS, "migrate-deploy")
    before = {i.id: i for i in build(ws.root).checklist}
    assert before["CL10"].status is Status.PARTIAL
    assert "unknown result kind 'migrate-deploy'" in " ".join(before["CL10"].reasons)


def test_unreadable_records_are_listed_and_never_crash(tmp_path: Path) -> None:
    ws = E.Workspace(tmp_path / "ws")
    ws.add("scan", E.scan_result(), "scan", ".")
    (ws.folder / "002-broken.json").write_text("{not json", encoding="utf-8")
    (ws.folder / "003-other.json").write_text(json.dumps({"kind": "scan", "payload": {}, "schema_version": "9.0"}))
    bad = E.envelope.make("scan", E.scan_result()).to_data()
    bad["payload"]["risk"] = "not an object"  # current version, payload does not decode
    (ws.folder / "004-bad-payload.json").write_text(json.dumps(bad))
    report = build(ws.root)
    assert [u.path for u in report.unreadable] == [".cuda2rocm/records/002-broken.json",
                                                   ".cuda2rocm/records/003-other.json",
                                                   ".cuda2rocm/records/004-bad-payload.json"]
    assert all(u.error for u in report.unreadable) and report.records == 1
    assert all(str(tmp_path) not in u.error for u in report.unreadable)  # the path is its own column
    assert "not JSON" in report.unreadable[0].error and "envelope schema 9.0" in report.unreadable[1].error
    assert {i.id: i.status for i in report.checklist}["CL1"] is Status.PARTIAL


def test_stale_never_decides_done_or_failed_alone(tmp_path: Path) -> None:
    ws = E.Workspace(tmp_path / "ws")
    data = envelope.make("verify", samples.verify_summary()).to_data()
    data["payload_schema_version"] = "0-old"
    ws.add_raw(data)
    cl5 = {i.id: i for i in build(ws.root).checklist}["CL5"]
    assert cl5.status is Status.PARTIAL and "would be failed" in " ".join(cl5.reasons)


def test_remaining_work_is_ordered_by_risk(tmp_path: Path) -> None:
    ws = E.Workspace(tmp_path / "ws")
    ws.add("scan", E.scan_result(), "scan", ".")
    ws.add("verify", samples.verify_summary(), exit_status=1)
    report = build(ws.root)
    risks = [w.risk for w in report.remaining]
    order = {"high": 0, "medium": 1, "low": 2}
    assert risks == sorted(risks, key=order.__getitem__)
    assert report.remaining[0].item == "CL5" and report.remaining[0].status is Status.FAILED
    assert {w.item for w in report.remaining} == {i.id for i in report.checklist if i.status is not Status.DONE}


def test_dual_platform_section_follows_the_workspace_setting(tmp_path: Path) -> None:
    for config, expected in (("dual-platform = true\n", True), ("[tool.cuda2rocm]\n", False),
                             ("dual-platform = false\n", False), ("", False)):
        root = tmp_path / str(len(list(tmp_path.iterdir())))
        ws = E.Workspace(root, config=config)
        ws.add("convert", E.convert_summary(), "convert", ".")
        ws.add("env", E.h200_env(), "env")
        report = build(ws.root)
        assert (report.dual_platform is not None) is expected, config
        if expected:
            d = report.dual_platform
            assert d is not None and "csrc/reduce_kernels.cu" in d.platform_specific
            assert any(b.startswith("cuda: vm (NVIDIA H200)") for b in d.baselines)
            assert any("ROCM baseline" in t for t in d.todo)


def test_a_broken_settings_file_is_a_problem_in_the_report(tmp_path: Path) -> None:
    ws = E.Workspace(tmp_path / "ws", config="[target\n")
    report = build(ws.root)
    assert report.settings_problem.startswith("cuda2rocm.toml: cannot read")
