"""The ten items of the delivery checklist, each a small registered rule decided only from stored evidence.

An item is registered with :func:`item` under a stable id (``CL1`` .. ``CL10``) with its title, the record kinds
it reads and its evidence rule as text (docs/report.md prints the same rules). A rule is a function
``(Evidence) -> Verdict``: a status (done / partial / not started / failed), the reasons (facts from the
records, and what is missing), and the records it decided on. Nothing is ever self-declared: settings name a
target, but only records prove an item. :func:`decide` applies the one rule every item shares: a stale record
(another payload schema version, or a kind this tool does not know) can make an item partial at most, with the
reason shown.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cuda2rocm.checklist.evidence import Evidence, Rec, Ref, fingerprint_platform


class Status(str, enum.Enum):
    DONE = "done"
    PARTIAL = "partial"
    NOT_STARTED = "not-started"
    FAILED = "failed"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Verdict:
    status: Status
    reasons: tuple[str, ...]
    decided_by: tuple[Rec, ...] = ()  # the records the status rests on (a stale one caps it at partial)
    also: tuple[Rec, ...] = ()  # other records the item shows (e.g. the CUDA baseline)


@dataclass(frozen=True)
class Item:
    id: str
    title: str
    kinds: tuple[str, ...]  # record kinds the rule reads
    rule: str  # the evidence rule, as documented
    layers: tuple[str, ...]  # the scan layers whose difficulty is this item's risk
    check: Callable[[Evidence], Verdict] = field(compare=False, repr=False)


@dataclass(frozen=True)
class ItemResult:
    id: str
    title: str
    status: Status
    reasons: tuple[str, ...]
    evidence: tuple[Ref, ...]
    rule: str


ITEMS: dict[str, Item] = {}


def item(id: str, title: str, kinds: Sequence[str], rule: str, layers: Sequence[str] = ()
         ) -> Callable[[Callable[[Evidence], Verdict]], Callable[[Evidence], Verdict]]:
    def register(fn: Callable[[Evidence], Verdict]) -> Callable[[Evidence], Verdict]:
        if id in ITEMS:
            raise ValueError(f"checklist item {id} registered twice")
        ITEMS[id] = Item(id, title, tuple(kinds), " ".join(rule.split()), tuple(layers), fn)
        return fn

    return register


def decide(it: Item, ev: Evidence) -> ItemResult:
    v = it.check(ev)
    status, reasons = v.status, list(v.reasons)
    stale = [r for r in v.decided_by if r.stale]
    if stale and status in (Status.DONE, Status.FAILED):
        was = "done" if status is Status.DONE else "failed"
        status = Status.PARTIAL
        for r in stale:
            why = "; ".join(r.ref.problems) or "stale record"
            reasons.append(f"would be {was}, but {r.ref.path} is stale ({why}): re-run `{r.ref.command}` with "
                           "this cuda2rocm")
    refs = tuple(dict.fromkeys(r.ref for r in (*v.decided_by, *v.also)))
    return ItemResult(it.id, it.title, status, tuple(reasons), refs, it.rule)


def checklist(ev: Evidence) -> list[ItemResult]:
    return [decide(it, ev) for it in sorted(ITEMS.values(), key=lambda i: int(i.id[2:]))]


# --- helpers the rules share -------------------------------------------------------------------------------------

def _verdict(status: Status, reasons: Iterable[str], decided_by: Iterable[Rec | None] = (),
             also: Iterable[Rec | None] = ()) -> Verdict:
    return Verdict(status, tuple(reasons), tuple(r for r in decided_by if r is not None),
                   tuple(r for r in also if r is not None))


def _typed(rec: Rec | None) -> Any:
    return None if rec is None else rec.result


def migrate_files(payload: Any) -> list[dict[str, Any]]:
    """``payload["files"]`` of a migrate record (documented in docs/report.md), objects only."""
    files = payload.get("files") if isinstance(payload, dict) else None
    return [f for f in files if isinstance(f, dict)] if isinstance(files, list) else []


def _file_failed(f: dict[str, Any]) -> bool:
    return f.get("status") == "failed" or bool(f.get("problems")) or bool(f.get("write_error"))


def _migrate_failed(rec: Rec) -> list[str]:
    """Why a migrate-build/-deploy record shows a failed run (empty when it does not)."""
    out = [f"{f.get('path', '?')}: {f.get('reason') or f.get('write_error') or 'failed'}"
           for f in migrate_files(rec.payload) if _file_failed(f)]
    if rec.crashed and not out:
        out.append(f"`{rec.ref.command}` exited with status {rec.envelope.exit_status}")
    return out


def file_kind(f: dict[str, Any]) -> str:
    from cuda2rocm.migrate.deploy.run import deploy_kind

    return str(f.get("kind") or deploy_kind(str(f.get("path", ""))) or "")


def _findings(payload: Any) -> list[dict[str, Any]]:
    """Finding objects of a migrate record: ``payload["findings"]`` and each file's ``findings``."""
    found: list[Any] = list(payload.get("findings") or []) if isinstance(payload, dict) else []
    for f in migrate_files(payload):
        found += list(f.get("findings") or [])
    return [f for f in found if isinstance(f, dict)]


