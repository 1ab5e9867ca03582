"""The fast paths of the tokenizer, scan and convert give exactly the results of their reference paths.

Every fast path (C-level token construction, prefilters that skip analyses) must be exact: these tests run
both paths over every source file in the repository's fixtures, corpora, goldens and examples, and over
generated text full of the characters that make tokenizing hard.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm import hazards
from cuda2rocm.hazards import engine
from cuda2rocm.hazards.context import Source
from cuda2rocm.model import Edit
from cuda2rocm.source import declared
from cuda2rocm.source.structure import find_functions, match_brackets, match_span
from cuda2rocm.source.tokens import IDENT, NL, PUNCT, Token, tokenize, tokenize_reference
from cuda2rocm.translate.context import Context
from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.passes import identifiers

ROOT = Path(__file__).resolve().parents[1]
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hip", ".inl")
CORPUS_DIRS = ("tests/scan/fixtures", "tests/hazards", "tests/golden", "tests/corpus", "tests/translate",
               "examples")


def _corpus_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--", *CORPUS_DIRS], cwd=ROOT, capture_output=True, text=True,
                            check=False).stdout.split()
    paths = [ROOT / p for p in listed] if listed else [p for d in CORPUS_DIRS for p in (ROOT / d).rglob("*")]
    return sorted(p for p in paths if p.suffix in SOURCE_SUFFIXES and p.is_file() and not p.is_symlink())


CORPUS = _corpus_files()
TRICKY = st.text(alphabet=st.sampled_from([*list("uUL8R\"'\\/*.#<>_a1 \t\n\r(){}:;"), "é", "\x00"]),
                 max_size=80)


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def test_corpus_is_found() -> None:
    assert len(CORPUS) > 50


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_tokenize_equals_reference_on_corpus(path: Path) -> None:
    text = _read(path)
    assert tokenize(text) == tokenize_reference(text)


@settings(max_examples=400, deadline=None)
@given(TRICKY)
def test_tokenize_equals_reference_on_tricky_text(text: str) -> None:
    assert tokenize(text) == tokenize_reference(text)


@pytest.mark.parametrize("text", [
    'auto r = R"x(raw)x"; auto e = "ERROR"; L"wide" u8"utf" U\'c\' uR"(y)" .5 x.y ... a.*b',
    '#include <a/b.h>\n  # include <<c.h>\n#define X(a) a \\\n  + 1\nint y; # not a directive\n',
    "/* unterminated", '"unterminated\nnext', "'x", "a/b /= c // end\\\ncontinued\n/*/ */",
])
def test_tokenize_equals_reference_on_edge_cases(text: str) -> None:
    assert tokenize(text) == tokenize_reference(text)


class _ReferenceSource(Source):
    """The hazard view with every index lookup replaced by the plain linear scan it stands for."""

    def idents(self, names: frozenset[str] | set[str], start: int = 0, end: int | None = None) -> Iterator[int]:
        stop = len(self.tokens) if end is None else end
        return iter([i for i in self.range_code(start, stop)
                     if self.tokens[i].kind == IDENT and not self.tokens[i].pp and self.tokens[i].src in names])

    def positions(self, text: str) -> list[int]:
        return [i for i, t in enumerate(self.tokens) if t.src == text]

    def of_kind(self, kind: str) -> list[int]:
        return [i for i, t in enumerate(self.tokens) if t.kind == kind]

    def tokens_named(self, texts: Iterable[str], start: int = 0, end: int | None = None) -> list[int]:
        wanted = set(texts)
        stop = len(self.tokens) if end is None else end
        return [i for i in range(max(start, 0), stop) if self.tokens[i].src in wanted]


def _hazard_results(text: str) -> tuple[list[tuple[object, ...]], list[Edit]]:
    tokens = tokenize(text)
    found = hazards.analyze(tokens, text, "f.cu")
    return [(f.rule, f.line, f.col, f.message, f.fix) for f in found], hazards.fixes(tokens, text, "f.cu")


@pytest.mark.parametrize("path", [p for p in CORPUS if p.suffix in (".cu", ".cuh", ".hip")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_hazards_equal_reference_on_corpus(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _read(path)
    fast = _hazard_results(text)
    monkeypatch.setattr(engine, "Source", _ReferenceSource)
    assert _hazard_results(text) == fast


@pytest.mark.parametrize("path", [p for p in CORPUS if p.suffix in (".cu", ".cuh", ".hip")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_hazards_with_shared_structure_equal_own(path: Path) -> None:
    """The scan hands its bracket pairs and functions to the hazard analysis: same findings as computing them."""
    text = _read(path)
    tokens = tokenize(text)
    pairs = match_brackets(tokens)
    shared = hazards.analyze(tokens, text, "f.cu", structure=(pairs, find_functions(tokens, pairs)))
    assert shared == hazards.analyze(tokens, text, "f.cu")


def test_reference_source_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(_ReferenceSource, "of_kind", lambda self, kind: calls.append(1) or [])
    monkeypatch.setattr(engine, "Source", _ReferenceSource)
    hazards.analyze(tokenize("#include <mma.h>\n"), "#include <mma.h>\n", "f.cu")
    assert calls


def _translated(text: str) -> tuple[object, ...]:
    outcome = translate_text(text, "f.cu", Options(target_rocm="5.2", hazards=False))
    result = outcome.result
    return (type(result).__name__, getattr(result, "text", None), getattr(result, "edits", ()),
            getattr(result, "findings", ()), dict(outcome.stats.converted), outcome.stats.unsupported)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_identifier_pass_equals_reference_on_corpus(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The identifier pass's candidate filter against every identifier going through ``_decision``."""
    text = _read(path)
    fast = _translated(text)
    monkeypatch.setattr(identifiers, "_candidates", _every_identifier)
    assert _translated(text) == fast


