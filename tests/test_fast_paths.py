"""The fast paths of the tokenizer, scan and convert give exactly the results of their reference paths.

Every fast path (C-level token construction, prefilters that skip analyses) must be exact: these tests run
both paths over every source file in the repository's fixtures, corpora, goldens and examples, and over
generated text full of the characters that make tokenizing hard.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.source.tokens import tokenize, tokenize_reference

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