def _generated(payload: Any) -> list[str]:
    """Files the run added: ``payload["added"]`` of a migrate record (``migrate.summary.AddedFile``)."""
    gen = (payload.get("added") or payload.get("generated")) if isinstance(payload, dict) else None
    if not isinstance(gen, list):
        return []
    return [str(g.get("path", "")) if isinstance(g, dict) else str(g) for g in gen]


def _few(names: Iterable[str], n: int = 3) -> str:
    items = list(dict.fromkeys(names))
    shown = ", ".join(items[:n])
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


def _rocm_envs(ev: Evidence) -> list[Rec]:
    return [r for r in ev.of("env") if isinstance(r.payload, dict) and fingerprint_platform(r.payload) == "rocm"]


def _cuda_envs(ev: Evidence) -> list[Rec]:
    return [r for r in ev.of("env") if isinstance(r.payload, dict) and fingerprint_platform(r.payload) == "cuda"]


def target_of(ev: Evidence) -> str:
    scan = _typed(ev.latest("scan"))
    return ev.settings.target_gpu or (scan.target_gpu if scan is not None else "")


def _matches_target(fp: dict[str, Any], target: str) -> bool:
    """Does a ROCm fingerprint's GPU list hold the target (by marketing name or gfx id)?"""
    wanted = {target.lower()}
    try:
        from cuda2rocm.hazards.targets import UnknownTarget, resolve

        t = resolve(target)
        wanted |= {t.name.lower(), t.gfx.lower()}
    except (ImportError, UnknownTarget):
        pass
    for gpu in fp.get("gpus") or []:
        if not isinstance(gpu, dict):
            continue
        have = " ".join(str(gpu.get(k, "")) for k in ("name", "arch")).lower()
        if any(w and w in have for w in wanted):
            return True
    return False


# --- the ten items -----------------------------------------------------------------------------------------------

@item("CL1", "CUDA dependency and source inventory", ("scan", "env"), """
    done: the newest `scan` record has a result without input problems, and an `env` record from a CUDA machine
    (the baseline's CUDA, driver, cuDNN and NCCL versions) exists. partial: one of the two, or a scan with input
    problems. failed: the newest scan produced no result (exit 2). not started: no scan record.""",
      ("business", "framework", "extension"))
def _inventory(ev: Evidence) -> Verdict:
    rec = ev.latest("scan")
    cuda = _cuda_envs(ev)
    if rec is None:
        return _verdict(Status.NOT_STARTED, ["no scan record: run `cuda2rocm scan .`"], also=cuda[-1:])
    scan = rec.result
    if scan is None and rec.crashed:
        return _verdict(Status.FAILED, [f"the newest scan produced no result (exit {rec.envelope.exit_status})"],
                        [rec])
    if scan is None:
        return _verdict(Status.PARTIAL, ["the newest scan record could not be decoded"], [rec])
    reasons = [f"scan: {len(scan.files)} files, {len(scan.inventory)} components, {len(scan.api_usage)} CUDA "
               f"APIs, {len(scan.plugins)} plugins, {len(scan.binaries)} binaries"]
    ok = True
    if scan.problems:
        ok = False
        reasons.append(f"{len(scan.problems)} files could not be read: {_few(p.path for p in scan.problems)}")
    if cuda:
        fp = cuda[-1].payload
        reasons.append(f"CUDA baseline machine: CUDA {fp.get('cuda') or '?'}, driver {fp.get('driver') or '?'}")
    else:
        ok = False
        reasons.append("no env record from the CUDA machine: run `cuda2rocm env` there and import it")
    return _verdict(Status.DONE if ok else Status.PARTIAL, reasons, [rec, *cuda[-1:]])


