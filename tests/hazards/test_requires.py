"""Every device rule's ``requires`` strings are a necessary condition: skipping the rules whose strings a file
lacks changes no hit, over every C/C++/CUDA file of the repository's tests and examples and every rule's
example and corrected example."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.hazards.engine import device_rules, hits
from cuda2rocm.source.tokens import tokenize

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl", ".hip")


def _texts() -> list[tuple[str, str]]:
    found = [(str(p.relative_to(ROOT)), p.read_text(errors="replace"))
             for folder in ("tests", "examples") for p in sorted((ROOT / folder).rglob("*"))
             if p.suffix in SUFFIXES and p.is_file()]
    for r in device_rules():
        found += [(f"{r.id}.example.cu", r.example), (f"{r.id}.instead.cu", r.instead)]
    return found


TEXTS = _texts()


def _view(text: str, path: str, *, prefilter: bool) -> list[tuple[str, int, str, tuple[object, ...], bool, str]]:
    found = hits(tokenize(text), text, path, rocm="5.2", prefilter=prefilter)
    return [(h.rule, h.index, h.message, h.edits, h.covered, h.note) for h in found]


def test_the_inputs_are_the_repository_corpora() -> None:
    assert len(TEXTS) > 500
    assert sum(1 for r in device_rules() if r.requires) >= 20, "most rules name what they need"


@pytest.mark.parametrize("chunk", range(8))
def test_skipping_rules_without_their_strings_changes_no_hit(chunk: int) -> None:
    for path, text in TEXTS[chunk::8]:
        assert _view(text, path, prefilter=True) == _view(text, path, prefilter=False), path


def test_requires_strings_are_plain_and_non_empty() -> None:
    for r in device_rules():
        assert all(s and s == s.strip() for s in r.requires), r.id
        assert len(set(r.requires)) == len(r.requires), r.id


def test_a_rule_that_requires_a_string_is_skipped_without_it() -> None:
    rule = next(r for r in device_rules() if r.requires)
    text = rule.example
    for s in rule.requires:  # the example without any of the strings: the rule is not run on it
        text = text.replace(s, "x" * len(s))
    assert not any(h.rule == rule.id for h in hits(tokenize(text), text, "x.cu", prefilter=True))
