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


# --- the advice migrate and report print runs (issue 31 item 5) ---------------------------------------------------

_MODEL = '''import torch


def factory():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)), torch.randn(3, 4)
'''


def _standin(command: str, model: Path) -> list[str]:
    """An advised command line made runnable here: MODULE:FACTORY is a tiny model, CMD a no-op command, the GPU
    device the CPU where there is no GPU, and a comm run two gloo ranks on small sizes. Nothing else changes."""
    import sys

    words = shlex.split(command)
    if words[-2:] == ["--", "CMD"]:
        words[-1:] = [sys.executable, "-c", "pass"]
    words = [str(model) if w == "MODULE:FACTORY" else w for w in words]
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        words = ["cpu" if w == "cuda" and i and words[i - 1] == "--device" else w for i, w in enumerate(words)]
    if "comm" in words and "--compare" not in words:
        if "--nproc" in words:
            words[words.index("--nproc") + 1] = "2"
        words += ["--backend", "gloo", "-b", "1K", "-e", "4K", "--reps", "2", "--warmup", "1"]
    return words


def _run(words: list[str], cwd: Path) -> tuple[int, str]:
    import os
    import subprocess
    import sys

    if words[:2] == ["mkdir", "-p"]:
        (cwd / words[2]).mkdir(parents=True, exist_ok=True)
        return 0, ""
    assert words[0] == "cuda2rocm", words
    done = subprocess.run([sys.executable, "-m", "cuda2rocm", *words[1:]], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    return done.returncode, done.stdout[-2000:] + done.stderr[-2000:]


def _advised(text: str) -> list[str]:
    """The command lines of migrate's next steps: every indented line that starts with a command."""
    return [line.strip() for line in text.splitlines() if line.strip().startswith(("cuda2rocm ", "mkdir "))]


def test_migrate_and_report_advice_runs_and_never_exits_2(tmp_path: Path) -> None:
    """`migrate` prints what to run on the NVIDIA machine, on the AMD machine and then in the workspace; every line
    runs (with stand-ins for the model, the timed command and the GPU) and exits 0 or 1. So do the commands the
    delivery report advises, on the workspace those runs leave and on an empty one."""
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws / "src")
    model = ws / "model.py"
    model.write_text(_MODEL, encoding="utf-8")
    assert _run(["cuda2rocm", "init", "."], ws)[0] == 0
    config = ws / "cuda2rocm.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        'thresholds = ["tokens_per_s>=0.95x",', 'thresholds = ["tokens_per_s>=0.95x", "time_s<=5x",'), encoding="utf-8")
    runner = CliRunner()
    r = runner.invoke(cli, ["migrate", str(ws / "src"), "-o", str(ws / "out"), "--no-verify"], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    lines = _advised(r.stderr)
    assert any("bench run --name workload" in c for c in lines) and any("-t 'time_s<=5x'" in c for c in lines)
    assert any(c.startswith("cuda2rocm comm --compare") for c in lines) and lines[-1].startswith("cuda2rocm report")
    ran = []
    for command in lines:
        code, out = _run(_standin(command, model), ws)
        assert code in (0, 1), f"{command}: exit {code}\n{out}"
        ran.append(command)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _run(["cuda2rocm", "init", "."], empty)[0] == 0
    report_advice = []
    for root in (ws, empty):
        text = runner.invoke(cli, ["report", str(root)]).stdout
        report_advice += [m.group(1) for m in _SPAN.finditer(text) if m.group(1) not in report_advice]
    assert {"cuda2rocm scan .", "cuda2rocm convert . -o hip"} & set(report_advice), report_advice
    for command in report_advice:
        code, out = _run(_standin(command, model), ws / "src")
        assert code in (0, 1), f"report advice {command}: exit {code}\n{out}"
