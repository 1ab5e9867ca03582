"""YAML reader: node spans from ruamel's events, anchors/aliases/merge keys, multi-document streams."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from cuda2rocm.source.formats.yamlnodes import read_yaml

from ._strategies import line_count, mutated

SEED = ("base: &b\n  image: nvidia/cuda:12.1 # c\n  n: 0x10\njob:\n  <<: *b\n  tags: [gpu, 'x']\n  run: |\n"
        "    nvidia-smi\n---\nkind: Pod\nspec: {a: 1.5, b: ~, c: true}\nlist:\n- a\n- {k: v}\n")


def _check(text: str) -> None:
    s = read_yaml(text)
    for node in s.nodes():
        assert 0 <= node.offset <= node.end <= len(text)
        written = text[node.offset : node.end]
        single_line = not any(c in written for c in "\r\n\x85\u2028\u2029")  # YAML's line breaks fold
        if node.kind == "scalar" and node.style == "" and node.value and single_line:
            # a node's span starts at its properties (``&anchor``, ``!tag``) when it has any
            assert written == node.value or (written[:1] in "&!" and written.endswith(node.value))
        if node.kind == "alias":
            assert text[node.offset : node.end] == "*" + node.value
    assert all(0 <= p.line <= line_count(text) for p in s.problems)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_spans_mutated(text: str) -> None:
    _check(text)


_SCALAR = st.one_of(st.integers(-1000, 1000), st.booleans(), st.none(), st.text("abc xyz-#", max_size=8),
                    st.floats(allow_nan=False, allow_infinity=False, width=32))
_DATA = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text("abcdef", min_size=1, max_size=5),
                                                                      inner, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DATA, st.booleans())
def test_to_python_matches_the_safe_loader(data: object, flow: bool) -> None:
    import io

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    buf = io.StringIO()
    yaml.dump(data, buf)
    text = buf.getvalue()
    try:
        expected = YAML(typ="safe", pure=True).load(text)
    except YAMLError:  # ruamel's dumper writes a few flow forms its own parsers disagree on ([[: a]])
        return
    (doc,) = read_yaml(text).documents
    assert doc.to_python() == expected
    _check(text)


def test_structure_anchors_merge_and_documents() -> None:
    s = read_yaml(SEED)
    assert len(s.documents) == 2 and not s.problems
    first, second = s.documents
    image = first.get("base").get("image")  # type: ignore[union-attr]
    assert SEED[image.offset : image.end] == "nvidia/cuda:12.1" and (image.line, image.col) == (2, 10)  # type: ignore[union-attr]
    job = first.get("job")
    merge_key, alias = job.pairs[0]  # type: ignore[union-attr]
    assert (merge_key.value, alias.kind, alias.target) == ("<<", "alias", first.get("base"))
    assert SEED[alias.offset : alias.end] == "*b"
    assert first.to_python()["job"] == {"tags": ["gpu", "x"], "run": "nvidia-smi\n", "image": "nvidia/cuda:12.1",
                                        "n": 16}
    spec = second.get("spec")
    assert SEED[spec.offset : spec.end] == "{a: 1.5, b: ~, c: true}"  # type: ignore[union-attr]
    items = second.get("list")
    assert SEED[items.offset : items.end] == "- a\n- {k: v}"  # type: ignore[union-attr]


def test_malformed_keeps_earlier_documents() -> None:
    s = read_yaml("a: 1\n---\nspec: [a, b\n  c: d\n")
    assert [p.line for p in s.problems] == [4] and len(s.documents) == 1
