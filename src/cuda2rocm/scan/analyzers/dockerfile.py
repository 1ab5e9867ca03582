"""Dockerfiles (read by :mod:`cuda2rocm.source.formats.dockerfile`): base images, ENV/ARG pins and tuning,
RUN/CMD commands; malformed instructions (unknown, empty ``FROM``, broken JSON form) are input problems."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import Bad, Record
from cuda2rocm.source.formats.dockerfile import INSTRUCTIONS, Instruction, expand, read_dockerfile
from cuda2rocm.source.tokens import LineIndex

__all__ = ["INSTRUCTIONS", "expand", "scan_dockerfile"]


def scan_dockerfile(text: str) -> Iterator[Record]:
    dockerfile = read_dockerfile(text)
    for problem in dockerfile.problems:
        yield Bad(rules.E105, problem.message, problem.line)
    lines = text.splitlines()
    index = LineIndex(text)
    args: dict[str, str] = {}  # ARG defaults and ENV values seen so far, for ${NAME} in FROM
    for ins in dockerfile.instructions:
        yield from _instruction(ins, lines, index, args)






def _instruction(ins: Instruction, lines: list[str], index: LineIndex,
                 args: dict[str, str]) -> Iterator[Record]:
    name = ins.name
    if name == "FROM":
        image = next((w for w in ins.words() if not w.src.startswith("--")), None)
        if image is not None:
            col = index.line_col(image.offset)[1]
            yield from scan_image(expand(image.src, args), ins.line, col)
            yield from rocm_path.command(expand(image.src, args), ins.line)  # FROM rocm/pytorch:...
    elif name in ("ENV", "ARG"):
        build_arg = name == "ARG"  # ENV sets the containers' environment; ARG only the build's (its pins count)
        for key, value in ins.pairs():
            if value is None:  # ARG NAME without a default: nothing is set here
                continue
            line, col = index.line_col(key.offset)
            raw = value.src
            args[key.src] = expand(raw.strip("\"'"), args)
            yield from check_env(key.src, line, col, raw, build_arg=build_arg)
    elif name in ("RUN", "CMD", "ENTRYPOINT", "HEALTHCHECK"):
        body = "\n".join(expand(x, args) for x in lines[ins.line - 1 : ins.last_line])
        yield from shell.scan_text(body, ins.line)
