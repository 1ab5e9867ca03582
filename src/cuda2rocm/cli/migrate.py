"""``cuda2rocm migrate build|deploy``: rewrite a project's build or deployment files for ROCm (argument parsing
and printing only; the work is :mod:`cuda2rocm.migrate`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cuda2rocm.cli._options import rocm_release
from cuda2rocm.model import Severity

if TYPE_CHECKING:
    from cuda2rocm.migrate.engine import MigrationRun
    from cuda2rocm.project.stack import Stack
    from cuda2rocm.rewrite.runner import Mode
    from cuda2rocm.workspace.config import WorkspaceConfig

SEVERITIES = [str(s) for s in Severity]


class _MigrateGroup(click.Group):
    """``migrate build|deploy ...`` as subcommands; anything else (``migrate PATH -o OUT``, ``migrate -o OUT``)
    is the whole pipeline."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [PIPELINE, *args]
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The group's help also lists the options of the end-to-end form, which has no name of its own to ask
        ``--help`` of (``migrate PATH -o OUT --help`` shows them too)."""
        super().format_options(ctx, formatter)
        pipeline = self.commands.get(PIPELINE)
        if pipeline is None:
            return
        rows = [r for p in pipeline.get_params(ctx) if isinstance(p, click.Option) and (r := p.get_help_record(ctx))
                and not r[0].startswith("-h")]
        with formatter.section("Options of `cuda2rocm migrate [PATH] -o OUT`"):
            formatter.write_dl(rows)


PIPELINE = "pipeline"


@click.group("migrate", cls=_MigrateGroup)
def command() -> None:
    """Migrate a project to ROCm.

    `cuda2rocm migrate PATH -o OUT` (PATH defaults to .) runs the static half end to end into the new tree OUT:
    scan, convert (with the hazard fixes `convert --fix-hazards` applies: the safe ones and C2R-K202's unsafe type
    widening), migrate build, migrate deploy, a copy of every other file, and
    verify when hipcc is found; the input is never written. Interrupted, the same command resumes. `cuda2rocm
    migrate build PATH` and `cuda2rocm migrate deploy PATH` migrate only the build or the deployment files.
    """


def _shared(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options every migrate subcommand has, in help order."""
    options = [
        click.argument("path", default=".", type=click.Path(exists=True, file_okay=False, path_type=Path)),
        click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
                     help="Write the migrated files under this directory (e.g. where convert -o wrote the sources)."),
        click.option("--write", is_flag=True, help="Rewrite the files in place (atomic; <file>.orig backups)."),
        click.option("--no-backup", is_flag=True, help="With --write: keep no .orig backup."),
        click.option("--force", is_flag=True, help="Replace existing outputs / backups."),
        click.option("--check", is_flag=True, help="Write nothing; exit 1 if any file would change."),
        click.option("--offload-arch", default="", metavar="GFX,...", help="AMD targets, e.g. gfx942,gfx90a."),
        click.option("--target-gpu", default="", metavar="GPU,...",
                     help="AMD GPUs, e.g. MI300X,MI250X (knowledge base)."),
        click.option("--format", "fmt", type=click.Choice(["diff", "text", "json", "markdown", "sarif"]),
                     default="diff", show_default=True,
                     help="stdout: the unified diff, or the findings (with their edits) in this format."),
        click.option("--fail-on", type=click.Choice(SEVERITIES), default="high", show_default=True,
                     help="Exit 1 when a finding is at least this severe."),
        click.option("--no-gitignore", is_flag=True, help="Also migrate files that .gitignore files ignore."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Worker processes."),
        click.option("-q", "--quiet", is_flag=True, help="No summary on stderr."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _mode(output: Path | None, write: bool, check: bool) -> Mode:
    from cuda2rocm.rewrite.runner import Mode

    if output is not None and write:
        raise click.UsageError("-o and --write are exclusive")
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
    return Mode.CHECK if check else Mode.MIRROR if output is not None else Mode.IN_PLACE if write else Mode.DIFF


def _stack(path: Path, offload_arch: str, target_gpu: str, target_rocm: str = "", target_os: str = "", *,
           images: bool = False) -> tuple[Stack, WorkspaceConfig]:
    """The run's one target stack (:mod:`cuda2rocm.project.stack`): each choice from its option, else the
    project's ``cuda2rocm.toml`` (or ``[tool.cuda2rocm]``), else the knowledge base's default, with where it came
    from; and the configuration read. ``images``: the ROCm release must also have images (``migrate deploy``)."""
    from cuda2rocm.project.stack import TargetError, decide, resolve_targets
    from cuda2rocm.workspace import config

    if offload_arch and target_gpu:
        raise click.UsageError("give --offload-arch or --target-gpu, not both")
    try:
        cfg = config.for_project(path)
    except config.ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    where = Path(cfg.source).name if cfg.source else ""
    gfx_from = "--offload-arch" if offload_arch else f"--target-gpu {target_gpu}" if target_gpu else ""
    if not offload_arch and not target_gpu and cfg.target_gpu:
        target_gpu, gfx_from = cfg.target_gpu, f"target-gpu {cfg.target_gpu} in {where}"
    try:
        gfx = resolve_targets(offload_arch, target_gpu) if offload_arch or target_gpu else ()
    except TargetError as exc:
        raise click.BadParameter(str(exc), param_hint="--offload-arch/--target-gpu") from None
    rocm_from = "--target-rocm" if target_rocm else f"target-rocm in {where}" if cfg.target_rocm else ""
    rocm = rocm_release(target_rocm, images=images) or cfg.target_rocm
    os_from = "--target-os" if target_os else f"target-os in {where}" if cfg.target_os else ""
    return decide(gfx=gfx, gfx_from=gfx_from, rocm=rocm, rocm_from=rocm_from, os=target_os or cfg.target_os,
                  os_from=os_from), cfg


def _print_stack(stack: Stack, quiet: bool) -> None:
    """The target stack, once, before the command's work (stderr)."""
    if not quiet:
        click.echo("target stack:\n" + "".join(f"  {line}\n" for line in stack.describe()), err=True, nl=False)


@command.command("build")
@_shared
@click.option("--cmake-style", type=click.Choice(["language", "package"]), default="language", show_default=True,
              help="CMake's HIP language, or find_package(hip) + hip::device compiled by hipcc as CXX.")
@click.option("--dual", is_flag=True, help="Keep the CUDA build: migrated constructs behind GPU_PLATFORM=cuda|hip.")
@click.option("--target-rocm", default="", metavar="X.Y",
              help="ROCm of Python dependencies (torch pins, wheel indexes); default: the workspace's, else the "
              "newest with a PyTorch wheel index.")
def build_command(path: Path, output: Path | None, write: bool, no_backup: bool, force: bool, check: bool,
                  offload_arch: str, target_gpu: str, fmt: str, fail_on: str, no_gitignore: bool, jobs: int,
                  quiet: bool, cmake_style: str, dual: bool, target_rocm: str) -> int:
    """Rewrite CMake listfiles, Makefiles and setup.py for HIP as minimal edits; by default print the diff and
    write nothing. Every change and every construct left for a person is a C2R-B finding (cuda2rocm rules)."""
    from cuda2rocm.migrate.base import BuildOptions
    from cuda2rocm.migrate.build import migrate_build, renames_in_tree

    stack, _ = _stack(path, offload_arch, target_gpu, target_rocm)
    _print_stack(stack, quiet or fmt != "diff")
    mode = _mode(output, write, check)
    options = BuildOptions(gfx=stack.gfx, style=cmake_style, renames=renames_in_tree(output or path, twins=dual),
                           dual=dual, rocm=stack.rocm, decided=stack)
    run = migrate_build(path, mode=mode, output=output, options=options, force=force, backup=not no_backup,
                        gitignore=not no_gitignore, workers=jobs)
    note = f"targets {';'.join(options.gfx)}, {options.style} style" + (", both platforms" if dual else "")
    return _finish("migrate build", "build files", run, path, mode, fmt, fail_on, check, quiet, note)


@command.command("deploy")
@_shared
@click.option("--target-rocm", default="", metavar="X.Y", help="Target ROCm release (default: the workspace's, else "
              "the newest with a PyTorch wheel index).")
@click.option("--target-os", default="", metavar="OS",
              help="Container OS of the ROCm images, e.g. ubuntu24.04 (default: the workspace's, else ubuntu22.04).")
@click.option("--canary", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Beside each migrated GPU Deployment, a canary Deployment of N replicas on AMD nodes.")
@click.option("--validation-job", is_flag=True,
              help="Also write a multi-node validation Job (and PyTorchJob) and a Slurm script.")
@click.option("--nodes", type=click.IntRange(min=1), default=2, show_default=True, help="Validation job nodes.")
@click.option("--gpus-per-node", type=click.IntRange(min=1), default=8, show_default=True,
              help="Validation job GPUs per node.")
@click.option("--runner-label", "runner_labels", multiple=True, metavar="LABEL",
              help="Runner label of the ROCm CI job (repeat; default self-hosted, linux, rocm).")
def deploy_command(path: Path, output: Path | None, write: bool, no_backup: bool, force: bool, check: bool,
                   offload_arch: str, target_gpu: str, fmt: str, fail_on: str, no_gitignore: bool, jobs: int,
                   quiet: bool, target_rocm: str, target_os: str, canary: int, validation_job: bool, nodes: int,
                   gpus_per_node: int, runner_labels: tuple[str, ...]) -> int:
    """Rewrite Dockerfiles, compose files, Kubernetes/Helm manifests, CI, launch scripts and monitoring for
    ROCm as minimal edits; by default print the diff and write nothing. Every change and every construct left
    for a person is a C2R-M finding (cuda2rocm rules)."""
    from cuda2rocm.migrate.deploy.options import DeployOptions
    from cuda2rocm.migrate.deploy.run import migrate_deploy

    stack, _ = _stack(path, offload_arch, target_gpu, target_rocm, target_os, images=True)
    _print_stack(stack, quiet or fmt != "diff")
    mode = _mode(output, write, check)
    defaults = DeployOptions()
    options = DeployOptions(gfx=stack.gfx, rocm=stack.rocm, os=stack.os, decided=stack, canary=canary,
                            validation_job=validation_job, nodes=nodes, gpus_per_node=gpus_per_node,
                            runner_labels=runner_labels or defaults.runner_labels)
    run = migrate_deploy(path, mode=mode, output=output, options=options, force=force, backup=not no_backup,
                         gitignore=not no_gitignore, workers=jobs)
    note = f"ROCm {options.rocm_version}, {options.os}, targets {';'.join(options.gfx)}"
    return _finish("migrate deploy", "deployment files", run, path, mode, fmt, fail_on, check, quiet, note)


def _finish(name: str, what: str, run: MigrationRun, path: Path, mode: Mode, fmt: str, fail_on: str, check: bool,
            quiet: bool, note: str) -> int:
    """Print the diff or the findings, the problems and the summary; the exit code."""
    from cuda2rocm import envelope
    from cuda2rocm.migrate.summary import summarize
    from cuda2rocm.report import render_findings
    from cuda2rocm.rewrite.runner import Mode

    envelope.publish(name.replace(" ", "-"), summarize(run, name.split()[1], mode), project=path)
    if fmt == "diff":
        if mode is Mode.DIFF:
            for outcome in run.files:
                if outcome.changed:
                    click.echo(outcome.diff(), nl=False)
            for gen in run.added:
                click.echo(gen.diff(), nl=False)
    else:
        click.echo(render_findings(run.findings, fmt, root=str(path)), nl=False)
    for problem in run.problems:
        click.echo(f"{problem.path}: {problem.message}", err=True)
    for outcome in run.failed:
        for p in outcome.detail.problems:
            click.echo(f"{path / outcome.job.display}:{p.line}: {p.message}; left as it is", err=True)
        if outcome.write_error:
            click.echo(f"{outcome.job.display}: {outcome.write_error}", err=True)
    for gen in run.generated:
        if gen.write_error:
            click.echo(f"{gen.path}: {gen.write_error}", err=True)
    if not quiet:
        _summary(name, what, run, mode, check, note)
    code = run.exit_code(Severity.parse(fail_on))
    if check and code == 0 and (run.changed or run.added):
        code = 1
    return code


def _summary(name: str, what: str, run: MigrationRun, mode: Mode, check: bool, note: str) -> None:
    from cuda2rocm.rewrite.runner import Mode

    verb = {Mode.DIFF: "would change", Mode.CHECK: "would change", Mode.IN_PLACE: "rewrote",
            Mode.MIRROR: "wrote migrated", Mode.DRY_RUN: "would change"}[mode]
    manual = run.for_review
    added = f", {'would add' if not mode.writes else 'added'} {len(run.added)}" if run.generated else ""
    click.echo(f"{name}: {len(run.files)} {what}, {verb} {len(run.changed)}{added}, "
               f"{sum(len(o.detail.edits) for o in run.files)} edits, {len(manual)} findings for review, "
               f"{len(run.failed)} failed ({note})", err=True)
    if check:
        for outcome in run.changed:
            click.echo(f"would change: {outcome.job.display}", err=True)
        for gen in run.added:
            click.echo(f"would add: {gen.path}", err=True)
    for f in sorted(manual, key=lambda f: (-f.severity, f.path, f.line))[:20]:
        click.echo(f"  {f.path}:{f.line}: {f.rule} {f.severity}: {f.message}", err=True)


@command.command(PIPELINE, hidden=True)
@click.argument("path", default=".", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The new tree to write (a new or empty folder, or one an interrupted run left).")
@click.option("--offload-arch", default="", metavar="GFX,...", help="AMD targets, e.g. gfx942,gfx90a.")
@click.option("--target-gpu", default="", metavar="GPU,...", help="AMD GPUs (default: the workspace's target-gpu).")
@click.option("--target-rocm", default="", metavar="X.Y", help="Target ROCm release (default: the workspace's, "
              "else the newest with a PyTorch wheel index).")
@click.option("--target-os", default="", metavar="OS", help="Container OS (default: the workspace's, else "
              "ubuntu22.04).")
@click.option("--no-fix-hazards", is_flag=True, help="Do not apply the device-code hazard fixes (the safe ones and "
              "C2R-K202's unsafe type widening, as convert --fix-hazards).")
@click.option("--no-verify", is_flag=True, help="Do not compile the translated units with hipcc.")
@click.option("--no-gitignore", is_flag=True, help="Also take files that .gitignore files ignore.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Parallel compilers for verify.")
@click.option("-q", "--quiet", is_flag=True, help="No progress and no next steps on stderr.")
def pipeline_command(path: Path, output: Path, offload_arch: str, target_gpu: str, target_rocm: str,
                     target_os: str, no_fix_hazards: bool, no_verify: bool, no_gitignore: bool, jobs: int,
                     quiet: bool) -> int:
    """scan -> convert -> migrate build -> migrate deploy -> copy -> verify, from PATH into OUT (resumable)."""
    import sys

    from rich.console import Console

    from cuda2rocm import envelope
    from cuda2rocm.migrate import pipeline
    from cuda2rocm.workspace.recorder import store, workspace_for

    stack, cfg = _stack(path, offload_arch, target_gpu, target_rocm, target_os, images=True)
    _print_stack(stack, quiet)
    settings = pipeline.Settings(gfx=stack.gfx, target_gpu=(target_gpu.split(",")[0] if target_gpu else cfg.target_gpu),
                                 target_rocm=stack.rocm, target_os=stack.os, fix_hazards=not no_fix_hazards,
                                 verify=not no_verify, gitignore=not no_gitignore, decided=stack)
    ws = workspace_for(path, ".") if envelope.workspace_recording() else None
    console = Console(stderr=True, quiet=quiet)
    names = {"scan": "scan", "convert": "convert", "build": "migrate build", "deploy": "migrate deploy",
             "copy": "copy the rest", "verify": "verify (hipcc)"}
    status = console.status("starting")

    def progress(stage: str, message: str) -> None:
        n = pipeline.STAGES.index(stage) + 1
        head = f"[{n}/{len(pipeline.STAGES)}] {names[stage]}"
        if message == "running":
            status.update(f"{head} ...")
        else:
            console.print(f"{head}: {message}", highlight=False)

    try:
        with status:
            run = pipeline.run_pipeline(path, output, settings, progress=progress, jobs=jobs,
                                        record=(lambda env: _record(store, ws, env)) if ws is not None else None,
                                        command_line=["cuda2rocm", *sys.argv[1:]])
    except pipeline.PipelineError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo(f"interrupted; run the same command again to resume (the output {output} holds only whole "
                   "files)", err=True)
        return 130
    for line in run.conflicts:
        click.echo(f"conflict: {line}", err=True)
    for rel in run.removed:
        console.print(f"removed {rel} (an earlier run wrote it; this one no longer makes it)", highlight=False)
    if not quiet and run.complete:
        console.print(f"migrated {run.source} -> {run.output}" + (" (restarted: the input or the settings "
                                                                    "changed)" if run.restarted else ""),
                      highlight=False)
        console.print("next, on hardware:", highlight=False)
        for where, lines in pipeline.next_steps(run, cfg.thresholds):
            console.print(f"  {where}:", highlight=False)
            for line in lines:
                console.print(f"    {line}", highlight=False, soft_wrap=True)
    return run.exit_code()


def _record(store: Callable[..., Any], ws: Path, env: Any) -> None:
    try:
        store(env, ws)
    except OSError as exc:
        click.echo(f"warning: cannot record the stage in {ws}: {exc.strerror or exc}", err=True)
