"""The delivery report of a workspace: the checklist plus the sections that back it, as one typed value.

:func:`build` reads the workspace's evidence (:func:`cuda2rocm.checklist.evidence.collect`) and derives every
section from the newest records of each kind: the scan's layers and risk, translation coverage (convert),
compile results (verify), correctness (compare: the first divergence and every tensor), performance against the
CUDA baseline (bench-compare: ratios with their bootstrap confidence intervals, as bench computed them),
collective runs (comm), the machines, the remaining work ordered by risk and, when the workspace keeps both
platforms, the dual-platform section. The renderers (``cuda2rocm.report._delivery``) only format this value;
its JSON form (``codec.encode``) is described by docs/schema/report.schema.json.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm import __version__
from cuda2rocm.checklist.evidence import Evidence, Rec, Ref, Unreadable, collect, fingerprint_platform
from cuda2rocm.checklist.items import (
    ITEMS,
    BenchRun,
    ItemResult,
    Status,
    checklist,
    gpu_evidence,
    gpu_pair,
    open_findings,
    performance_runs,
    target_of,
)

#: the JSON report's schema id; bump the number when a field changes incompatibly
SCHEMA = "cuda2rocm.report/1"


@dataclass(frozen=True)
class LayerRow:
    layer: str
    difficulty: str
    findings: int
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class LayerCount:
    layer: str
    severity: str
    findings: int


@dataclass(frozen=True)
class ScanSection:
    record: Ref
    project: str
    target_gpu: str
    risk: str
    effort_person_days: tuple[int, int]
    proof_of_concept: str
    signals: tuple[str, ...]
    layers: tuple[LayerRow, ...]
    findings: tuple[LayerCount, ...]  # findings per (layer, severity), what the chart draws


@dataclass(frozen=True)
class Coverage:
    record: Ref
    files: int
    by_status: dict[str, int]
    converted: int
    unsupported: int
    coverage: float  # converted / (converted + unsupported); 1.0 with nothing to convert
    by_library: dict[str, int]
    failed: tuple[str, ...]
    open_findings: tuple[str, ...] = ()  # high and critical findings convert left (RULE path:line)


@dataclass(frozen=True)
class CompileRow:
    path: str
    ok: bool
    first_error: str


@dataclass(frozen=True)
class CompileSection:
    record: Ref
    arch: str
    passed: bool
    units: tuple[CompileRow, ...]
    convert_failures: tuple[str, ...]


@dataclass(frozen=True)
class TensorRow:
    name: str
    status: str
    dtype: str
    policy: str
    rel_l2: float | None
    max_rel_l2: float | None
    max_abs: float | None
    cosine: float | None
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class CheckRow:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Correctness:
    record: Ref
    base: str
    cand: str
    passed: bool
    first_divergence: str  # "" when every tensor passes
    first_reasons: tuple[str, ...]
    tensors: tuple[TensorRow, ...]
    curves: tuple[CheckRow, ...]
    metrics: tuple[CheckRow, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class RatioRow:
    metric: str
    direction: str
    base_median: float
    cand_median: float
    ratio: float  # median(candidate) / median(CUDA baseline)
    ci_low: float
    ci_high: float
    p_value: float
    threshold: str
    verdict: str
    note: str


@dataclass(frozen=True)
class Performance:
    record: Ref
    passed: bool
    metrics: tuple[RatioRow, ...]
    env_differences: tuple[str, ...]
    comparison: str = ""  # the metrics compared: runs with the same metrics are the same comparison
    role: str = ""  # decides | earlier run | not evidence: looser thresholds than cuda2rocm.toml (...)
    platforms: str = ""  # where the baseline and the candidate ran, or why it is not GPU evidence


@dataclass(frozen=True)
class CommRow:
    record: Ref
    platform: str
    backend: str
    world_size: int
    nodes: int
    results: int
    wrong: int
    peak_busbw_gbps: float | None


@dataclass(frozen=True)
class MachineRow:
    machine: str
    platform: str
    host: str
    gpus: tuple[str, ...]
    driver: str
    cuda: str
    rocm: str
    os: str
    container: bool
    record: Ref


@dataclass(frozen=True)
class WorkItem:
    risk: str  # high | medium | low
    item: str
    title: str
    status: Status
    todo: tuple[str, ...]


@dataclass(frozen=True)
class DualPlatform:
    shared: tuple[str, ...]  # files convert left unchanged: one source for both platforms
    platform_specific: tuple[str, ...]  # files convert translated: behind platform macros or kept as HIP twins
    cuda_pipelines: tuple[str, ...]  # CI definitions the scan found (the CUDA pipeline)
    rocm_pipelines: tuple[str, ...]  # CI definitions migrate deploy wrote or changed (the ROCm pipeline)
    baselines: tuple[str, ...]  # the baselines to keep per platform
    todo: tuple[str, ...]


@dataclass(frozen=True)
class DeliveryReport:
    workspace: str
    target_gpu: str
    summary: dict[str, int]  # status -> number of items
    checklist: tuple[ItemResult, ...]
    scan: ScanSection | None
    coverage: Coverage | None
    compile: CompileSection | None
    correctness: tuple[Correctness, ...]
    performance: tuple[Performance, ...]
    comm: tuple[CommRow, ...]
    machines: tuple[MachineRow, ...]
    remaining: tuple[WorkItem, ...]
    dual_platform: DualPlatform | None
    records: int
    stale: tuple[Ref, ...]
    unreadable: tuple[Unreadable, ...]
    settings_problem: str = ""
    schema: str = SCHEMA
    tool_version: str = __version__


def build(root: str | Path) -> DeliveryReport:
    """The delivery report of the workspace at ``root`` (see :func:`cuda2rocm.workspace.store.find`)."""
    return from_evidence(collect(Path(root)))


def from_evidence(ev: Evidence) -> DeliveryReport:
    items = checklist(ev)
    counts = Counter(str(i.status) for i in items)
    scan = _scan(ev.latest("scan"))
    return DeliveryReport(
        workspace=ev.root.resolve().name or str(ev.root),
        target_gpu=target_of(ev),
        summary={str(s): counts.get(str(s), 0) for s in Status},
        checklist=tuple(items),
        scan=scan,
        coverage=_coverage(ev.latest("convert"), open_findings(ev, ("convert",))),
        compile=_compile(ev.latest("verify")),
        correctness=tuple(c for c in (_correctness(r) for r in ev.of("compare")) if c is not None),
        performance=tuple(_performance(ev, run) for run in performance_runs(ev)),
        comm=tuple(_comm(ev, r) for r in ev.of("comm") if isinstance(r.payload, dict)),
        machines=tuple(_machine(r) for r in ev.of("env") if isinstance(r.payload, dict)),
        remaining=tuple(remaining(items, scan)),
        dual_platform=_dual(ev) if ev.settings.dual_platform else None,
        records=len(ev.records),
        stale=tuple(r.ref for r in ev.records if r.stale),
        unreadable=tuple(ev.unreadable),
        settings_problem=ev.settings.problem,
    )


def _scan(rec: Rec | None) -> ScanSection | None:
    s = None if rec is None else rec.result
    if rec is None or s is None:
        return None
    counts = Counter((str(f.layer), str(f.severity)) for f in s.findings)
    return ScanSection(rec.ref, s.project or Path(s.root).name or s.root, s.target_gpu, s.risk.level,
                       s.risk.effort_person_days, s.risk.poc_recommendation, s.risk.signals,
                       tuple(LayerRow(str(a.layer), a.difficulty, a.finding_count, a.reasons) for a in s.layers),
                       tuple(LayerCount(lay, sev, n) for (lay, sev), n in sorted(counts.items())))


def _coverage(rec: Rec | None, left_open: list[str]) -> Coverage | None:
    c = None if rec is None else rec.result
    if rec is None or c is None:
        return None
    t = c.totals
    by_lib: Counter[str] = Counter()
    for (lib, _kind), n in t.converted.items():
        by_lib[lib] += n
    done, left = t.converted_total, t.unsupported
    return Coverage(rec.ref, t.files, dict(sorted(t.by_status.items())), done, left,
                    done / (done + left) if done + left else 1.0, dict(sorted(by_lib.items())),
                    tuple(f.path for f in c.failed), tuple(left_open))


def _compile(rec: Rec | None) -> CompileSection | None:
    v = None if rec is None else rec.result
    if rec is None or v is None:
        return None
    rows = []
    for u in v.units:
        errors = [d for d in u.diagnostics if d.severity in ("error", "fatal error")]
        first = str(errors[0]) if errors else ("" if u.ok else (u.output.splitlines() or ["failed"])[0])
        rows.append(CompileRow(u.path, u.ok, first))
    return CompileSection(rec.ref, v.arch, v.passed, tuple(rows), v.convert_failures)


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _correctness(rec: Rec) -> Correctness | None:
    o = rec.result
    if o is None:
        return None
    t = o.tensors
    rows = []
    if t is not None:
        for r in t.reports:
            s, tol = r.stats, r.tolerance
            rows.append(TensorRow(r.name, r.status, r.dtype, r.policy, None if s is None else s.rel_l2,
                                  None if tol is None else tol.max_rel_l2, None if s is None else s.max_abs,
                                  None if s is None else s.cosine, r.reasons))
    first = t.first_divergence if t is not None else None
    return Correctness(
        rec.ref, t.base if t else "", t.cand if t else "", o.passed, first.name if first else "",
        first.reasons if first else (), tuple(rows),
        tuple(CheckRow(c.tag, c.ok, "; ".join(c.reasons)) for c in o.curves),
        tuple(CheckRow(m.name, m.ok, m.reason) for m in o.metrics), t.warnings if t else ())


def _performance(ev: Evidence, run: BenchRun) -> Performance:
    b = run.rec.result
    rows = tuple(RatioRow(r.name, r.direction, r.base.median, r.cand.median, r.ratio, r.ci[0], r.ci[1], r.p_value,
                          r.threshold, r.verdict, r.note) for r in b.results)
    where = gpu_evidence(ev, run.rec, "runs") or gpu_pair(ev, run.rec)
    return Performance(run.rec.ref, run.passed, rows, b.env_differences, _comparison(run.comparison), run.role,
                       where)


def _comparison(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _comm(ev: Evidence, rec: Rec) -> CommRow:
    header = rec.payload.get("header") or {}
    lines = [r for r in rec.payload.get("records") or [] if isinstance(r, dict)]
    bus = [float(r["busbw_gbps"]) for r in lines if isinstance(r.get("busbw_gbps"), (int, float))]
    wrong = sum(1 for r in lines if r.get("correct") is False or r.get("error"))
    return CommRow(rec.ref, ev.platform(rec) or "?", str(header.get("backend") or ""),
                   int(header.get("world_size") or 0), int(header.get("nnodes") or 1), len(lines), wrong,
                   max(bus) if bus else None)


def _machine(rec: Rec) -> MachineRow:
    fp: dict[str, Any] = rec.payload
    os_ = fp.get("os")
    names = Counter(str(g.get("name", "?")) for g in fp.get("gpus") or [] if isinstance(g, dict))
    gpus = tuple(f"{n} x {name}" if n > 1 else name for name, n in names.items())
    container = fp.get("container")
    from cuda2rocm.envelope import machine_id

    return MachineRow(rec.ref.machine or machine_id(fp), fingerprint_platform(fp) or "none", str(fp.get("host", "")),
                      gpus, str(fp.get("driver") or ""), str(fp.get("cuda") or ""), str(fp.get("rocm") or ""),
                      str(os_.get("name", "")) if isinstance(os_, dict) else str(os_ or ""),
                      bool(isinstance(container, dict) and container.get("detected")), rec.ref)


_RISK = {"high": 3, "medium": 2, "low": 1}
_STATUS_ORDER = {Status.FAILED: 0, Status.NOT_STARTED: 1, Status.PARTIAL: 2}


def remaining(items: list[ItemResult], scan: ScanSection | None) -> list[WorkItem]:
    """Every item not done, riskiest first. An item's risk is the highest difficulty the scan gives the layers
    it covers (medium without a scan); a failed item is high risk. Ties: failed, then not started, then partial,
    then checklist order."""
    difficulty = {row.layer: row.difficulty for row in scan.layers} if scan is not None else {}
    out = []
    for it in items:
        if it.status is Status.DONE:
            continue
        levels = [difficulty.get(layer, "medium" if scan is None else "low") for layer in ITEMS[it.id].layers]
        risk = max(levels or ["medium"], key=lambda lv: _RISK.get(lv, 0))
        if it.status is Status.FAILED:
            risk = "high"
        out.append(WorkItem(risk, it.id, it.title, it.status, it.reasons))
    return sorted(out, key=lambda w: (-_RISK.get(w.risk, 0), _STATUS_ORDER[w.status], int(w.item[2:])))


def _dual(ev: Evidence) -> DualPlatform:
    conv = ev.latest("convert")
    summary = conv.result if conv is not None else None
    shared = tuple(f.path for f in summary.files if f.status == "unchanged") if summary is not None else ()
    specific = tuple(f.path for f in summary.files if f.status == "translated") if summary is not None else ()
    scan_rec = ev.latest("scan")
    scan = scan_rec.result if scan_rec is not None else None
    cuda_ci = tuple(f.path for f in scan.files if f.language == "ci") if scan is not None else ()
    deploy = ev.latest("migrate-deploy")
    rocm_ci: tuple[str, ...] = ()
    if deploy is not None and isinstance(deploy.payload, dict):
        from cuda2rocm.checklist.items import file_kind, migrate_files

        rocm_ci = tuple(str(f.get("path")) for f in migrate_files(deploy.payload) if file_kind(f) == "ci")
    baselines = [f"{m.platform}: {m.host or m.machine} ({', '.join(m.gpus) or 'no GPU'})"
                 for m in (_machine(r) for r in ev.of("env") if isinstance(r.payload, dict))]
    baselines += [f"performance: {r.ref.path}" for r in ev.of("bench-compare")]
    todo = []
    if specific:
        todo.append(f"keep the {len(specific)} translated files behind platform macros (`__HIP_PLATFORM_AMD__`) or "
                    "as HIP sources built on both platforms")
    if not rocm_ci:
        todo.append("add a ROCm CI pipeline beside the CUDA one: run `cuda2rocm migrate deploy`")
    platforms = {fingerprint_platform(r.payload) for r in ev.of("env") if isinstance(r.payload, dict)}
    for name in ("cuda", "rocm"):
        if name not in platforms:
            todo.append(f"record the {name.upper()} baseline: `cuda2rocm env` on the {name.upper()} machine")
    return DualPlatform(shared, specific, cuda_ci, rocm_ci, tuple(baselines), tuple(todo))