@item("CL2", "Target AMD GPU, ROCm and OS chosen", ("env", "scan"), """
    done: an `env` record from a ROCm machine whose GPUs include the target GPU (the `target-gpu` setting,
    else the newest scan's target) and that names its ROCm version and OS. partial: a target is named but no
    ROCm fingerprint shows it, or the fingerprint lacks the ROCm version or OS. failed: the ROCm fingerprints
    show only other GPUs than the target. not started: no target named and no ROCm fingerprint.""", ("ops",))
def _target(ev: Evidence) -> Verdict:
    target = target_of(ev)
    rocm = _rocm_envs(ev)
    if not target and not rocm:
        return _verdict(Status.NOT_STARTED, ["no target GPU named and no env record from a ROCm machine"])
    if not rocm:
        return _verdict(Status.PARTIAL, [f"target {target} named, but no env record from a ROCm machine: run "
                                         "`cuda2rocm env` on it"], [ev.latest("scan")])
    if not target:
        return _verdict(Status.PARTIAL, ["ROCm machine fingerprinted, but no target GPU named (target-gpu in "
                                         "cuda2rocm.toml)"], rocm[-1:])
    hits = [r for r in rocm if _matches_target(r.payload, target)]
    if not hits:
        names = _few(str(g.get("name", "?")) for r in rocm for g in r.payload.get("gpus") or [] if isinstance(g, dict))
        return _verdict(Status.FAILED, [f"target {target}, but the ROCm machines have {names or 'no GPU'}"], rocm)
    fp = hits[-1].payload
    os_name = (fp.get("os") or {}).get("name", "") if isinstance(fp.get("os"), dict) else str(fp.get("os") or "")
    reasons = [f"{target} on a ROCm machine: ROCm {fp.get('rocm') or '?'}, {os_name or 'OS ?'}"]
    if not fp.get("rocm") or not os_name:
        return _verdict(Status.PARTIAL, [*reasons, "the fingerprint lacks the ROCm version or the OS"], hits[-1:])
    return _verdict(Status.DONE, reasons, hits[-1:])


@item("CL3", "Framework and model support confirmed", ("smoke",), """
    done: the newest `smoke` record ran the model's forward pass with no unimplemented operator, no CPU fallback
    and every mixed-precision check passing, on a machine not known as the CUDA baseline. partial: it ran with
    fallbacks or failing precision checks, or only on the CUDA machine. failed: the forward pass failed or an
    operator is not implemented. not started: no smoke record.""", ("framework", "model"))
def _framework(ev: Evidence) -> Verdict:
    rec = ev.latest("smoke")
    if rec is None:
        return _verdict(Status.NOT_STARTED, ["no smoke record: run `cuda2rocm smoke` with the model on the GPU"])
    s = rec.result
    if s is None:
        return _verdict(Status.FAILED if rec.crashed else Status.PARTIAL,
                        ["the newest smoke run produced no result" if rec.crashed else "smoke record not decoded"],
                        [rec])
    if not s.forward.ok or s.not_implemented:
        why = [f"forward failed: {s.forward.detail}"] if not s.forward.ok else []
        why += [f"not implemented: {_few(s.not_implemented)}"] if s.not_implemented else []
        return _verdict(Status.FAILED, why, [rec])
    reasons = [f"forward ok on {s.device}: {s.ops} operators"]
    partial = []
    if s.cpu_fallbacks:
        partial.append(f"CPU fallbacks: {_few(op for op, _ in s.cpu_fallbacks)}")
    bad_amp = [c.name for c in s.amp if not c.ok]
    if bad_amp:
        partial.append(f"mixed precision fails: {_few(bad_amp)}")
    if ev.platform(rec) == "cuda":
        partial.append("ran on the CUDA baseline machine: run smoke on the ROCm machine")
    return _verdict(Status.PARTIAL if partial else Status.DONE, reasons + partial, [rec])