def _every_identifier(ctx: Context) -> list[int]:
    return [i for i, t in enumerate(ctx.tokens) if t.kind == IDENT]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["cudaMalloc", "cuda", "::", "std", "thrust", "x", "(", ")", ";", " ", "\n",
                                 "#define M ", "cudaError_t", "cub", "cooperative_groups", "binary_partition",
                                 "namespace cg = cooperative_groups;", "//c\n", "cudaStream_t", "."]),
                max_size=40).map("".join))
def test_identifier_candidates_equal_every_identifier(text: str) -> None:
    """Qualified and unqualified names, directives and members: the filter changes no translation."""
    fast = _translated(text)
    original = identifiers._candidates
    identifiers._candidates = _every_identifier  # not monkeypatch: hypothesis reruns the body
    try:
        assert _translated(text) == fast
    finally:
        identifiers._candidates = original


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_match_brackets_equals_reference_on_corpus(path: Path) -> None:
    tokens = tokenize(_read(path))
    assert match_brackets(tokens) == _match_brackets_reference(tokens)


@settings(max_examples=300, deadline=None)
@given(TRICKY)
def test_match_brackets_equals_reference_on_tricky_text(text: str) -> None:
    tokens = tokenize(text)
    assert match_brackets(tokens) == _match_brackets_reference(tokens)


def _span_agrees(tokens: list[Token]) -> None:
    """match_span of every opening code bracket equals the whole file's matching over that span."""
    whole = match_brackets(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind != PUNCT or tok.src not in ("(", "[", "{") or tok.pp:
            continue
        if i not in whole:
            assert match_span(tokens, i) == {}, i
            continue
        expected = {a: b for a, b in whole.items() if i <= a <= whole[i]}
        assert match_span(tokens, i) == expected, i


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_match_span_equals_whole_file_matching_on_corpus(path: Path) -> None:
    _span_agrees(tokenize(path.read_text(errors="replace")))


@given(st.lists(st.sampled_from(["(", ")", "[", "]", "{", "}", "x", " ", "\n", "#define M (", "#if (a\n",
                                 "\\\n", "f(a, b)", "// )\n", "\")\""]), max_size=40).map("".join))
def test_match_span_equals_whole_file_matching_on_bracket_soup(text: str) -> None:
    _span_agrees(tokenize(text))


def _match_brackets_reference(tokens: list[Token]) -> dict[int, int]:
    """Every token visited: directive brackets on a stack emptied at each end of line."""
    opening, closing = {"(": ")", "[": "]", "{": "}"}, {")": "(", "]": "[", "}": "{"}
    pairs: dict[int, int] = {}
    stacks: dict[bool, list[int]] = {False: [], True: []}
    for i, tok in enumerate(tokens):
        if tok.kind != PUNCT:
            if tok.kind == NL:
                stacks[True].clear()
            continue
        stack = stacks[tok.pp]
        if tok.src in opening:
            stack.append(i)
        elif tok.src in closing:
            while stack and tokens[stack[-1]].src != closing[tok.src]:
                stack.pop()
            if stack:
                j = stack.pop()
                pairs[i], pairs[j] = j, i
    return pairs


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_is_defined_equals_defined_names_on_corpus(path: Path) -> None:
    tokens = tokenize(_read(path))
    defined = declared.defined_names(tokens)
    names = {t.src for t in tokens if t.kind == IDENT}
    assert {n for n in names if declared.is_defined(tokens, n)} == defined
