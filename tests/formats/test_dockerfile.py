"""Dockerfile reader: instructions with spans; line ranges agree with dockerfile-parse where it applies."""

from __future__ import annotations

import io
import itertools

from dockerfile_parse import DockerfileParser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats.dockerfile import read_dockerfile

from ._strategies import line_count, mutated

SEED = ("# syntax=docker/dockerfile:1\nARG CUDA=12.1\nFROM --platform=$P nvidia/cuda:${CUDA}-devel AS build\n"
        "RUN apt-get update \\\n  && apt-get install -y x\nENV A=1 \\\n    B=\"2 3\"\nENV NCCL_DEBUG INFO\n"
        "FROM rocm/dev-ubuntu-22.04 AS run\nCOPY --from=build /a /b\nCMD [\"python\", \"x.py\"]\n")
_LINES = st.sampled_from(["FROM ubuntu:22.04", "RUN echo a \\", "  && echo b", "ENV A=1 B=2", "ENV K v w", "",
                          "# comment", "run x", "ARG X", "CMD [\"a\"]", "LABEL a=b \\", "  c=d", "EXPOSE 80",
                          "WORKDIR /w", "  RUN indented"])


def _check(text: str) -> None:
    f = read_dockerfile(text)
    for ins in f.instructions:
        assert text[ins.keyword.offset : ins.keyword.end] == ins.keyword.src
        assert ins.offset <= ins.end <= len(text) and ins.line <= ins.last_line
        for seg in ins.segments:
            assert text[seg.offset : seg.end] == seg.src
        for w in ins.words():
            assert text[w.offset : w.end] == w.src
        for h in ins.heredocs:
            assert text[h.body.offset : h.body.end] == h.body.src
    assert all(1 <= p.line <= line_count(text) for p in f.problems)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_spans_mutated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINES, max_size=20).map(lambda ls: "\n".join(ls) + "\n"))
def test_line_ranges_agree_with_dockerfile_parse(text: str) -> None:
    """Without here-documents or comment/empty lines inside a continuation, both readers agree."""
    lines = text.split("\n")
    if any(a.rstrip().endswith("\\") and (not b.strip() or b.lstrip().startswith("#"))
           for a, b in itertools.pairwise(lines)):
        return
    _check(text)
    ours = [(i.name, i.line, i.last_line) for i in read_dockerfile(text).instructions]
    theirs = [(str(i["instruction"]), int(i["startline"]) + 1, int(i["endline"]) + 1)
              for i in DockerfileParser(fileobj=io.BytesIO(text.encode())).structure if i["instruction"] != "COMMENT"]
    assert ours == theirs


def test_structure() -> None:
    f = read_dockerfile(SEED)
    assert f.directives == {"syntax": "docker/dockerfile:1"}
    assert [(i.name, i.line, i.last_line) for i in f.instructions] == [
        ("ARG", 2, 2), ("FROM", 3, 3), ("RUN", 4, 5), ("ENV", 6, 7), ("ENV", 8, 8), ("FROM", 9, 9), ("COPY", 10, 10),
        ("CMD", 11, 11)]
    assert [len(stage) for stage in f.stages()] == [1, 4, 3]
    env = f.instructions[3]
    assert [(k.src, v.src if v else None) for k, v in env.pairs()] == [("A", "1"), ("B", '"2 3"')]
    b = env.pairs()[1][0]
    assert SEED.count("\n", 0, b.offset) + 1 == 7
    assert [(k.src, v.src if v else None) for k, v in f.instructions[4].pairs()] == [("NCCL_DEBUG", "INFO")]
    assert f.instructions[7].json_form() == ["python", "x.py"]
    assert not f.problems


def test_escape_directive_comments_in_continuations_and_heredocs() -> None:
    text = ("# escape=`\nFROM x\nRUN a `\n# skipped\n\n  && b\nRUN <<EOF cat <<-EOT\necho hi\nEOF\n\tx\n\tEOT\n"
            "RUN after\n")
    f = read_dockerfile(text)
    assert f.escape == "`"
    run, here, after = f.instructions[1:]
    assert (run.line, run.last_line, run.value) == (3, 6, "a   && b")
    assert (here.line, here.last_line) == (7, 11)
    assert [(h.delimiter, h.strip_tabs, h.body.src) for h in here.heredocs] == [("EOF", False, "echo hi\n"),
                                                                             ("EOT", True, "\tx\n")]
    assert (after.name, after.line) == ("RUN", 12) and not f.problems


def test_malformed() -> None:
    f = read_dockerfile("FROM\nRUNN x\nRUN [\"a\", b]\nRUN <<EOF\nnever\n")
    assert [(p.line, p.message.split(" ")[0]) for p in f.problems] == [(1, "FROM"), (2, "unknown"), (3, "RUN"),
                                                                      (4, "here-document")]
