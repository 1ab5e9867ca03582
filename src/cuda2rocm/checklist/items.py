"""The ten items of the delivery checklist, each a small registered rule decided only from stored evidence.

An item is registered with :func:`item` under a stable id (``CL1`` .. ``CL10``) with its title, the record kinds
it reads and its evidence rule as text (docs/report.md prints the same rules). A rule is a function
``(Evidence) -> Verdict``: a status (done / partial / not started / failed), the reasons (facts from the
records, and what is missing), and the records it decided on. Nothing is ever self-declared: settings name a
target, but only records prove an item. :func:`decide` applies the rules every item shares: a stale record
(another payload schema version, or a kind this tool does not know) can make an item partial at most, with the
reason shown; and an item is done only with no open high or critical finding in its scope (the newest records of
the kinds in ``Item.findings``, in its ``finding_layers``): otherwise it is partial and names them.

Evidence that must come from GPUs (compare, bench compare, smoke) counts only when it was made on the named
platform: the CUDA baseline on an NVIDIA GPU, the candidate on an AMD GPU with ROCm (:func:`gpu_evidence`). Runs of
``bench compare`` are grouped by comparison (the metrics compared); in each group the newest run under the
workspace's thresholds decides, and a run with looser thresholds than ``cuda2rocm.toml``'s is not evidence
(:func:`performance_runs`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cuda2rocm.checklist.evidence import Evidence, Rec, Ref, fingerprint_platform

if TYPE_CHECKING:
    from cuda2rocm.perf.thresholds import Threshold


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
    findings: tuple[str, ...] = ()  # record kinds whose open high/critical findings keep the item from done
    finding_layers: tuple[str, ...] = ()  # ... in these layers only (empty: every layer)

    @property
    def findings_rule(self) -> str:
        """The shared rule on open findings, as this item applies it (docs/report.md)."""
        if not self.findings:
            return ""
        kinds = ", ".join(f"`{k}`" for k in self.findings)
        where = f" in the {', '.join(self.finding_layers)} layer{'s' if len(self.finding_layers) > 1 else ''}" \
            if self.finding_layers else ""
        return (f"Open findings: done also needs no high or critical finding{where} in the newest {kinds} "
                "record; with one left the item is partial and names it.")


@dataclass(frozen=True)
class ItemResult:
    id: str
    title: str
    status: Status
    reasons: tuple[str, ...]
    evidence: tuple[Ref, ...]
    rule: str


ITEMS: dict[str, Item] = {}


def item(id: str, title: str, kinds: Sequence[str], rule: str, layers: Sequence[str] = (), *,
         findings: Sequence[str] = (), finding_layers: Sequence[str] = ()
         ) -> Callable[[Callable[[Evidence], Verdict]], Callable[[Evidence], Verdict]]:
    def register(fn: Callable[[Evidence], Verdict]) -> Callable[[Evidence], Verdict]:
        if id in ITEMS:
            raise ValueError(f"checklist item {id} registered twice")
        ITEMS[id] = Item(id, title, tuple(kinds), " ".join(rule.split()), tuple(layers), fn, tuple(findings),
                         tuple(finding_layers))
        return fn

    return register


def decide(it: Item, ev: Evidence) -> ItemResult:
    v = it.check(ev)
    status, reasons = v.status, list(v.reasons)
    if status is Status.DONE and it.findings:
        left = open_findings(ev, it.findings, it.finding_layers)
        if left:
            status = Status.PARTIAL
            reasons.append(f"{len(left)} high or critical findings left open: {_few(left)}")
            v = Verdict(status, v.reasons, (*v.decided_by, *(r for k in it.findings if (r := ev.latest(k)))), v.also)
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


def open_findings(ev: Evidence, kinds: Sequence[str], layers: Sequence[str] = ()) -> list[str]:
    """The high and critical findings the newest record of each of ``kinds`` leaves open (``convert``: every
    file's findings; migrate records: the payload's), in ``layers`` (empty: all), as ``RULE path:line``."""
    out = []
    for kind in kinds:
        rec = ev.latest(kind)
        if rec is None:
            continue
        if kind == "convert":
            summary = rec.result
            found = [{"rule": f.rule, "severity": str(f.severity), "layer": str(f.layer), "path": f.path,
                      "line": f.line} for fs in (summary.files if summary is not None else ()) for f in fs.findings]
        else:
            found = _findings(rec.payload)
        for f in found:
            if str(f.get("severity", "")).lower() in ("high", "critical") and \
                    (not layers or str(f.get("layer", "")) in layers):
                out.append(f"{f.get('rule', '?')} {f.get('path', '?')}:{f.get('line', 0)}")
    return list(dict.fromkeys(out))


def gpu_evidence(ev: Evidence, rec: Rec, inputs: str = "captures") -> str:
    """"" when ``rec`` (compare, bench compare) compares a CUDA baseline made on an NVIDIA GPU with a candidate
    made on an AMD GPU with ROCm; else what it compared instead (``inputs`` names the kind of input)."""
    base, cand = ev.side(rec, "baseline"), ev.side(rec, "candidate")
    if (base.platform, cand.platform) == ("cuda", "rocm"):
        return ""
    if base.platform == cand.platform == "cpu":
        return f"on CPU {inputs} only: not GPU evidence"
    if not base.platform and not cand.platform:
        return f"on {inputs} that do not record the device they ran on: not GPU evidence"
    return (f"with the baseline on {base} and the candidate on {cand}: not GPU evidence (that needs the CUDA "
            "baseline on an NVIDIA GPU and the candidate on an AMD GPU with ROCm)")


def gpu_pair(ev: Evidence, rec: Rec) -> str:
    """``NVIDIA H200 (CUDA) vs MI300X (ROCM)``: the two sides of a comparison that is GPU evidence."""
    return f"{ev.side(rec, 'baseline')} vs {ev.side(rec, 'candidate')}"


def newest_compare(ev: Evidence) -> tuple[str, str, Rec | None]:
    """What the compare records show, as (state, reason, record): ``fail`` when the newest compare, or the newest
    one that is GPU evidence, fails; ``pass`` when the newest GPU-evidence compare passes; ``not-gpu`` when
    compares pass only on other devices (the reason says which); ``""`` without a decoded compare record."""
    recs = [r for r in ev.of("compare") if r.result is not None]
    if not recs:
        return "", "", None
    gpu = [r for r in recs if not gpu_evidence(ev, r)]
    for rec in (recs[-1], *gpu[-1:]):
        if not rec.result.passed:
            first = rec.result.tensors.first_divergence if rec.result.tensors is not None else None
            why = (f"compare fails: first divergence {first.name} ({'; '.join(first.reasons) or first.status})"
                   if first is not None else "compare fails (curves or metrics)")
            return "fail", why, rec
    if gpu:
        return "pass", f"compare passes: {gpu_pair(ev, gpu[-1])}", gpu[-1]
    return "not-gpu", f"compare passes {gpu_evidence(ev, recs[-1])}", recs[-1]


@dataclass(frozen=True)
class BenchRun:
    """One ``bench compare`` record judged against the workspace's thresholds."""

    rec: Rec
    comparison: tuple[str, ...]  # the metrics compared: runs with the same metrics are the same comparison
    looser: tuple[str, ...]  # workspace thresholds this run applied more loosely (or not at all): not evidence
    decides: bool  # the newest run of its comparison under the workspace's thresholds

    @property
    def passed(self) -> bool:
        return not self.rec.result.exit_code

    @property
    def role(self) -> str:
        if self.looser:
            return "not evidence: looser thresholds than cuda2rocm.toml (" + "; ".join(self.looser) + ")"
        return "decides" if self.decides else "earlier run"


