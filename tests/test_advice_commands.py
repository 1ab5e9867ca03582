"""Every command line the tool prints as advice parses with the real CLI (issue 18: every C2R-S103 fix told users
to run `cuda2rocm verify --target-gpu MI300X`, an option that does not exist).

Advice is collected from the rule registry's texts, from what scan, the assessment and convert say about the
bundled example, from the hints the CLI prints on common mistakes, and from every command's --help. A command
is a `cuda2rocm ...` code span, or plain `cuda2rocm word ...` text up to a comma, semicolon, parenthesis or
quote. It passes when click parses it (`make_context`, resilient parsing off) through every subcommand level;
a missing argument (the text names the command, the user fills it in) and a placeholder path that does not exist
here are accepted, an unknown subcommand or option, an option without its value or a bad choice are not.
"""

from __future__ import annotations

import re
import shlex
import warnings
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cuda2rocm import rules
from cuda2rocm.cli.main import SUBCOMMANDS, cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llm-service"
_SPAN = re.compile(r"`(cuda2rocm [^`]+)`")
_BARE = re.compile(r"\bcuda2rocm((?: +[^\s,;()`'\"]+)+)")
_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", click.exceptions.Exit)


def commands_in(text: str) -> list[str]:
    """The `cuda2rocm ...` command lines in a piece of advice."""
    found = [m.group(1) for m in _SPAN.finditer(text)]
    return found + ["cuda2rocm" + m.group(1).rstrip(".:") for m in _BARE.finditer(_SPAN.sub(" ", text))]


def parse_problem(command: str) -> str:
    """"" when the command line parses with the real CLI, else click's complaint."""
    words = [w for w in shlex.split(command)[1:] if w not in ("...", "…")]
    cmd: click.Command = cli
    parent: click.Context | None = None
    name = "cuda2rocm"
    try:
        while True:
            ctx = cmd.make_context(name, list(words), parent=parent, resilient_parsing=False)
            if not isinstance(cmd, click.Group):
                return ""
            with warnings.catch_warnings():  # click 8.2 deprecates protected_args; 9.0 keeps all in args
                warnings.simplefilter("ignore", DeprecationWarning)
                rest = [*ctx.protected_args, *ctx.args]
            if not rest:
                return ""
            name, sub, words = cmd.resolve_command(ctx, rest)
            if sub is None:
                return f"no command {rest[0]!r}"
            cmd, parent = sub, ctx
            assert name is not None
    except click.MissingParameter:
        return ""  # the text names the command; its arguments are the user's
    except click.BadParameter as exc:
        if isinstance(exc.param.type if exc.param else None, click.Path):
            return ""  # a placeholder path (SRC, BASE CAND) that does not exist here
        return exc.format_message()
    except (click.exceptions.Exit, _NO_ARGS_IS_HELP):
        return ""  # a group named alone (`cuda2rocm kb`): click shows its help
    except click.UsageError as exc:
        return exc.format_message()


def _registry() -> Iterator[tuple[str, str]]:
    for r in rules.load_all().values():
        for field in ("what", "why", "example", "instead"):
            yield f"rule {r.id} {field}", getattr(r, field)


def _example_outputs() -> Iterator[tuple[str, str]]:
    from cuda2rocm.scan.api import scan
    from cuda2rocm.translate.api import convert
    from cuda2rocm.translate.options import Options
    from cuda2rocm.translate.runner import WritePolicy

    result = scan(EXAMPLE)
    assert result.risk is not None
    yield "proof of concept", result.risk.poc_recommendation
    for layer in result.layers:
        yield f"layer {layer.layer}", "; ".join(layer.reasons)
    for f in result.findings:
        yield f"scan {f.rule} {f.path}:{f.line}", f"{f.message} {f.fix}"
    report = convert([str(EXAMPLE)], None, Options(fix_hazards=True), policy=WritePolicy(write=False))
    for f in report.findings:
        yield f"convert {f.rule} {f.path}:{f.line}", f"{f.message} {f.fix}"


_HINTS = (["kb", "show", "gpu", "NOPE"], ["kb", "show", "rocm", "0.1"], ["explain", "C2R-X999"],
          ["comm", "--ops", "all_reduce"], ["compat"], ["convert", str(EXAMPLE)])


def _cli_outputs() -> Iterator[tuple[str, str]]:
    runner = CliRunner()
    for args in _HINTS:
        r = runner.invoke(cli, args, standalone_mode=False)
        yield "cuda2rocm " + " ".join(args), r.stdout + r.stderr + (str(r.exception) if r.exception else "")
    for name in sorted(SUBCOMMANDS):
        cmd = cli.get_command(click.Context(cli), name)
        assert cmd is not None
        subs = [[name, s] for s in cmd.commands] if isinstance(cmd, click.Group) else []
        for args in ([name], *subs):
            r = runner.invoke(cli, [*args, "--help"], terminal_width=1000)
            yield f"cuda2rocm {' '.join(args)} --help", r.stdout


def _advice() -> list[tuple[str, str]]:
    out = []
    for where, text in (*_registry(), *_example_outputs(), *_cli_outputs()):
        out += [(where, c) for c in commands_in(text)]
    return sorted(set(out))


ADVICE = _advice()


def test_advice_is_found_where_it_is_given() -> None:
    """The collection is not empty by accident: the known places that advise a command are all in it."""
    places = {where.split(" ")[0] for where, _ in ADVICE}
    assert {"rule", "scan", "proof", "cuda2rocm"} <= places
    commands = {c for _, c in ADVICE}
    assert any(c.startswith("cuda2rocm comm") for c in commands) and len(commands) >= 10
    assert any(c.startswith("cuda2rocm kb list") for c in commands)


@pytest.mark.parametrize(("command", "problem"), [
    ("cuda2rocm verify --target-gpu MI300X", "No such option '--target-gpu'"),
    ("cuda2rocm capture/compare", "No such command 'capture/compare'"),
    ("cuda2rocm kb update --from", "requires an argument"),
    ("cuda2rocm scan --format htm .", "'htm' is not one of"),
    ("cuda2rocm bench nope", "No such command 'nope'"),
])
def test_the_parser_check_can_fail(command: str, problem: str) -> None:
    assert problem in parse_problem(command)


@pytest.mark.parametrize("command", ["cuda2rocm verify src/ --offload-arch gfx942", "cuda2rocm explain",
                                     "cuda2rocm compare BASE CAND", "cuda2rocm kb list gpus", "cuda2rocm kb",
                                     "cuda2rocm comm --nproc 2 ..."])
def test_the_parser_check_accepts_real_commands(command: str) -> None:
    assert parse_problem(command) == ""


@pytest.mark.parametrize(("where", "command"), ADVICE)
def test_every_advised_command_parses(where: str, command: str) -> None:
    assert parse_problem(command) == "", f"{where}: {command}"
