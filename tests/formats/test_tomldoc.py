"""TOML reader on tomlkit: byte-for-byte round trip and key/value spans."""

from __future__ import annotations

import sys

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats.tomldoc import _as_string, read_toml

from ._strategies import mutated

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SEED = ('# c\n[project]\nname = "x"  # n\ndependencies = [\n  "torch==2.1.0+cu121", # pinned\n  \'numpy\',\n]\n'
        'desc = """multi\n[fake]\na = 1"""\n[project.optional-dependencies]\ngpu = ["cupy-cuda12x"]\n'
        '[tool.poetry.dependencies]\ntorch = {version = "2.1", source = "pt"}\n"quoted.key" = "1"\n'
        '[[tool.poetry.source]]\nname = "pt"\nurl = "https://download.pytorch.org/whl/cu121"\n'
        '[[tool.poetry.source]]\nname = "b"\nurl = "https://b"\n')


def _norm(x: object) -> object:
    """Values with newlines normalised (TOML lets a reader turn CRLF in multi-line strings into LF)."""
    if isinstance(x, str):
        return x.replace("\r\n", "\n")
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_norm(v) for v in x]
    return x


def _spans_agree(text: str) -> None:
    d = read_toml(text)
    if d.document is None:
        assert d.problems
        return
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:  # tomlkit reads TOML 1.1 (``\e``, ...), the standard library 1.0
        expected = None
    if expected is not None:
        assert _norm(d.data()) == _norm(expected)  # the same values as the standard library's reader

    def visit(item: object, path: tuple[str | int, ...]) -> None:
        if path:
            span = d.span(*path)
            if span is not None:
                assert text[span.offset : span.end] == span.src == _as_string(item)
        if isinstance(item, dict):
            for k, v in item.items():
                visit(v, (*path, k))
        elif isinstance(item, list):
            for i, v in enumerate(item):
                visit(v, (*path, i))

    visit(d.document, ())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_round_trip_mutated(text: str) -> None:
    _spans_agree(text)


_KEY = st.text("abcxyz_-", min_size=1, max_size=6)
_VALUE = st.one_of(st.integers(-99, 99), st.booleans(), st.text("abc #[]=\"'\\", max_size=6),
                   st.lists(st.text("ab", max_size=3), max_size=3))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEY, st.one_of(_VALUE, st.dictionaries(_KEY, _VALUE, max_size=3)), max_size=5))
def test_round_trip_generated(data: dict[str, object]) -> None:
    text = tomlkit.dumps(data)
    _spans_agree(text)
    d = read_toml(text)
    for key, value in data.items():
        if not isinstance(value, dict):
            span = d.span(key)
            assert span is not None and tomlkit.parse(f"x = {span.src}")["x"] == value


def test_spans_of_keys_values_arrays_and_arrays_of_tables() -> None:
    d = read_toml(SEED)
    assert not d.problems
    cases = {("project", "name"): '"x"', ("project", "dependencies", 0): '"torch==2.1.0+cu121"',
             ("project", "dependencies", 1): "'numpy'", ("project", "optional-dependencies", "gpu", 0):
             '"cupy-cuda12x"', ("tool", "poetry", "dependencies", "torch", "version"): '"2.1"',
             ("tool", "poetry", "dependencies", "quoted.key"): '"1"', ("tool", "poetry", "source", 1, "url"):
             '"https://b"', ("project", "desc"): '"""multi\n[fake]\na = 1"""'}
    for path, want in cases.items():
        span = d.span(*path)
        assert span is not None and span.src == want and SEED[span.offset : span.end] == want, path
    assert d.span("fake", "a") is None  # inside a multi-line string: not a table
    key = d.key_span("project", "dependencies")
    assert key is not None and SEED.count("\n", 0, key.offset) + 1 == 4
    table = d.table_span("tool", "poetry", "source", 1)
    assert table is not None and table.src == "[[tool.poetry.source]]"
    assert d.data()["project"]["name"] == "x"


def test_malformed() -> None:
    d = read_toml("[project\nname = 1\n")
    assert d.document is None and d.problems[0].line == 1 and "invalid TOML" in d.problems[0].message


def test_seed_dumps_exactly_and_regrouped_tables_are_said() -> None:
    assert read_toml(SEED).dumps_exactly
    regrouped = '[[a.b]]\nx = 1\n[[a.c]]\ny = 2\n[[a.b]]\nx = 3\n'
    d = read_toml(regrouped)
    assert d.span("a", "b", 1, "x") is not None and d.span("a", "b", 1, "x").src == "3"  # type: ignore[union-attr]
    assert d.data() == tomllib.loads(regrouped)