def _as_strict(used: Threshold | None, wanted: Threshold) -> bool:
    """Does the threshold a run applied hold the candidate at least as tightly as the workspace's?"""
    if used is None or used.relative != wanted.relative:
        return False
    if wanted.op in (">=", ">") and used.op in (">=", ">"):
        return used.value > wanted.value or (used.value == wanted.value and (used.op == ">" or wanted.op == ">="))
    if wanted.op in ("<=", "<") and used.op in ("<=", "<"):
        return used.value < wanted.value or (used.value == wanted.value and (used.op == "<" or wanted.op == "<="))
    return False


def performance_runs(ev: Evidence) -> list[BenchRun]:
    """Every decoded ``bench compare`` record, oldest first, judged under the workspace's ``[performance]
    thresholds``: a run that applied a looser threshold (or none) to a metric a workspace threshold names is not
    evidence; of the others, the newest run of each comparison (the same metric names) decides."""
    from cuda2rocm.perf import thresholds

    wanted = []
    for text in ev.settings.thresholds:
        try:
            wanted.append(thresholds.parse(text))
        except ValueError:
            continue
    judged: list[tuple[Rec, tuple[str, ...], tuple[str, ...]]] = []
    for rec in ev.of("bench-compare"):
        report = rec.result
        if report is None:
            continue
        looser = []
        for r in report.results:
            limit = thresholds.find(wanted, r.name)
            if limit is None:
                continue
            try:
                used = thresholds.parse(r.threshold) if r.threshold else None
            except ValueError:
                used = None
            if not _as_strict(used, limit):
                looser.append(f"{r.name}: {r.threshold or 'no threshold'}, cuda2rocm.toml: {limit}")
        judged.append((rec, tuple(sorted(r.name for r in report.results)), tuple(looser)))
    deciders = {key: rec for rec, key, looser in judged if not looser}
    return [BenchRun(rec, key, looser, deciders.get(key) is rec) for rec, key, looser in judged]


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
    and every mixed-precision check passing, on a GPU (not `cpu`) of a machine not known as the CUDA baseline.
    partial: it ran with fallbacks or failing precision checks, on the CPU (not GPU evidence), or only on the CUDA
    machine. failed: the forward pass failed or an
    operator is not implemented. not started: no smoke record.""", ("framework", "model"))
def _framework(ev: Evidence) -> Verdict:
    rec = ev.latest("smoke")
    if rec is None:
        return _verdict(Status.NOT_STARTED, ["no smoke record: run `cuda2rocm smoke MODULE:FACTORY --device cuda` "
                                             "on the AMD GPU (MODULE:FACTORY: the model factory, docs/regress.md)"])
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
    if _on_cpu(s.device):
        partial.append("ran on the CPU: not GPU evidence; run smoke with the model on the AMD GPU")
    return _verdict(Status.PARTIAL if partial else Status.DONE, reasons + partial, [rec])


def _on_cpu(device: str) -> bool:
    return not device or device.split(":")[0] == "cpu"


_UNSUPPORTED_PLUGIN = ("none", "deprecated_project")


@item("CL4", "Every unsupported CUDA API and third-party plugin handled", ("scan", "convert"), """
    done: the newest `convert` record leaves no unsupported reference and no failed file, and the newest `scan`
    shows no plugin without ROCm support and no CUDA binary without source. partial: either record missing, or
    any of those left (counted). failed: the newest convert failed on a file. not started: neither record.""",
      ("extension", "low-level"), findings=("convert", "migrate-build"))
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
        open_.append("no decoded convert record: run `cuda2rocm convert . -o hip`")
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
    failed file). not started: none of the three.""", ("extension", "low-level", "library"),
      findings=("convert", "migrate-build"))
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
    loaded another library). not started: no scan record.""", ("library",),
      findings=("convert",), finding_layers=("library",))
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
            reasons.append("no comm record on RCCL: run `cuda2rocm comm --nproc 8` on the ROCm machine")
    return _verdict(Status.PARTIAL if left else Status.DONE, reasons, decided)


@item("CL7", "Reproducible container built", ("migrate-deploy", "env"), """
    done: a `migrate-deploy` record with a Dockerfile (payload `files[]`, kind `dockerfile`) migrated without
    failure, and an `env` record taken inside a container (`container.detected`) on a ROCm machine. partial: one
    of the two. failed: the newest migrate deploy failed on a Dockerfile or exited 2. not started: neither.""",
      ("ops",), findings=("migrate-deploy",))
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
    done: the newest `smoke` record passes on a GPU (forward pass and the abnormal-input checks: NaN input, empty
    batch, out of memory), the newest `compare` that is GPU evidence passes (every tensor, curve and metric within
    tolerance) and, for every `bench-compare` comparison (runs comparing the same metrics), the newest run under
    the workspace's `[performance] thresholds` passes (no metric failing its threshold or regressing
    significantly). GPU evidence: the baseline side ran on an NVIDIA GPU (CUDA) and the candidate on an AMD GPU
    (ROCm), read from the capture manifests or bench fingerprints among the record's artifacts. A bench run that
    applied a looser threshold (or none) to a metric a workspace threshold names is not evidence; the report
    lists it in the comparison's history. partial: some of the three missing, a smoke run on the CPU, a compare
    or bench compare that passes only on other devices (CPU captures, the same platform on both sides, devices
    not recorded), or bench runs only under looser thresholds. failed: the newest smoke fails, the newest compare
    (or the newest GPU-evidence compare) fails, or the deciding run of a bench comparison fails. not started:
    none of them.""",
      ("model", "extension"))