_UNSUPPORTED_PLUGIN = ("none", "deprecated_project")


@item("CL4", "Every unsupported CUDA API and third-party plugin handled", ("scan", "convert"), """
    done: the newest `convert` record leaves no unsupported reference and no failed file, and the newest `scan`
    shows no plugin without ROCm support and no CUDA binary without source. partial: either record missing, or
    any of those left (counted). failed: the newest convert failed on a file. not started: neither record.""",
      ("extension", "low-level"))
def _unsupported(ev: Evidence) -> Verdict:
    scan_rec, conv_rec = ev.latest("scan"), ev.latest("convert")
    if scan_rec is None and conv_rec is None:
        return _verdict(Status.NOT_STARTED, ["no scan or convert record"])
    conv = _typed(conv_rec)
    if conv is not None and conv.failed:
        return _verdict(Status.FAILED, [f"convert failed on {_few(f.path for f in conv.failed)}"], [conv_rec])
    open_: list[str] = []
    reasons: list[str] = []
    scan = _typed(scan_rec)
    if scan is None:
        open_.append("no decoded scan record")
    else:
        plugins = [p.package for p in scan.plugins if p.rocm_support in _UNSUPPORTED_PLUGIN]
        closed = [b.path for b in scan.binaries if b.cuda_libraries and not b.has_source]
        if plugins:
            open_.append(f"{len(plugins)} plugins without ROCm support: {_few(plugins)}")
        if closed:
            open_.append(f"{len(closed)} CUDA binaries without source: {_few(closed)}")
        reasons.append(f"scan: {len(scan.plugins)} plugins, {len(scan.binaries)} binaries")
    if conv is None:
        open_.append("no decoded convert record: run `cuda2rocm convert`")
    else:
        t = conv.totals
        reasons.append(f"convert: {t.converted_total} references converted, {t.unsupported} unsupported left")
        if t.unsupported:
            open_.append(f"{t.unsupported} unsupported CUDA references left after convert")
    return _verdict(Status.PARTIAL if open_ else Status.DONE, reasons + open_, [scan_rec, conv_rec])


@item("CL5", "HIP code and build system converted", ("convert", "migrate-build", "verify"), """
    done: a `convert` record with no failed file, a `migrate-build` record with no failed file, and a `verify`
    record in which every translation unit compiled with hipcc. partial: some of the three missing. failed: the
    newest verify has units that do not compile, or the newest convert or migrate build failed (exit 2 or a
    failed file). not started: none of the three.""", ("extension", "low-level", "library"))
def _hip_build(ev: Evidence) -> Verdict:
    conv_rec, build_rec, ver_rec = ev.latest("convert"), ev.latest("migrate-build"), ev.latest("verify")
    if conv_rec is None and build_rec is None and ver_rec is None:
        return _verdict(Status.NOT_STARTED, ["no convert, migrate-build or verify record"])
    failed: list[str] = []
    failing: list[Rec] = []
    reasons: list[str] = []
    missing: list[str] = []
    conv, ver = _typed(conv_rec), _typed(ver_rec)
    if conv is not None:
        reasons.append(f"convert: {len(conv.changed)} files translated")
        if conv.failed:
            failed += [f"convert failed on {f.path}" for f in conv.failed]
            failing.append(conv_rec)  # type: ignore[arg-type]
    else:
        missing.append("convert")
    if build_rec is not None:
        why = _migrate_failed(build_rec)
        if why:
            failed += [f"migrate build: {w}" for w in why]
            failing.append(build_rec)
        else:
            reasons.append(f"migrate build: {len(migrate_files(build_rec.payload))} build files")
    else:
        missing.append("migrate-build")
    if ver is not None:
        bad = [u.path for u in ver.units if not u.ok]
        if bad or ver.convert_failures:
            failed.append(f"verify ({ver.arch}): {len(bad)} of {len(ver.units)} units do not compile: {_few(bad)}")
            failing.append(ver_rec)  # type: ignore[arg-type]
        else:
            reasons.append(f"verify: {len(ver.units)} units compile for {ver.arch}")
    elif ver_rec is not None and ver_rec.crashed:
        failed.append(f"verify produced no result (exit {ver_rec.envelope.exit_status})")
        failing.append(ver_rec)
    else:
        missing.append("verify")
    decided = [conv_rec, build_rec, ver_rec]
    if failed:
        return _verdict(Status.FAILED, failed + reasons, failing, decided)
    if missing:
        return _verdict(Status.PARTIAL, [*reasons, f"missing: {', '.join(missing)} record"], decided)
    return _verdict(Status.DONE, reasons, decided)


