"""``cuda2rocm migrate build``: rewrite a project's build files for HIP (argument parsing and printing only)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from cuda2rocm.model import Severity

SEVERITIES = [str(s) for s in Severity]


@click.group("migrate")
def command() -> None:
    """Migrate what surrounds the sources: build files (more kinds follow)."""


@command.command("build")
@click.argument("path", default=".", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Write the migrated build files under this directory (e.g. where convert -o wrote the sources).")
@click.option("--write", is_flag=True, help="Rewrite the build files in place (atomic; <file>.orig backups).")
@click.option("--no-backup", is_flag=True, help="With --write: keep no .orig backup.")
@click.option("--force", is_flag=True, help="Replace existing outputs / backups.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if any file would change.")
@click.option("--offload-arch", default="", metavar="GFX,...", help="AMD targets, e.g. gfx942,gfx90a.")
@click.option("--target-gpu", default="", metavar="GPU,...", help="AMD GPUs, e.g. MI300X,MI250X (knowledge base).")
@click.option("--target-rocm", default="", metavar="X.Y",
              help="ROCm of Python dependencies (torch pins, wheel indexes); default: the newest with PyTorch wheels.")
@click.option("--cmake-style", type=click.Choice(["language", "package"]), default="language", show_default=True,
              help="CMake's HIP language, or find_package(hip) + hip::device compiled by hipcc as CXX.")
@click.option("--format", "fmt", type=click.Choice(["diff", "text", "json", "markdown", "sarif"]), default="diff",
              show_default=True, help="stdout: the unified diff, or the findings (with their edits) in this format.")
@click.option("--fail-on", type=click.Choice(SEVERITIES), default="high", show_default=True,
              help="Exit 1 when a finding is at least this severe.")
@click.option("--no-gitignore", is_flag=True, help="Also migrate files that .gitignore files ignore.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
def build_command(path: Path, output: Path | None, write: bool, no_backup: bool, force: bool, check: bool,
                  offload_arch: str, target_gpu: str, target_rocm: str, cmake_style: str, fmt: str, fail_on: str,
                  no_gitignore: bool, jobs: int, quiet: bool) -> int:
    """Rewrite CMake listfiles and Makefiles for HIP as minimal edits; by default print the diff and write
    nothing. Every change and every construct left for a person is a C2R-B finding (cuda2rocm rules)."""
    from cuda2rocm.migrate.base import BuildOptions
    from cuda2rocm.migrate.build import TargetError, migrate_build, renames_in_tree, resolve_targets
    from cuda2rocm.report import render_findings
    from cuda2rocm.rewrite.runner import Mode

    if output is not None and write:
        raise click.UsageError("-o and --write are exclusive")
    if offload_arch and target_gpu:
        raise click.UsageError("give --offload-arch or --target-gpu, not both")
    try:
        gfx = resolve_targets(offload_arch, target_gpu)
    except TargetError as exc:
        raise click.BadParameter(str(exc), param_hint="--offload-arch/--target-gpu") from None
    if target_rocm and not re.fullmatch(r"\d+\.\d+(\.\d+)?", target_rocm):
        raise click.BadParameter(f"not a ROCm version: {target_rocm!r} (expected X.Y such as 7.1)",
                                 param_hint="--target-rocm")
    mode = Mode.CHECK if check else Mode.MIRROR if output is not None else Mode.IN_PLACE if write else Mode.DIFF
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
    options = BuildOptions(gfx=gfx, style=cmake_style, renames=renames_in_tree(output or path), rocm=target_rocm)
    run = migrate_build(path, mode=mode, output=output, options=options, force=force, backup=not no_backup,
                        gitignore=not no_gitignore, workers=jobs)
    if fmt == "diff":
        for outcome in run.files:
            if outcome.changed and mode is Mode.DIFF:
                click.echo(outcome.diff(), nl=False)
    else:
        click.echo(render_findings(run.findings, fmt, root=str(path)), nl=False)
    for problem in run.problems:
        click.echo(f"{problem.path}: {problem.message}", err=True)
    for outcome in run.failed:
        for p in outcome.detail.problems:
            click.echo(f"{path / outcome.job.display}:{p.line}: {p.message}; left as it is", err=True)
        if outcome.write_error:
            click.echo(f"{outcome.job.display}: {outcome.write_error}", err=True)
    if not quiet:
        _summary(run, mode, check)
    code = run.exit_code(Severity.parse(fail_on))
    if check and code == 0 and run.changed:
        code = 1
    return code


def _summary(run: object, mode: object, check: bool) -> None:
    from cuda2rocm.migrate.build import BuildRun
    from cuda2rocm.rewrite.runner import Mode

    assert isinstance(run, BuildRun)
    verb = {Mode.DIFF: "would change", Mode.CHECK: "would change", Mode.IN_PLACE: "rewrote",
            Mode.MIRROR: "wrote migrated"}[mode]  # type: ignore[index]
    manual = run.for_review
    click.echo(f"migrate build: {len(run.files)} build files, {verb} {len(run.changed)}, "
               f"{sum(len(o.detail.edits) for o in run.files)} edits, {len(manual)} findings for review, "
               f"{len(run.failed)} failed (targets {';'.join(run.options.gfx)}, {run.options.style} style)", err=True)
    if check:
        for outcome in run.changed:
            click.echo(f"would change: {outcome.job.display}", err=True)
    for f in sorted(manual, key=lambda f: (-f.severity, f.path, f.line))[:20]:
        click.echo(f"  {f.path}:{f.line}: {f.rule} {f.severity}: {f.message}", err=True)
