"""The ``cuda2rocm`` entry point: a click group whose subcommands are imported only when used.

Each subcommand lives in ``cuda2rocm/cli/<module>.py`` and exposes ``command``. Exit codes everywhere:
0 success / clean, 1 findings or failed checks at/above the threshold, 2 usage or input errors.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cuda2rocm import __version__

if TYPE_CHECKING:
    from cuda2rocm.envelope import Envelope

#: subcommand name -> (module under cuda2rocm.cli, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "init": ("init", "Make a folder a migration workspace (cuda2rocm.toml, .cuda2rocm/ records)."),
    "evidence": ("evidence", "Import result envelopes made on another machine into the workspace."),
    "scan": ("scan", "Inventory and migration assessment of a repository (static)."),
    "rules": ("rules", "List every rule with its id, severity and title."),
    "explain": ("rules", "Print one rule's documentation."),
    "convert": ("convert", "Translate CUDA source to HIP, token-exact."),
    "migrate": ("migrate", "Migrate build and deployment files for ROCm as minimal edits."),
    "verify": ("verify", "Compile translated HIP with a real hipcc and map errors back."),
    "env": ("env", "Fingerprint this machine (GPUs, drivers, CUDA/ROCm, frameworks)."),
    "compat": ("compat", "Check a GPU/ROCm/OS/framework combination against the matrix."),
    "kb": ("kb", "Show or update the knowledge base."),
    "capture": ("capture", "Record layer outputs of a PyTorch model for later comparison."),
    "compare": ("compare", "Compare two captures (or curves/metrics) under dtype-aware tolerances."),
    "smoke": ("smoke", "Run a model on the GPU and report fallbacks, backends and abnormal-input behaviour."),
    "bench": ("bench", "Benchmark a command or callable; compare baseline vs candidate."),
    "comm": ("comm", "Collective-communication benchmark over torch.distributed (NCCL/RCCL)."),
    "report": ("report", "The delivery checklist decided from the workspace's evidence (HTML, Markdown, JSON)."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            return None
        module_name, _ = SUBCOMMANDS[cmd_name]
        module = importlib.import_module(f"cuda2rocm.cli.{module_name}")
        cmd = getattr(module, f"{cmd_name}_command", None) or module.command
        assert isinstance(cmd, click.Command)
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, help_) for name, (_, help_) in sorted(SUBCOMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _record_option(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    if value is None or ctx.resilient_parsing:
        return value
    if value.exists() and not value.is_dir():
        raise click.BadParameter(f"{value} exists (give a new file, or a folder for a generated name)")
    from cuda2rocm import envelope

    envelope.request_record(value)
    return value


def _no_record_option(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value and not ctx.resilient_parsing:
        from cuda2rocm import envelope

        envelope.no_workspace_record()
    return value


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cuda2rocm")
@click.option("--record", type=click.Path(path_type=Path), metavar="PATH", expose_value=False, is_eager=True,
              callback=_record_option,
              help="Also write this run's result as a versioned JSON envelope to PATH (a new file, or a folder: "
                   "a generated name inside it). See docs/architecture.md.")
@click.option("--no-record", is_flag=True, expose_value=False, is_eager=True, callback=_no_record_option,
              help="Do not record this run into the workspace (.cuda2rocm/records/) it runs in. See "
                   "docs/workspace.md.")
def cli() -> None:
    """cuda2rocm: move a CUDA application to AMD GPUs under ROCm, and prove it correct and fast."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (click's usage errors are 2); records the run's envelope if asked."""
    from cuda2rocm import envelope

    args = list(argv) if argv is not None else sys.argv[1:]
    envelope.begin(["cuda2rocm", *args])
    code = _run(args)
    subcommand = next((a for a in args if a in SUBCOMMANDS), "")
    asked = envelope.recording()
    workspace = _workspace_of_run()
    if workspace is None:  # nowhere to record it: no envelope is made unless --record asks for one
        envelope.no_workspace_record()
    ended = envelope.end(code, _kind_hint(subcommand, args))
    if ended is not None and ended.record_to is not None:
        try:
            envelope.write(ended.envelope, ended.record_to)
        except OSError as exc:
            click.echo(f"error: cannot write the --record envelope: {exc.strerror or exc}", err=True)
            return max(code, 2)
    elif asked:
        click.echo(f"warning: --record: `cuda2rocm {subcommand}` has no result envelope; nothing recorded", err=True)
    if ended is not None and ended.workspace and workspace is not None:
        _record_in_workspace(ended.envelope, workspace)
    return code


def _workspace_of_run() -> Path | None:
    """The workspace around the run's project (or the current directory) when the run may record into one."""
    from cuda2rocm import envelope

    if not envelope.workspace_recording():
        return None
    from cuda2rocm.workspace.recorder import workspace_for

    return workspace_for(envelope.project_folder(), ".")


def _record_in_workspace(env: Envelope, ws: Path) -> None:
    """The run's envelope into the workspace ``ws`` (the one around its project, or the current directory); a
    record that cannot be written is a warning, never a failure of the command."""
    from cuda2rocm.workspace.recorder import store

    try:
        store(env, ws)
    except OSError as exc:
        click.echo(f"warning: cannot record this run in {ws}: {exc.strerror or exc}", err=True)


def _kind_hint(subcommand: str, args: list[str]) -> str:
    """The envelope kind a run that published nothing (a usage error) is recorded under."""
    if subcommand == "bench":
        return "bench-compare" if "compare" in args else "bench-run"
    if subcommand == "comm" and "--compare" in args:
        return "bench-compare"
    return subcommand


def _run(args: list[str]) -> int:
    try:
        rv = cli.main(args=args, prog_name="cuda2rocm", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except SystemExit as exc:  # pragma: no cover - a subcommand calling sys.exit
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    return int(rv) if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
