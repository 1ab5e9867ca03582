"""Golden before/after tests of the build-file migrators (regenerate with UPDATE_GOLDEN=1 and review the diff).

Each input under golden/ is migrated for gfx90a;gfx942 (CMake in both styles); the output and the findings
(rule, line, message) must match the committed expectations byte for byte. Invariants on every case: the edits
apply without overlap, migrating the output again changes nothing, and every comment of the input survives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions, FileMigration
from cuda2rocm.migrate.bazel import migrate_bazel, migrate_bazelrc
from cuda2rocm.migrate.build import build_kind
from cuda2rocm.migrate.cmake import migrate_cmake
from cuda2rocm.migrate.make import migrate_make
from cuda2rocm.migrate.pydeps import KINDS as PYDEPS_KINDS
from cuda2rocm.migrate.pydeps import migrate_pydeps
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.model import Edit
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
GFX = ("gfx90a", "gfx942")


def _cases() -> list[tuple[str, str]]:
    out = []
    for path in sorted(GOLDEN.iterdir()):
        if path.suffix == ".cmake":
            out += [(path.name, "language"), (path.name, "package")]
        elif path.suffix == ".mk":
            out.append((path.name, "make"))
        elif path.suffix == ".py":
            out.append((path.name, "setup-py"))
        elif path.suffix in (".bazel", ".bzl"):
            out.append((path.name, "bazel"))
        elif path.suffix == ".bazelrc":
            out.append((path.name, "bazelrc"))
        elif _pydeps_kind(path.name):
            out.append((path.name, "pydeps"))
    return out


def _pydeps_kind(name: str) -> str | None:
    """Python dependency files (C2R-B6xx), by the kind their name gives (requirements-*.txt, pyproject.toml, ...)."""
    kind = build_kind(name)
    return kind if kind in PYDEPS_KINDS else None


def _migrate(name: str, text: str, style: str) -> FileMigration:
    renames = {"src/k.cu": "src/k.hip"} if name == "pattern_rules.mk" else {}
    if name == "renamed_sources.py":
        renames = {"csrc/reduce.cu": "csrc/reduce.hip", "csrc/more/x.cu": "csrc/more/x.hip"}
    if name == "rules_cuda.BUILD.bazel":
        renames = {"reduce.cu": "reduce.hip", "scan/a.cu": "scan/a.hip"}
    if style == "bazel":
        return migrate_bazel(name, text, BuildOptions(gfx=GFX, renames=renames))
    if style == "bazelrc":
        return migrate_bazelrc(name, text, BuildOptions(gfx=GFX, renames=renames))
    if style == "make":
        return migrate_make(name, text, BuildOptions(gfx=GFX, renames=renames))
    if style == "setup-py":
        return migrate_setup_py(name, text, BuildOptions(gfx=GFX, renames=renames))
    if style == "pydeps":  # the ROCm target pinned, so that a newer knowledge base does not move the goldens
        return migrate_pydeps(_pydeps_kind(name) or "", name, text, BuildOptions(gfx=GFX, rocm="6.4"))
    return migrate_cmake(name, text, BuildOptions(gfx=GFX, style=style, renames=renames))


def _render(result: FileMigration, new_text: str) -> str:
    findings = "".join(f"# {f.line}:{f.col} {f.rule} {f.severity.name.lower()}: {f.message}\n"
                       for f in result.findings)
    return new_text + "\n# ---- findings ----\n" + findings


@pytest.mark.parametrize(("name", "style"), _cases())
def test_golden(name: str, style: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    result = _migrate(name, text, style)
    assert not result.problems
    new_text = apply_edits(text, result.edits)
    expected = GOLDEN / "expected" / f"{name}.{style}"
    rendered = _render(result, new_text)
    if UPDATE:
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(rendered, encoding="utf-8")
    assert rendered == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "style"), _cases())
def test_second_run_changes_nothing(name: str, style: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    once = apply_edits(text, _migrate(name, text, style).edits)
    again = _migrate(name, once, style)
    assert apply_edits(once, again.edits) == once, [e for e in again.edits]


@pytest.mark.parametrize(("name", "style"), _cases())
def test_comments_survive(name: str, style: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    new_text = apply_edits(text, _migrate(name, text, style).edits)
    if name.endswith(".cmake"):
        comments = [t.src for t in read_cmake(text).comments]
        assert all(c in new_text for c in comments)
    elif style == "pydeps":  # a removed requirement goes with its comments (pip-compile's "# via" lines)
        removed = [(e.start, e.end) for e in _migrate(name, text, style).edits if not e.replacement]
        pos = 0
        for line in text.splitlines(keepends=True):
            if "#" in line and not any(a <= pos and pos + len(line) <= b for a, b in removed):
                assert line.split("#", 1)[1] in new_text, line
            pos += len(line)
    else:
        assert all(line.split("#", 1)[1] in new_text for line in text.splitlines() if "#" in line)


def test_every_edit_has_a_finding() -> None:
    for name, style in _cases():
        text = (GOLDEN / name).read_text(encoding="utf-8")
        result = _migrate(name, text, style)
        lines = {f.line for f in result.findings}
        for edit in result.edits:
            assert text.count("\n", 0, edit.start) + 1 in lines, (name, style, edit)


def test_edits_are_the_findings_fixes() -> None:
    """migrate applies the structured fixes of its findings: every edit is exactly one finding's safe fix."""
    for name, style in _cases():
        text = (GOLDEN / name).read_text(encoding="utf-8")
        result = _migrate(name, text, style)
        from_fixes = [e for f in result.findings if f.remedy is not None for e in f.remedy.edits]
        def key(e: Edit) -> tuple[int, int]:
            return (e.start, e.end)

        assert sorted(from_fixes, key=key) == sorted(result.edits, key=key)
        assert all(f.remedy.applicability == "safe" for f in result.findings if f.remedy is not None)
