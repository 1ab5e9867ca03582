"""Makefile reader: logical lines, assignments, rules, recipes, directives; lossless tokens."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats._base import joined
from cuda2rocm.source.formats.make import read_make

from ._strategies import line_count, mutated

FRAGMENTS = ["CC", " ", "\t", "\n", "\\\n", "=", ":=", "::=", "?=", "+=", "!=", ":", "::", "|", ";", "#", "\\#",
             "$(CC)", "${X}", "$(call f,a b)", "%.o", "%.cu", "override ", "export ", "ifeq (a,b)", "else",
             "endif", "define T", "endef", "include x.mk", "nvcc", "-arch=sm_80", "@", "-lcudart", "$$", "(", ")"]
SEED = ("# build\nNVCC ?= nvcc\nCFLAGS := -O2 \\\n  -arch=sm_80 # why\nall: app | dirs\n\t@$(NVCC) -o $@ $^ \\\n"
        "\t  -lcudart\n%.o: %.cu ; $(NVCC) -c $<\nifeq ($(D),1)\nG = -g\nendif\ndefine T\n$(1): x\nendef\n")


def _check(text: str) -> None:
    f = read_make(text)
    assert joined(f.tokens) == text
    for ln in f.lines:
        assert joined(ln.tokens) == text[ln.offset : ln.end]
        for p in (*ln.words, *ln.targets, *ln.prerequisites, *ln.order_only, ln.name, ln.op, ln.value, ln.command,
                  ln.comment):
            if p is not None:
                assert text[p.offset : p.end] == p.src
    assert all(1 <= p.line <= line_count(text) for p in f.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_round_trip_generated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_round_trip_mutated(text: str) -> None:
    _check(text)


def test_structure() -> None:
    f = read_make(SEED)
    kinds = [(ln.kind, ln.line, ln.last_line) for ln in f.lines]
    assert kinds == [("comment", 1, 1), ("assignment", 2, 2), ("assignment", 3, 4), ("rule", 5, 5),
                     ("recipe", 6, 7), ("rule", 8, 8), ("directive", 9, 9), ("assignment", 10, 10),
                     ("directive", 11, 11), ("directive", 12, 12), ("define", 13, 13), ("directive", 14, 14)]
    nvcc, cflags = f.lines[1], f.lines[2]
    assert (nvcc.name.src, nvcc.op.src, nvcc.value.src) == ("NVCC", "?=", "nvcc")  # type: ignore[union-attr]
    assert [w.src for w in cflags.words] == ["CFLAGS", "-O2", "-arch=sm_80"] and cflags.comment is not None
    arch = cflags.words[-1]
    assert SEED[arch.offset : arch.end] == "-arch=sm_80"
    rule = f.lines[3]
    assert ([t.src for t in rule.targets], [p.src for p in rule.prerequisites], [o.src for o in rule.order_only]) == \
        (["all"], ["app"], ["dirs"])
    recipe = f.lines[4]
    assert recipe.command is not None and recipe.command.src.startswith("$(NVCC) -o $@ $^ \\\n\t  -lcudart")
    pattern = f.lines[5]
    assert pattern.pattern and [p.src for p in pattern.prerequisites] == ["%.cu"]
    assert pattern.command is not None and pattern.command.src == "$(NVCC) -c $<"
    assert f.lines[6].directive == "ifeq" and not f.problems


def test_assignment_operators_and_modifiers() -> None:
    text = "A = 1\nB := 2\nC ::= 3\nD ?= 4\nE += 5\nF != echo 6\noverride export G := 7\nH=$(call f, a = b)\n"
    lines = read_make(text).lines
    assert [(ln.name.src, ln.op.src) for ln in lines] == [  # type: ignore[union-attr]
        ("A", "="), ("B", ":="), ("C", "::="), ("D", "?="), ("E", "+="), ("F", "!="), ("G", ":="), ("H", "=")]
    assert lines[6].modifiers == ("override", "export")
    assert lines[7].value.src == "$(call f, a = b)"  # type: ignore[union-attr]


def test_hash_inside_references_and_escaped() -> None:
    (ln,) = read_make("X = a\\#b $(f #) # c\n").lines
    assert ln.value is not None and ln.value.src == "a\\#b $(f #) " and ln.comment.src == "# c"  # type: ignore[union-attr]


def test_malformed() -> None:
    assert [p.line for p in read_make("all: x\nfoo\n").problems] == [2]
    assert "no endif" in read_make("ifeq (a,b)\nX = 1\n").problems[0].message
    assert "no endef" in read_make("define T\nbody\n").problems[0].message
    assert "endif without" in read_make("endif\n").problems[0].message
    assert "unterminated variable reference" in read_make("X = $(open\n").problems[0].message
    assert "before the first rule" in read_make("\techo hi\n").problems[0].message