#: CUDA math libraries (scan's ApiUse.library names) whose use item 6 tracks, plus nccl
MATH_LIBRARIES = frozenset({"cublas", "cublaslt", "cudnn", "cufft", "cusparse", "cusolver", "curand", "cub",
                            "thrust", "nccl"})


@item("CL6", "Math libraries and NCCL replaced", ("scan", "convert", "comm"), """
    done: every CUDA math library and NCCL the newest `scan` finds in use has references converted in the newest
    `convert` record, and where NCCL is used a `comm` record ran on RCCL. partial: a library not converted yet,
    or no RCCL comm record. failed: an RCCL comm record reports backend problems (the framework fell back or
    loaded another library). not started: no scan record.""", ("library",))
def _libraries(ev: Evidence) -> Verdict:
    scan_rec = ev.latest("scan")
    rccl = [r for r in ev.of("comm") if ev.platform(r) == "rocm" and isinstance(r.payload, dict)]
    broken = [r for r in rccl if (r.payload.get("header") or {}).get("backend_problems")]
    if broken:
        probs = [str(p) for r in broken for p in r.payload["header"]["backend_problems"]]
        return _verdict(Status.FAILED, [f"RCCL backend problems: {_few(probs)}"], broken[-1:])
    scan = _typed(scan_rec)
    if scan is None:
        return _verdict(Status.NOT_STARTED, ["no decoded scan record: which libraries are used is not known"],
                        [scan_rec])
    used = sorted({a.library for a in scan.api_usage if a.library in MATH_LIBRARIES})
    if not used:
        return _verdict(Status.DONE, ["scan finds no CUDA math library or NCCL in use"], [scan_rec])
    conv_rec = ev.latest("convert")
    conv = _typed(conv_rec)
    done_libs = {lib for lib, _ in conv.totals.converted} if conv is not None else set()
    left = [lib for lib in used if lib not in done_libs]
    reasons = [f"in use: {', '.join(used)}"]
    if left:
        reasons.append(f"not converted yet: {', '.join(left)}")
    decided = [scan_rec, conv_rec]
    if "nccl" in used:
        if rccl:
            reasons.append(f"RCCL ran: {(rccl[-1].payload.get('header') or {}).get('backend', 'RCCL')}")
            decided.append(rccl[-1])
        else:
            left.append("rccl")
            reasons.append("no comm record on RCCL: run `cuda2rocm comm` on the ROCm machine")
    return _verdict(Status.PARTIAL if left else Status.DONE, reasons, decided)


@item("CL7", "Reproducible container built", ("migrate-deploy", "env"), """
    done: a `migrate-deploy` record with a Dockerfile (payload `files[]`, kind `dockerfile`) migrated without
    failure, and an `env` record taken inside a container (`container.detected`) on a ROCm machine. partial: one
    of the two. failed: the newest migrate deploy failed on a Dockerfile or exited 2. not started: neither.""",
      ("ops",))
