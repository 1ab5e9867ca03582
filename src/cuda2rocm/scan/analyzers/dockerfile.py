"""Dockerfiles (read by :mod:`cuda2rocm.source.formats.dockerfile`): base images, ENV/ARG pins and tuning,
RUN/CMD commands; malformed instructions (unknown, empty ``FROM``, broken JSON form) are input problems."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import Bad, Record
from cuda2rocm.source.formats.dockerfile import INSTRUCTIONS, Instruction, read_dockerfile
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


_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+][^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand(text: str, args: dict[str, str]) -> str:
    """``${NAME}``/``$NAME`` replaced by the ARG/ENV values known so far (nested ones too; unknown ones kept)."""
    for _ in range(5):  # ARG BASE=nvidia/cuda:${CUDA_VERSION}-devel: a few rounds resolve chains
        new = _REF.sub(lambda m: args.get(m.group(1) or m.group(2), m.group(0)), text)
        if new == text:
            break
        text = new
    return text


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
