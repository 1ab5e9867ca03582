"""TOML reader on tomlkit: byte-for-byte round trip and key/value spans."""

from __future__ import annotations

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats.tomldoc import _as_string, read_toml

from ._strategies import mutated

SEED = ('# c\n[project]\nname = "x"  # n\ndependencies = [\n  "torch==2.1.0+cu121", # pinned\n  \'numpy\',\n]\n'
        'desc = """multi\n[fake]\na = 1"""\n[project.optional-dependencies]\ngpu = ["cupy-cuda12x"]\n'
        '[tool.poetry.dependencies]\ntorch = {version = "2.1", source = "pt"}\n"quoted.key" = "1"\n'
        '[[tool.poetry.source]]\nname = "pt"\nurl = "https://download.pytorch.org/whl/cu121"\n'
        '[[tool.poetry.source]]\nname = "b"\nurl = "https://b"\n')


def _spans_agree(text: str) -> None:
    d = read_toml(text)
    if d.document is None:
        assert d.problems
        return
    assert tomlkit.dumps(d.document) == text

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
