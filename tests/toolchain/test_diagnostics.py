"""Parsing of clang/hipcc, nvcc and linker messages."""

from __future__ import annotations

import pytest

from cuda2rocm.toolchain import Diagnostic, parse_diagnostics, parse_line


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "k.hip:3:10: error: use of undeclared identifier 'x'",
            Diagnostic("k.hip", 3, 10, "error", "use of undeclared identifier 'x'"),
        ),
        (
            "/a b/k.hip:12:1: warning: unused [-Wunused]",
            Diagnostic("/a b/k.hip", 12, 1, "warning", "unused [-Wunused]"),
        ),
        (
            "k.hip:4:2: fatal error: 'cub/cub.cuh' file not found",
            Diagnostic("k.hip", 4, 2, "error", "'cub/cub.cuh' file not found"),
        ),
        (
            'k.cu(2): error: identifier "y" is undefined',
            Diagnostic("k.cu", 2, 0, "error", 'identifier "y" is undefined'),
        ),
        (
            'k.cu(7): warning #177-D: variable "x" was declared',
            Diagnostic("k.cu", 7, 0, "warning", 'variable "x" was declared'),
        ),
        ("ld.lld: error: undefined symbol: foo", Diagnostic("", 0, 0, "error", "ld.lld: undefined symbol: foo")),
        (
            "ptxas fatal   : Unresolved extern function 'bar'",
            Diagnostic("", 0, 0, "error", "ptxas: Unresolved extern function 'bar'"),
        ),
    ],
)
def test_parse_line(line, expected):
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    "line",
    ["  p[0] = x;", "         ^", "2 errors generated when compiling for gfx90a.", "", "In file included from a.h:3:"],
)
def test_context_lines_are_not_diagnostics(line):
    assert parse_line(line) is None


def test_duplicates_collapse_in_order():
    text = "a.hip:1:1: error: e1\nb.hip:2:2: warning: w\na.hip:1:1: error: e1\n"
    assert [d.message for d in parse_diagnostics(text)] == ["e1", "w"]