def _container(ev: Evidence) -> Verdict:
    rec = ev.latest("migrate-deploy")
    inside = [r for r in _rocm_envs(ev) if isinstance(r.payload.get("container"), dict)
              and r.payload["container"].get("detected")]
    if rec is None and not inside:
        return _verdict(Status.NOT_STARTED, ["no migrate-deploy record and no env record from a ROCm container"])
    reasons: list[str] = []
    open_: list[str] = []
    if rec is not None:
        docker = [f for f in migrate_files(rec.payload) if file_kind(f) == "dockerfile"]
        bad = [f for f in docker if _file_failed(f)]
        if bad or (rec.crashed and not docker):
            return _verdict(Status.FAILED, [f"migrate deploy failed: {w}" for w in _migrate_failed(rec)], [rec])
        if docker:
            reasons.append(f"ROCm Dockerfile: {_few(str(f.get('path')) for f in docker)}")
        else:
            open_.append("the migrate-deploy record has no Dockerfile")
    else:
        open_.append("no migrate-deploy record: run `cuda2rocm migrate deploy`")
    if inside:
        fp = inside[-1].payload
        reasons.append(f"env inside a container on ROCm {fp.get('rocm') or '?'}")
    else:
        open_.append("no env record from inside the ROCm container: run `cuda2rocm env` in it")
    return _verdict(Status.PARTIAL if open_ else Status.DONE, reasons + open_, [rec, *inside[-1:]])


@item("CL8", "Unit, correctness and performance tests done", ("smoke", "compare", "bench-compare"), """
    done: the newest `smoke`, `compare` and `bench-compare` records all pass (forward pass and the abnormal-input
    checks: NaN input, empty batch, out of memory; every tensor, curve and metric within tolerance; no metric
    failing its threshold or regressing significantly). partial:
    some of the three missing. failed: the newest of any of them fails. not started: none of them.""",
      ("model", "extension"))
def _tests(ev: Evidence) -> Verdict:
    smoke_rec, cmp_rec, bench_rec = ev.latest("smoke"), ev.latest("compare"), ev.latest("bench-compare")
    if smoke_rec is None and cmp_rec is None and bench_rec is None:
        return _verdict(Status.NOT_STARTED, ["no smoke, compare or bench-compare record"])
    failed: list[str] = []
    failing: list[Rec | None] = []
    reasons: list[str] = []
    missing: list[str] = []
    smoke, outcome, bench = _typed(smoke_rec), _typed(cmp_rec), _typed(bench_rec)
    if smoke is not None:
        bad = [c for c in (smoke.forward, *smoke.abnormal) if not c.ok]
        if bad:
            failed.append("smoke: " + "; ".join(f"{c.name} failed{': ' + c.detail if c.detail else ''}" for c in bad))
            failing.append(smoke_rec)
        else:
            reasons.append(f"smoke: forward pass and {len(smoke.abnormal)} abnormal-input checks ok")
    else:
        missing.append("smoke")
    if outcome is not None:
        if outcome.passed:
            reasons.append("compare passes")
        else:
            first = outcome.tensors.first_divergence if outcome.tensors is not None else None
            failed.append(f"compare fails: first divergence {first.name} ({'; '.join(first.reasons) or first.status})"
                          if first is not None else "compare fails (curves or metrics)")
            failing.append(cmp_rec)
    else:
        missing.append("compare")
    if bench is not None:
        if bench.exit_code:
            failed += [f"bench: {line}" for line in bench.failures()[:3]]
            failing.append(bench_rec)
        else:
            reasons.append(f"bench compare: {len(bench.results)} metrics within thresholds")
    else:
        missing.append("bench-compare")
    decided = [smoke_rec, cmp_rec, bench_rec]
    if failed:
        return _verdict(Status.FAILED, failed + reasons, failing, decided)
    if missing:
        return _verdict(Status.PARTIAL, [*reasons, f"missing: {', '.join(missing)} record"], decided)
    return _verdict(Status.DONE, reasons, decided)


def _comm_shape(rec: Rec) -> tuple[int, int]:
    header = rec.payload.get("header") or {}
    return int(header.get("world_size") or 0), int(header.get("nnodes") or 1)


def _comm_wrong(rec: Rec) -> list[str]:
    return [f"{r.get('op')} {r.get('dtype')} {r.get('bytes')} B" for r in rec.payload.get("records") or []
            if isinstance(r, dict) and (r.get("correct") is False or r.get("error"))]


