"""``cuda2rocm migrate PATH -o OUT``: the static half of a migration end to end, into a new tree.

Stages, in order: ``scan`` (the assessment), ``convert`` (CUDA -> HIP with the safe hazard fixes), ``build``
(``migrate build``), ``deploy`` (``migrate deploy``), ``copy`` (every other file of the input, as it is, so
OUT is a complete project), ``verify`` (hipcc compiles the translated units; only when hipcc is found). Each
stage is a library call (:func:`cuda2rocm.scan`, :func:`cuda2rocm.convert`, :func:`cuda2rocm.migrate_build`,
:func:`cuda2rocm.migrate_deploy`, :func:`cuda2rocm.translate.verify.verify`); the input is only read.

**The journal** (``OUT/.cuda2rocm-migrate/journal.json``, written atomically after each stage) names the input,
a hash of the input tree and of the settings, and for each finished stage the files it put in OUT with their
sha256. A stage writes into its own staging folder (``.cuda2rocm-migrate/staging/<stage>``, emptied first),
then moves each file into OUT (``os.replace``: atomic) and only then is journalled. So a run killed at any
point (Ctrl-C, ``kill -9``) leaves OUT with whole files only, and re-running the same command resumes: finished
stages are skipped, the interrupted one is done again. When the input or the settings changed, every stage is
done again (a restart); files an earlier run wrote that this one no longer makes are removed if unchanged.

**Nothing the user wrote is overwritten.** A file is put at ``OUT/rel`` only when nothing is there, when the
same bytes are there, or when what is there is what the journal says this tool wrote (same sha256). Anything
else (a file the user edited or added) is left as it is and reported as a conflict. An OUT that exists, is not
empty and has no journal is refused.

Each stage's result is kept as a result envelope beside the journal (``<stage>.json``), so a resumed run still
reports every stage, and given to ``record`` (the workspace's records, when the CLI runs inside one).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda2rocm import envelope
from cuda2rocm.envelope import Envelope
from cuda2rocm.envelope.codec import encode
from cuda2rocm.fsio import write_text_atomic
from cuda2rocm.model import OMIT_NONE
from cuda2rocm.project.stack import DEFAULT_GFX, DEFAULT_OS, Stack, stack_for

JOURNAL_DIR = ".cuda2rocm-migrate"
JOURNAL = "journal.json"
FORMAT = "cuda2rocm-migrate-journal"
VERSION = 1
STAGES = ("scan", "convert", "build", "deploy", "copy", "verify")
#: test hook: ``<stage>`` kills this process (SIGKILL) right after that stage's journal entry;
#: ``<stage>/<n>`` after the stage's n-th file is moved into OUT (before its journal entry)
KILL_HOOK = "CUDA2ROCM_MIGRATE_KILL_AT"


class PipelineError(ValueError):
    """A usage error of the pipeline (OUT not ours, OUT inside PATH, ...): nothing was written."""


@dataclass(frozen=True)
class Settings:
    """What decides the output: a change restarts the pipeline."""

    gfx: tuple[str, ...] = DEFAULT_GFX
    target_gpu: str = ""
    target_rocm: str = ""  # "" = the target stack's default (cuda2rocm.project.stack)
    target_os: str = DEFAULT_OS
    fix_hazards: bool = True
    verify: bool = True
    gitignore: bool = True
    decided: Stack | None = field(default=None, compare=False, repr=False, metadata={OMIT_NONE: True})

    @property
    def stack(self) -> Stack:
        """The target stack every stage writes for (convert's translation tables, build's wheel index, deploy's
        images)."""
        return stack_for(self.gfx, self.target_rocm, self.target_os or DEFAULT_OS, self.decided)

    def to_data(self) -> dict[str, Any]:
        """What the output depends on (``verify`` writes nothing to OUT: turning it on or off restarts nothing)."""
        data = encode(self)
        assert isinstance(data, dict)
        data.pop("verify")
        data.pop("decided", None)
        data["target_rocm"] = self.stack.rocm  # the default and the same release given: one output
        return data


@dataclass
class StageResult:
    name: str
    status: str  # done | resumed (finished by an earlier run) | skipped (not run: no hipcc) | failed
    files: int = 0  # files this stage put in OUT
    changed: int = 0  # of those, how many differ from the input
    detail: str = ""
    conflicts: list[str] = field(default_factory=list)
    envelope: Envelope | None = None


@dataclass
class PipelineRun:
    source: Path
    output: Path
    stages: list[StageResult]
    restarted: bool = False
    removed: list[str] = field(default_factory=list)  # files of an earlier run this one no longer makes

    @property
    def conflicts(self) -> list[str]:
        return [c for s in self.stages for c in s.conflicts]

    @property
    def complete(self) -> bool:
        return all(s.status in ("done", "resumed", "skipped") for s in self.stages)

    def exit_code(self) -> int:
        """0 complete, 1 complete with units that failed to compile, 2 conflicts or failed stages."""
        if self.conflicts or not self.complete:
            return 2
        verify = next((s.envelope.result for s in self.stages if s.name == "verify" and s.envelope), None)
        return 1 if verify is not None and not verify.passed else 0


Progress = Callable[[str, str], None]  # (stage, message)


def _quiet(stage: str, message: str) -> None:
    return None


def run_pipeline(source: str | Path, output: str | Path, settings: Settings | None = None, *,
                 progress: Progress = _quiet, record: Callable[[Envelope], None] | None = None,
                 command_line: Sequence[str] = (), jobs: int = 1) -> PipelineRun:
    """Run (or resume) the pipeline from ``source`` into ``output``. Raises :class:`PipelineError`."""
    settings = settings or Settings()
    src, out = Path(source).resolve(), Path(output).resolve()
    _check_paths(src, out)
    state = out / JOURNAL_DIR
    journal = _read_journal(state / JOURNAL)
    if journal is None and out.exists() and any(out.iterdir()):
        raise PipelineError(f"{out} exists and is not a cuda2rocm migrate output (no {JOURNAL_DIR}/{JOURNAL}); "
                            "give a new or empty folder")
    key = {"input": src.as_posix(), "input_sha256": tree_sha256(src, settings.gitignore),
           "settings": settings.to_data()}
    ours = _ours(journal)  # rel -> sha256 of every file a run of this tool put in OUT
    restarted = journal is not None and any(journal.get(k) != v for k, v in key.items())
    done = {} if journal is None or restarted else {s["name"]: s for s in journal.get("stages", [])}
    new_journal: dict[str, Any] = {"format": FORMAT, "version": VERSION, **key, "stages": [], "complete": False}
    state.mkdir(parents=True, exist_ok=True)
    ctx = _Context(src, out, state, settings, ours, progress, record, tuple(command_line), jobs)
    results: list[StageResult] = []
    for name in STAGES:
        wanted = name != "verify" or not settings.verify or not done.get(name, {}).get("skipped")
        if name in done and wanted and _still_there(out, done[name]):
            entry = done[name]
            res = StageResult(name, "resumed", len(entry["files"]), int(entry.get("changed", 0)),
                              str(entry.get("detail", "")), envelope=_load_stage(state, name))
            progress(name, f"resumed: {res.files} files (finished by an earlier run)" if res.files
                     else "resumed (finished by an earlier run)")
        else:
            progress(name, "running")
            (state / f"{name}.json").unlink(missing_ok=True)  # an earlier run's result of this stage
            res, entry = _STAGE_FUNCS[name](ctx, new_journal["stages"])
            if res.status == "failed":
                results.append(res)
                _write_journal(state, new_journal)
                return PipelineRun(src, out, results, restarted)
        new_journal["stages"].append(entry)
        _write_journal(state, new_journal)
        _kill_hook(name)
        results.append(res)
    removed = _remove_stale(out, journal, new_journal) if journal is not None else []
    new_journal["complete"] = not any(r.conflicts for r in results)
    _write_journal(state, new_journal)
    shutil.rmtree(state / "staging", ignore_errors=True)
    return PipelineRun(src, out, results, restarted, removed)


# --- the stages --------------------------------------------------------------------------------------------------

@dataclass
class _Context:
    src: Path
    out: Path
    state: Path
    settings: Settings
    ours: dict[str, set[str]]
    progress: Progress
    record: Callable[[Envelope], None] | None
    command_line: tuple[str, ...]
    jobs: int

    def staging(self, name: str) -> Path:
        folder = self.state / "staging" / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    def keep(self, name: str, kind: str, payload: Any, exit_status: int) -> Envelope:
        """The stage's result as an envelope beside the journal (and in the workspace's records)."""
        env = envelope.make(kind, payload, command_line=(*self.command_line, f"[stage {name}]"),
                            exit_status=exit_status, project=envelope.project_of(self.src))
        envelope.write(env, self.state / f"{name}.json")
        if self.record is not None:
            self.record(env)
        return env


def _scan(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    from cuda2rocm.scan.api import scan

    result = scan(ctx.src, target_gpu=ctx.settings.target_gpu or None, jobs=1)
    env = ctx.keep("scan", "scan", result, 0)
    detail = f"{len(result.files)} files, {len(result.findings)} findings, risk {result.risk.level}"
    ctx.progress("scan", detail)
    return StageResult("scan", "done", 0, 0, detail, envelope=env), _entry("scan", {}, [], 0, detail)


def _convert(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    from cuda2rocm.translate.api import convert
    from cuda2rocm.translate.options import Options
    from cuda2rocm.translate.runner import WritePolicy
    from cuda2rocm.translate.summary import summarize

    staging = ctx.staging("convert")
    options = _convert_options(ctx.settings)
    report = convert([ctx.src], staging, options, policy=WritePolicy(write=True))
    inputs = [_rel(f.job.source, ctx.src) for f in report.files if f.written]
    moved, conflicts = _commit(ctx, "convert", staging)
    env = ctx.keep("convert", "convert", summarize(report), report.exit_code(Options().fail_on))
    detail = (f"{len(report.files)} files, translated {len(report.changed)}, "
              f"{len(report.findings)} findings, {len(report.failed)} failed")
    ctx.progress("convert", detail)
    res = StageResult("convert", "done", len(moved), len(report.changed), detail, conflicts, env)
    return res, _entry("convert", moved, inputs, len(report.changed), detail)


def _migrate(ctx: _Context, name: str) -> tuple[StageResult, dict[str, Any]]:
    from cuda2rocm.migrate.summary import summarize
    from cuda2rocm.rewrite.runner import Mode

    staging = ctx.staging(name)
    if name == "build":
        from cuda2rocm.migrate.base import BuildOptions
        from cuda2rocm.migrate.build import migrate_build, renames_in_tree

        run = migrate_build(ctx.src, mode=Mode.MIRROR, output=staging, gitignore=ctx.settings.gitignore,
                            options=BuildOptions(gfx=ctx.settings.gfx, renames=renames_in_tree(ctx.out),
                                                 rocm=ctx.settings.stack.rocm, decided=ctx.settings.stack))
    else:
        from cuda2rocm.migrate.deploy.options import DeployOptions
        from cuda2rocm.migrate.deploy.run import migrate_deploy

        run = migrate_deploy(ctx.src, mode=Mode.MIRROR, output=staging, gitignore=ctx.settings.gitignore,
                             options=DeployOptions(gfx=ctx.settings.gfx, rocm=ctx.settings.stack.rocm,
                                                   os=ctx.settings.target_os or DEFAULT_OS,
                                                   decided=ctx.settings.stack))
    inputs = [_rel(o.job.source, ctx.src) for o in run.files if o.written]
    moved, conflicts = _commit(ctx, name, staging)
    env = ctx.keep(name, f"migrate-{name}", summarize(run, name, Mode.MIRROR), run.exit_code())
    detail = (f"{len(run.files)} files, changed {len(run.changed)}, added {len(run.added)}, "
              f"{len(run.for_review)} for review, {len(run.failed)} failed")
    ctx.progress(name, detail)
    res = StageResult(name, "done", len(moved), len(run.changed) + len(run.added), detail, conflicts, env)
    return res, _entry(name, moved, inputs, len(run.changed) + len(run.added), detail)


def _build(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    return _migrate(ctx, "build")


def _deploy(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    return _migrate(ctx, "deploy")


def _copy(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    """Every input file no stage wrote (nor wrote in its place), as it is."""
    from cuda2rocm.rewrite.plan import plan

    handled = {p for entry in done for p in entry.get("inputs", ())}
    made = {p for entry in done for p in entry.get("files", {})}
    staging = ctx.staging("copy")
    planned = plan([ctx.src], lambda _: True, gitignore=ctx.settings.gitignore)
    copied = []
    for job in planned.jobs:
        rel = _rel(job.source, ctx.src)
        if rel in handled or rel in made or rel.split("/")[0] == JOURNAL_DIR:
            continue
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(job.source, dest)
        shutil.copymode(job.source, dest)
        copied.append(rel)
    moved, conflicts = _commit(ctx, "copy", staging)
    detail = f"{len(copied)} other files copied as they are"
    if planned.problems:  # links leaving the tree, unlistable folders: not copied, said so
        detail += f"; not copied: {'; '.join(f'{p.path}: {p.message}' for p in planned.problems)}"
    ctx.progress("copy", detail)
    return StageResult("copy", "done", len(moved), 0, detail, conflicts), _entry("copy", moved, copied, 0, detail)


def _verify(ctx: _Context, done: list[dict[str, Any]]) -> tuple[StageResult, dict[str, Any]]:
    from cuda2rocm.translate.api import convert
    from cuda2rocm.translate.runner import WritePolicy
    from cuda2rocm.translate.summary import verify_summary
    from cuda2rocm.translate.verify import HipccNotFound, find_compiler, verify

    if not ctx.settings.verify:
        detail = "not asked (--no-verify)"
        return StageResult("verify", "skipped", detail=detail), {**_entry("verify", {}, [], 0, detail), "skipped": True}
    arch = ctx.settings.gfx[0]
    try:
        find_compiler()  # before translating anything
    except HipccNotFound as exc:
        detail = f"skipped: {exc}"
        ctx.progress("verify", detail)
        return StageResult("verify", "skipped", detail=detail), {**_entry("verify", {}, [], 0, detail), "skipped": True}
    report = convert([ctx.src], None, _convert_options(ctx.settings),
                     policy=WritePolicy(write=False, keep_original=True))
    try:
        outcomes = verify(report.files, arch=arch, jobs=max(1, ctx.jobs))
    except HipccNotFound as exc:  # UnsupportedTarget too
        detail = f"skipped: {exc}"
        ctx.progress("verify", detail)
        return StageResult("verify", "skipped", detail=detail), {**_entry("verify", {}, [], 0, detail), "skipped": True}
    summary = verify_summary(arch, outcomes, report)
    env = ctx.keep("verify", "verify", summary, 0 if summary.passed else 1)
    ok = sum(1 for o in outcomes if o.ok)
    detail = f"{len(outcomes)} units compiled for {arch}: {ok} ok, {len(outcomes) - ok} failed"
    ctx.progress("verify", detail)
    return StageResult("verify", "done", 0, 0, detail, envelope=env), _entry("verify", {}, [], 0, detail)


_STAGE_FUNCS: dict[str, Callable[[_Context, list[dict[str, Any]]], tuple[StageResult, dict[str, Any]]]] = {
    "scan": _scan, "convert": _convert, "build": _build, "deploy": _deploy, "copy": _copy, "verify": _verify,
}


def _convert_options(settings: Settings) -> Any:
    from cuda2rocm.translate.options import Options

    return Options(target_rocm=settings.stack.rocm, fix_hazards=settings.fix_hazards,
                   respect_gitignore=settings.gitignore)


# --- moving files into OUT under the never-overwrite rule ---------------------------------------------------------

def _commit(ctx: _Context, stage: str, staging: Path) -> tuple[dict[str, str], list[str]]:
    """Move every staged file into OUT where allowed; (rel -> sha256 of what is in OUT now, conflicts)."""
    moved: dict[str, str] = {}
    conflicts: list[str] = []
    files = sorted(p for p in staging.rglob("*") if p.is_file() and not p.name.endswith(".tmp"))
    for n, staged in enumerate(files, 1):
        rel = staged.relative_to(staging).as_posix()
        new = _sha256(staged)
        dest = ctx.out / rel
        if dest.is_symlink() or dest.is_dir():
            conflicts.append(f"{dest}: not a file; left as it is")
            continue
        if dest.exists():
            have = _sha256(dest)
            if have == new:
                moved[rel] = new
                continue
            if have not in ctx.ours.get(rel, set()):
                conflicts.append(f"{dest}: changed since cuda2rocm wrote it (or not written by it); left as it is")
                continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, dest)
        moved[rel] = new
        ctx.ours.setdefault(rel, set()).add(new)
        _kill_hook(f"{stage}/{n}")
    return moved, conflicts


def _entry(name: str, files: dict[str, str], inputs: Iterable[str], changed: int, detail: str) -> dict[str, Any]:
    return {"name": name, "files": dict(sorted(files.items())), "inputs": sorted(inputs), "changed": changed,
            "detail": detail}


def _still_there(out: Path, entry: dict[str, Any]) -> bool:
    """A finished stage counts only while its files are in OUT as it left them (else it is done again)."""
    for rel, sha in entry.get("files", {}).items():
        path = out / rel
        if not path.is_file() or _sha256(path) != sha:
            return False
    return True


def _ours(journal: dict[str, Any] | None) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for entry in (journal or {}).get("stages", []):
        for rel, sha in entry.get("files", {}).items():
            out.setdefault(rel, set()).add(sha)
    return out


def _remove_stale(out: Path, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Files an earlier run wrote that this run no longer makes, removed while unchanged since."""
    now = {rel for entry in new["stages"] for rel in entry["files"]}
    removed = []
    for rel, shas in sorted(_ours(old).items()):
        path = out / rel
        if rel not in now and path.is_file() and _sha256(path) in shas:
            path.unlink()
            removed.append(rel)
    return removed