def _tests(ev: Evidence) -> Verdict:
    smoke_rec, bench_recs = ev.latest("smoke"), ev.of("bench-compare")
    state, why, cmp_rec = newest_compare(ev)
    if smoke_rec is None and not state and not bench_recs:
        return _verdict(Status.NOT_STARTED, ["no smoke, compare or bench-compare record"])
    failed: list[str] = []
    failing: list[Rec | None] = []
    reasons: list[str] = []
    open_: list[str] = []
    smoke = _typed(smoke_rec)
    if smoke is not None:
        bad = [c for c in (smoke.forward, *smoke.abnormal) if not c.ok]
        if bad:
            failed.append("smoke: " + "; ".join(f"{c.name} failed{': ' + c.detail if c.detail else ''}" for c in bad))
            failing.append(smoke_rec)
        elif _on_cpu(smoke.device):
            open_.append("smoke passes on the CPU only: not GPU evidence")
        else:
            reasons.append(f"smoke: forward pass and {len(smoke.abnormal)} abnormal-input checks ok on "
                           f"{smoke.device}")
    else:
        open_.append("missing: smoke record")
    if state == "fail":
        failed.append(why)
        failing.append(cmp_rec)
    elif state == "pass":
        reasons.append(why)
    elif state == "not-gpu":
        open_.append(why)
    else:
        open_.append("missing: compare record")
    runs = performance_runs(ev)
    deciders = [r for r in runs if r.decides]
    for run in deciders:
        history = [r for r in runs if r.comparison == run.comparison]
        earlier = ""
        if len(history) > 1:
            earlier = f" ({len(history)} runs of this comparison: " + ", ".join(
                f"{'pass' if r.passed else 'fail'}{' (looser thresholds: not evidence)' if r.looser else ''}"
                for r in history) + ")"
        if not run.passed:
            failed += [f"bench: {line}{earlier}" for line in run.rec.result.failures()[:3]]
            failing.append(run.rec)
        elif (not_gpu := gpu_evidence(ev, run.rec, "runs")):
            open_.append(f"bench compare passes {not_gpu}{earlier}")
        else:
            reasons.append(f"bench compare: {len(run.rec.result.results)} metrics within thresholds, "
                           f"{gpu_pair(ev, run.rec)}{earlier}")
    if runs and not deciders:
        open_.append("bench compare ran only with looser thresholds than cuda2rocm.toml's: "
                     + _few(x for r in runs for x in r.looser) + "; re-run it with the workspace's thresholds")
    elif not runs:
        open_.append("missing: bench-compare record")
    decided = [smoke_rec, cmp_rec, *(r.rec for r in deciders)]
    if failed:
        return _verdict(Status.FAILED, failed + reasons, failing, decided)
    if open_:
        return _verdict(Status.PARTIAL, reasons + open_, decided)
    return _verdict(Status.DONE, reasons, decided)


