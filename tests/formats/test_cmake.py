"""CMake reader: lossless tokens, commands and arguments with offsets, malformed input as problems."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats._base import joined
from cuda2rocm.source.formats.cmake import read_cmake

from ._strategies import line_count, mutated

FRAGMENTS = ["project", "(", ")", " ", "\t", "\n", "\r\n", "x", "CUDA", '"', '\\"', "\\", "#", "#[[", "]]", "[=[",
             "]=]", "[[", "${V}", "$<$<COMPILE_LANGUAGE:CUDA>:-O3>", "$(MAKE)", ";", "=", "if", "add_library",
             "-DX=\"a b\"", "a.cu", "\\n", "\\;", "[", "]"]


def _check(text: str) -> None:
    f = read_cmake(text)
    assert joined(f.tokens) == text
    pos = 0
    for t in f.tokens:
        assert t.offset == pos and t.src
        pos = t.end
    for c in f.commands:
        assert text[c.offset : c.offset + len(c.name)] == c.name
        assert text[c.open] == "("
        assert c.close < 0 or text[c.close] == ")"
        for a in c.arguments:
            assert (a.kind == "quoted" and a.src.endswith('"') and text[a.offset:].startswith(a.src[:-1])) \
                or text[a.offset : a.end] == a.src
    assert all(1 <= p.line <= line_count(text) for p in f.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_round_trip_generated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated("cmake_minimum_required(VERSION 3.18)\nproject(app LANGUAGES CXX CUDA) # c\n"
               "set(CMAKE_CUDA_ARCHITECTURES \"70;80\")\n#[==[ block ]==]\ntarget_link_libraries(app PRIVATE "
               "CUDA::cublas\n  nccl)\nset(X [[a\nb]] \"q\\\"\")\n"))
def test_round_trip_mutated(text: str) -> None:
    _check(text)


def test_arguments_of_every_kind() -> None:
    text = ('set(A [==[ x ]] y ]==] "q \\" \\\n z" -DX="a b" $(MK) ${V}\n'
            '  $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math> # tail\n)\n')
    (cmd,) = read_cmake(text).commands
    assert [(a.kind, a.value) for a in cmd.arguments] == [
        ("unquoted", "A"), ("bracket", " x ]] y "), ("quoted", 'q "  z'), ("unquoted", '-DX="a b"'),
        ("unquoted", "$(MK)"), ("unquoted", "${V}"),
        ("unquoted", "$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>")]
    genex = cmd.arguments[-1]
    assert text[genex.offset : genex.end] == genex.src
    assert (cmd.line, cmd.col, text[cmd.close]) == (1, 1, ")")


def test_comments_and_multi_line_commands() -> None:
    text = "#[[ bracket\ncomment(]]\n# line comment(\nadd_library(foo # why\n  a.cu\n  b.cu)\n"
    f = read_cmake(text)
    assert [c.kind for c in f.comments] == ["bracket_comment", "comment", "comment"]
    (cmd,) = f.commands
    assert (cmd.name, cmd.line, cmd.values()) == ("add_library", 4, ["foo", "a.cu", "b.cu"])
    assert text.count("\n", 0, cmd.end) == 5 and not f.problems


def test_nested_parentheses_are_arguments() -> None:
    (cmd,) = read_cmake("if((A OR B) AND C)\n").commands
    assert [a.src for a in cmd.arguments] == ["(", "A", "OR", "B", ")", "AND", "C"]
    assert cmd.values() == ["A", "OR", "B", "AND", "C"]


def test_bracket_argument_drops_first_newline() -> None:
    (cmd,) = read_cmake("message([[\nhello]])").commands
    assert cmd.arguments[0].value == "hello"


def test_malformed() -> None:
    f = read_cmake('project(x)\nadd_library(foo\n  a.cu\n')
    assert [(p.line, p.message) for p in f.problems] == [
        (2, "CMake command add_library( opened at line 2 is never closed")]
    assert [p.line for p in read_cmake('set(A "open\n\n').problems] == [1, 1]
    assert read_cmake("set(A [==[ open\n").problems[0].message.startswith("unterminated bracket argument")
    assert read_cmake("stray text\n").problems[0].line == 1
    assert read_cmake("x(a)\n} junk\n").problems[0].line == 2
