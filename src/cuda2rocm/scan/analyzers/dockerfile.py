"""Dockerfiles (dockerfile-parse): base images, ENV/ARG pins and tuning, RUN/CMD commands."""

from __future__ import annotations

import io
import re

from dockerfile_parse import DockerfileParser

from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.report import FileReport

INSTRUCTIONS = frozenset({"FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                          "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"})
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:=|\s+)(\"[^\"]*\"|'[^']*'|\S*)")


def scan_dockerfile(report: FileReport, text: str) -> None:
    try:
        structure = DockerfileParser(fileobj=io.BytesIO(text.encode("utf-8"))).structure
    except Exception as exc:  # dockerfile-parse raises assorted errors on broken input
        report.problem("C2R-E105", f"cannot parse Dockerfile: {exc}")
        return
    lines = text.splitlines()
    for ins in structure:
        _instruction(report, ins, lines)


def _instruction(report: FileReport, ins: dict[str, object], lines: list[str]) -> None:
    name = str(ins["instruction"]).upper()
    start = int(str(ins["startline"])) + 1
    value = str(ins["value"])
    if name not in INSTRUCTIONS and name != "COMMENT":
        report.problem("C2R-E105", f"unknown Dockerfile instruction {name!r} at line {start}", start)
    elif name == "FROM":
        image = value.split()[0] if value.split() else ""
        if image.startswith("--platform"):
            image = value.split()[1] if len(value.split()) > 1 else ""
        scan_image(report, image, start, lines[start - 1].find(image) + 1)
    elif name in ("ENV", "ARG"):
        _env(report, ins, lines)
    elif name in ("RUN", "CMD", "ENTRYPOINT", "HEALTHCHECK"):
        end = int(str(ins["endline"])) + 1
        shell.scan_text(report, "\n".join(lines[start - 1:end]), start)


def _env(report: FileReport, ins: dict[str, object], lines: list[str]) -> None:
    start, end = int(str(ins["startline"])), int(str(ins["endline"]))
    for offset, raw in enumerate(lines[start:end + 1]):
        body = re.sub(r"^\s*(ENV|ARG)\s+", "", raw, flags=re.IGNORECASE).rstrip("\\ ")
        for m in _PAIR.finditer(body):
            col = raw.find(m.group(1)) + 1
            check_env(report, m.group(1), start + offset + 1, col, m.group(2))