def _comm_shape(rec: Rec) -> tuple[int, int]:
    header = rec.payload.get("header") or {}
    return int(header.get("world_size") or 0), int(header.get("nnodes") or 1)


def _comm_wrong(rec: Rec) -> list[str]:
    return [f"{r.get('op')} {r.get('dtype')} {r.get('bytes')} B" for r in rec.payload.get("records") or []
            if isinstance(r, dict) and (r.get("correct") is False or r.get("error"))]


@item("CL9", "Single-GPU, 8-GPU and multi-node regression done", ("compare", "comm"), """
    done: a passing `compare` record that is GPU evidence (the single-GPU regression: the CUDA baseline captured on
    an NVIDIA GPU, the candidate on an AMD GPU with ROCm, as item 8 reads them), a `comm` record on RCCL with 8 or
    more GPUs on one node, and one on RCCL across 2 or more nodes, each with every result correct. partial: some
    of the three scales (a compare that passes only on CPU captures or other devices does not count, and the
    reason says what it compared). failed: an RCCL comm record with a wrong result or error, or the newest
    compare fails. not started: none. NCCL comm records are the CUDA baseline: shown, never counted.""",
      ("ops", "library"))
def _scales(ev: Evidence) -> Verdict:
    comm = [r for r in ev.of("comm") if isinstance(r.payload, dict)]
    rccl = [r for r in comm if ev.platform(r) == "rocm"]
    baseline = [r for r in comm if ev.platform(r) == "cuda"]
    state, why, cmp_rec = newest_compare(ev)
    base_note = [f"CUDA baseline: {_few(f'{w} GPUs on {n} node(s)' for w, n in map(_comm_shape, baseline))}"] \
        if baseline else []
    wrong = [(r, _comm_wrong(r)) for r in rccl]
    wrong = [(r, w) for r, w in wrong if w]
    if wrong:
        return _verdict(Status.FAILED, [f"{r.ref.path}: wrong results: {_few(w)}" for r, w in wrong],
                        [r for r, _ in wrong], baseline)
    if state == "fail":
        return _verdict(Status.FAILED, [f"the newest compare fails: {why.removeprefix('compare fails: ')}"],
                        [cmp_rec], baseline)
    one = cmp_rec if state == "pass" else None
    if state == "not-gpu":
        base_note.insert(0, f"1 GPU: not counted: {why}")
    eight = next((r for r in reversed(rccl) if _comm_shape(r)[0] >= 8 and _comm_shape(r)[1] == 1), None)
    multi = next((r for r in reversed(rccl) if _comm_shape(r)[1] >= 2), None)
    scales = {"1 GPU (compare)": one, "8 GPUs on one node (comm)": eight, ">= 2 nodes (comm)": multi}
    have = [k for k, v in scales.items() if v is not None]
    lacking = [k for k, v in scales.items() if v is None]
    if not have:
        if state == "not-gpu":
            return _verdict(Status.PARTIAL, [f"missing: {', '.join(lacking)}", *base_note], [cmp_rec], baseline)
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
    file). not started: no migrate-deploy record.""", ("ops",), findings=("migrate-deploy",))
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

