"""Dockerfiles (dockerfile-parse): base images, ENV/ARG pins and tuning, RUN/CMD commands."""

from __future__ import annotations

import io
import re

from dockerfile_parse import DockerfileParser

from cuda2rocm.scan import rocm_path
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import FileFacts

INSTRUCTIONS = frozenset({"FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                          "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"})
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:=|\s+)(\"[^\"]*\"|'[^']*'|\S*)")


def scan_dockerfile(report: FileFacts, text: str) -> None:
    try:
        structure = DockerfileParser(fileobj=io.BytesIO(text.encode("utf-8"))).structure
    except Exception as exc:  # dockerfile-parse raises assorted errors on broken input
        report.problem("C2R-E105", f"cannot parse Dockerfile: {exc}")
        return
    lines = text.splitlines()
    args: dict[str, str] = {}  # ARG defaults and ENV values seen so far, for ${NAME} in FROM
    for ins in structure:
        _instruction(report, ins, lines, args)


_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+][^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand(text: str, args: dict[str, str]) -> str:
    """``${NAME}``/``$NAME`` replaced by the ARG/ENV values known so far (nested ones too; unknown ones kept)."""
    for _ in range(5):  # ARG BASE=nvidia/cuda:${CUDA_VERSION}-devel: a few rounds resolve chains
        new = _REF.sub(lambda m: args.get(m.group(1) or m.group(2), m.group(0)), text)
        if new == text:
            break
        text = new
    return text


def _instruction(report: FileFacts, ins: dict[str, object], lines: list[str], args: dict[str, str]) -> None:
    name = str(ins["instruction"]).upper()
    start = int(str(ins["startline"])) + 1
    value = str(ins["value"])
    if name not in INSTRUCTIONS and name != "COMMENT":
        report.problem("C2R-E105", f"unknown Dockerfile instruction {name!r} at line {start}", start)
    elif name == "FROM":
        image = value.split()[0] if value.split() else ""
        if image.startswith("--platform"):
            image = value.split()[1] if len(value.split()) > 1 else ""
        col = lines[start - 1].find(image) + 1
        scan_image(report, expand(image, args), start, col)
        rocm_path.command(report, expand(image, args), start)  # FROM rocm/pytorch:...
    elif name in ("ENV", "ARG"):
        _env(report, ins, lines, args)
    elif name in ("RUN", "CMD", "ENTRYPOINT", "HEALTHCHECK"):
        end = int(str(ins["endline"])) + 1
        shell.scan_text(report, "\n".join(expand(x, args) for x in lines[start - 1:end]), start)


def _env(report: FileFacts, ins: dict[str, object], lines: list[str], args: dict[str, str]) -> None:
    """ENV sets the containers' environment; ARG only the build's, so only its version pins count."""
    start, end = int(str(ins["startline"])), int(str(ins["endline"]))
    build_arg = str(ins["instruction"]).upper() == "ARG"
    for offset, raw in enumerate(lines[start:end + 1]):
        body = re.sub(r"^\s*(ENV|ARG)\s+", "", raw, flags=re.IGNORECASE).rstrip("\\ ")
        for m in _PAIR.finditer(body):
            col = raw.find(m.group(1)) + 1
            value = m.group(2).strip("\"'")
            args[m.group(1)] = expand(value, args)
            check_env(report, m.group(1), start + offset + 1, col, m.group(2), build_arg=build_arg)
