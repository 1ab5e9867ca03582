"""``cuda2rocm verify``: translate CUDA sources and compile them with a real hipcc; errors map to CUDA lines."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.markup import escape

from cuda2rocm import envelope
from cuda2rocm.cli._options import build_options, translation_options
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.results.translate import CompileOutcome
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.render import diagnostics
from cuda2rocm.translate.runner import WritePolicy
from cuda2rocm.translate.summary import verify_summary
from cuda2rocm.translate.verify import HipccNotFound, check_target, find_compiler, rocm_for_hip
from cuda2rocm.translate.verify import verify as compile_all


def print_outcomes(outcomes: Sequence[CompileOutcome]) -> int:
    """Print pass/fail per unit and the mapped errors; 1 when any unit failed."""
    console = Console(highlight=False, soft_wrap=True)
    for o in outcomes:
        mark = "[green]PASS[/]" if o.ok else "[red]FAIL[/]"
        console.print(f"{mark} {escape(o.path)} ({o.seconds:.1f} s)")
        for d in o.diagnostics:
            if d.severity == "error":
                console.print(f"  {d}", markup=False)
        if not o.ok and not any(d.severity == "error" for d in o.diagnostics):
            console.print("  " + (o.output.strip().splitlines() or ["(no compiler output)"])[-1], markup=False)
    failed = sum(not o.ok for o in outcomes)
    console.print(f"{len(outcomes) - failed}/{len(outcomes)} translation units compiled")
    return 1 if failed else 0


@click.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=str))
@click.option("--offload-arch", default="gfx90a", show_default=True,
              help="AMD GPU target for hipcc (checked against what the found hipcc supports).")
@click.option("--hipcc-flag", "flags", multiple=True, help="Extra flag for hipcc (repeatable), e.g. -I include.")
@translation_options
def command(paths: tuple[str, ...], offload_arch: str, flags: tuple[str, ...], **translation: object) -> int:
    """Translate PATHS in memory, compile every unit with hipcc, report pass/fail per file.

    Without --target-rocm the sources are translated for the ROCm release of the HIP that hipcc reports.
    """
    try:
        hipcc = find_compiler()
        targets = check_target(hipcc, offload_arch)
    except HipccNotFound as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    found = rocm_for_hip(targets.hip)
    if not translation.get("target_rocm") and found:
        translation["target_rocm"] = found
    options = build_options(**translation)  # type: ignore[arg-type]
    rocm = options.target_rocm or "newest in the tables"
    hip = f"HIP {targets.hip}" if targets.hip else "HIP version unknown"
    click.echo(f"verify: {hipcc} ({hip}); translating for ROCm {rocm}, compiling for {offload_arch}", err=True)
    if found and options.target_rocm and parse_version(options.target_rocm) > parse_version(found):
        click.echo(f"warning: --target-rocm {options.target_rocm} is newer than this hipcc's HIP ({found}): "
                   "APIs it does not have will fail to compile", err=True)
    report = convert(paths, None, options, policy=WritePolicy(write=False, keep_original=True))
    for line in diagnostics(report.results):
        if ": error: " in line:
            click.echo(line, err=True)
    try:
        outcomes = compile_all(report.files, arch=offload_arch, jobs=options.jobs, flags=flags)
    except HipccNotFound as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    envelope.publish("verify", verify_summary(offload_arch, outcomes, report), project=paths[0])
    code = print_outcomes(outcomes)
    return 2 if report.failed and code == 0 else code
