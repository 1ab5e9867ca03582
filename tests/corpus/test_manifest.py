"""The corpus manifest tells the truth about its programs (checked statically with our own tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.mapping import identifier_library, load
from cuda2rocm.source import tokenize

from .corpus import CUDA_DIR, load_programs

PROGRAMS = load_programs()
CORE = {"device", "macros"}  # language-level names every kernel uses; not a library dependency


def _names_and_headers(path: Path, seen: set[Path]) -> tuple[set[str], set[str]]:
    """CUDA identifiers (``a::b`` joined) and included headers of a file and the local headers it includes."""
    if path in seen:
        return set(), set()
    seen.add(path)
    tokens = [t for t in tokenize(path.read_text(encoding="utf-8")) if t.kind in ("IDENT", "PUNCT", "HEADER")]
    names, headers = set(), set()
    for i, tok in enumerate(tokens):
        if tok.kind == "IDENT":
            qualified = i + 2 < len(tokens) and tokens[i + 1].src == "::" and tokens[i + 2].kind == "IDENT"
            names.add(f"{tok.src}::{tokens[i + 2].src}" if qualified else tok.src)
        elif tok.kind == "HEADER":
            header = tok.src.strip('<>"')
            local = path.parent / header
            if tok.src.startswith('"') and local.is_file():
                more_names, more_headers = _names_and_headers(local, seen)
                names |= more_names
                headers |= more_headers
            else:
                headers.add(header)
    return names, headers


def _scan(program) -> tuple[set[str], set[str]]:
    names, headers, seen = set(), set(), set()
    for source in program.sources:
        n, h = _names_and_headers(source, seen)
        names |= n
        headers |= h
    return names, headers


def test_every_source_file_belongs_to_exactly_one_program():
    listed = [s for p in PROGRAMS for s in p.sources]
    on_disk = sorted(CUDA_DIR.rglob("*.cu"))
    assert sorted(listed) == on_disk
    assert len(set(listed)) == len(listed)
    assert len(PROGRAMS) >= 40
    assert len({p.name for p in PROGRAMS}) == len(PROGRAMS)


def test_manifest_libraries_are_known():
    known = set(load().libraries())
    for program in PROGRAMS:
        assert set(program.libraries) <= known, program.name


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_declared_libraries_match_the_code(program):
    names, headers = _scan(program)
    found = {identifier_library(n) for n in names} | {load().header(h).library for h in headers if load().header(h)}
    assert found - {""} - CORE == set(program.libraries)


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.hip52], ids=lambda p: p.name)
def test_hip52_programs_only_use_apis_rocm_5_2_has(program):
    """Every CUDA name the tables know resolves for ROCm 5.2 (directly or through a fallback)."""
    names, headers = _scan(program)
    table = load()
    missing = sorted(n for n in names if (e := table.lookup(n)) is not None and e.resolve("5.2") is None)
    missing += sorted(h for h in headers if (e := table.header(h)) is not None and e.resolve("5.2") is None)
    assert missing == []


@pytest.mark.parametrize("program", [p for p in PROGRAMS if not p.hip52], ids=lambda p: p.name)
def test_programs_hip52_cannot_compile_say_why(program):
    assert len(program.hip52_reason) > 20


def test_every_program_checks_and_reports_its_result():
    for program in PROGRAMS:
        main = program.sources[0].read_text(encoding="utf-8")
        assert f'report("{program.name}"' in main, program.name


def test_expected_hazards_are_registered_rules():
    from cuda2rocm.rules import load_all

    rules = load_all()
    expected = {rule for program in PROGRAMS for rule in program.hazards}
    assert expected, "the corpus must exercise the device hazard rules"
    assert expected <= set(rules), sorted(expected - set(rules))