@item("CL9", "Single-GPU, 8-GPU and multi-node regression done", ("compare", "comm"), """
    done: a passing `compare` record (the single-GPU regression against the baseline), a `comm` record on RCCL
    with 8 or more GPUs on one node, and one on RCCL across 2 or more nodes, each with every result correct.
    partial: some of the three scales. failed: an RCCL comm record with a wrong result or error, or the newest
    compare fails. not started: none. NCCL comm records are the CUDA baseline: shown, never counted.""",
      ("ops", "library"))
def _scales(ev: Evidence) -> Verdict:
    comm = [r for r in ev.of("comm") if isinstance(r.payload, dict)]
    rccl = [r for r in comm if ev.platform(r) == "rocm"]
    baseline = [r for r in comm if ev.platform(r) == "cuda"]
    cmp_rec = ev.latest("compare")
    outcome = _typed(cmp_rec)
    base_note = [f"CUDA baseline: {_few(f'{w} GPUs on {n} node(s)' for w, n in map(_comm_shape, baseline))}"] \
        if baseline else []
    wrong = [(r, _comm_wrong(r)) for r in rccl]
    wrong = [(r, w) for r, w in wrong if w]
    if wrong:
        return _verdict(Status.FAILED, [f"{r.ref.path}: wrong results: {_few(w)}" for r, w in wrong],
                        [r for r, _ in wrong], baseline)
    if outcome is not None and not outcome.passed:
        return _verdict(Status.FAILED, ["the newest compare fails"], [cmp_rec], baseline)
    one = cmp_rec if outcome is not None else None
    eight = next((r for r in reversed(rccl) if _comm_shape(r)[0] >= 8 and _comm_shape(r)[1] == 1), None)
    multi = next((r for r in reversed(rccl) if _comm_shape(r)[1] >= 2), None)
    scales = {"1 GPU (compare)": one, "8 GPUs on one node (comm)": eight, ">= 2 nodes (comm)": multi}
    have = [k for k, v in scales.items() if v is not None]
    lacking = [k for k, v in scales.items() if v is None]
    if not have:
        return _verdict(Status.NOT_STARTED, ["no passing compare and no RCCL comm record", *base_note],
                        also=baseline)
    reasons = [f"covered: {', '.join(have)}"] + ([f"missing: {', '.join(lacking)}"] if lacking else []) + base_note
    return _verdict(Status.PARTIAL if lacking else Status.DONE, reasons, scales.values(), baseline)


def _rule_number(rule: str) -> int:
    digits = "".join(ch for ch in rule.removeprefix("C2R-M") if ch.isdigit())
    return int(digits) if rule.startswith("C2R-M") and digits else -1


@item("CL10", "Monitoring, logging, upgrade and rollback in place", ("migrate-deploy",), """
    done: the newest `migrate-deploy` record covers monitoring and logging (a dashboard file among `files[]`, or a
    C2R-M7xx finding) and upgrade and rollback (a generated canary or validation file in `added[]`, or a
    C2R-M8xx finding). partial: one of the two. failed: the newest migrate deploy failed (exit 2 or a failed
    file). not started: no migrate-deploy record.""", ("ops",))
def _operations(ev: Evidence) -> Verdict:
    rec = ev.latest("migrate-deploy")
    if rec is None:
        return _verdict(Status.NOT_STARTED, ["no migrate-deploy record: run `cuda2rocm migrate deploy`"])
    why = _migrate_failed(rec)
    if why:
        return _verdict(Status.FAILED, [f"migrate deploy failed: {w}" for w in why], [rec])
    rules = [str(f.get("rule", "")) for f in _findings(rec.payload)]
    monitoring = [str(f.get("path")) for f in migrate_files(rec.payload) if file_kind(f) == "dashboard"]
    monitoring += [r for r in rules if 700 <= _rule_number(r) < 800]
    rollout = _generated(rec.payload) + [r for r in rules if 800 <= _rule_number(r) < 900]
    reasons = []
    reasons.append(f"monitoring and logging: {_few(monitoring)}" if monitoring
                   else "monitoring and logging: nothing migrated (no dashboard, no C2R-M7xx finding)")
    reasons.append(f"upgrade and rollback: {_few(rollout)}" if rollout
                   else "upgrade and rollback: no canary or validation file generated, no C2R-M8xx finding")
    return _verdict(Status.DONE if monitoring and rollout else Status.PARTIAL, reasons, [rec])