# --- journal, hashes, hooks ----------------------------------------------------------------------------------------

def _read_journal(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PipelineError(f"{path}: unreadable journal ({exc}); remove the output folder to start again") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise PipelineError(f"{path}: not a journal this cuda2rocm writes ({FORMAT} {VERSION})")
    return data


def _write_journal(state: Path, journal: dict[str, Any]) -> None:
    write_text_atomic(state / JOURNAL, json.dumps(journal, indent=1, sort_keys=True) + "\n")


def _load_stage(state: Path, name: str) -> Envelope | None:
    path = state / f"{name}.json"
    if not path.is_file():
        return None
    try:
        return envelope.load(path)
    except envelope.EnvelopeError:
        return None


def _check_paths(src: Path, out: Path) -> None:
    if not src.is_dir():
        raise PipelineError(f"{src}: not a directory")
    if out == src or src in out.parents:
        raise PipelineError(f"the output {out} is inside the input {src}; give a folder outside it")
    if out in src.parents:
        raise PipelineError(f"the input {src} is inside the output {out}")


def tree_sha256(root: Path, gitignore: bool = True) -> str:
    """One hash of every file the pipeline reads under ``root`` (paths and bytes, in path order)."""
    from cuda2rocm.rewrite.plan import plan

    h = hashlib.sha256()
    for job in sorted(plan([root], lambda _: True, gitignore=gitignore).jobs, key=lambda j: j.display):
        h.update(job.display.encode("utf-8") + b"\0" + _sha256(job.source).encode("ascii") + b"\n")
    return h.hexdigest()


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _rel(path: Path, root: Path) -> str:
    return path.resolve().relative_to(root).as_posix()


def _kill_hook(point: str) -> None:
    if os.environ.get(KILL_HOOK) == point:
        os.kill(os.getpid(), signal.SIGKILL)


# --- what to do next, on hardware -----------------------------------------------------------------------------------

#: the metric name the advised ``bench run`` records its timings under (``workload/time_s``)
BENCH_NAME = "workload"


def next_steps(run: PipelineRun, thresholds: Sequence[str] = ()) -> list[tuple[str, list[str]]]:
    """The commands to run on the GPUs, as (where, command lines): the CUDA baseline on the NVIDIA machine, the
    same on the AMD machine in OUT, then the comparisons. ``MODULE:FACTORY`` is the project's model factory
    (docs/regress.md), ``CMD`` the command to time. ``bench run --name workload`` records the metric
    ``workload/time_s``; only the workspace thresholds that can match it gate ``bench compare`` (a threshold that
    matches no metric is an error), and the ``busbw`` ones gate ``comm --compare``."""
    from cuda2rocm.perf.thresholds import parse

    scan = next((s.envelope.result for s in run.stages if s.name == "scan" and s.envelope is not None), None)
    collectives = scan is not None and any(c.kind == "nccl" or "nccl" in c.name.lower() for c in scan.inventory)
    gates = " ".join(f"-t '{t}'" for t in thresholds if parse(t).matches(f"{BENCH_NAME}/time_s"))
    comm_gates = " ".join(f"--threshold '{t}'" for t in thresholds if "busbw" in t)

    def on(side: str) -> list[str]:
        rec = f"--record {side}-evidence/"
        lines = [f"mkdir -p {side}-evidence",
                 f"cuda2rocm {rec} env",
                 f"cuda2rocm {rec} capture MODULE:FACTORY -o captures/{side} --device cuda",
                 f"cuda2rocm {rec} bench run --name {BENCH_NAME} -n 20 -o bench-{side}.jsonl -- CMD"]
        if collectives:
            lines.append(f"cuda2rocm {rec} comm --nproc 8 --ops all_reduce,all_gather -o comm-{side}.jsonl")
        return lines

    compare = ["cuda2rocm evidence import cuda-evidence/ rocm-evidence/",
               "cuda2rocm compare captures/cuda captures/rocm",
               f"cuda2rocm bench compare bench-cuda.jsonl bench-rocm.jsonl {gates}".rstrip()]
    if collectives:
        compare.append(f"cuda2rocm comm --compare comm-cuda.jsonl comm-rocm.jsonl {comm_gates}".rstrip())
    compare.append("cuda2rocm report -o report.html")
    return [(f"on the NVIDIA machine, in {run.source} (the CUDA baseline)", on("cuda")),
            (f"on the AMD machine, in {run.output} (copy cuda-evidence/, captures/cuda and the *-cuda.jsonl "
             "files there)", on("rocm")),
            ("then, in the workspace, compare and report", compare)]
