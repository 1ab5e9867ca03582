"""requirements reader: requirement lines with name/extras/specifier/marker/URL/hash spans, options."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats.requirements import read_requirements

from ._strategies import line_count, mutated

SEED = ("# top\n--extra-index-url https://download.pytorch.org/whl/cu121\n-r base.txt\n"
        "torch==2.1.0+cu121 ; python_version >= \"3.8\" \\\n    --hash=sha256:abc --hash=sha256:def  # pinned\n"
        "flash-attn[x,y] @ https://x/flash_attn-2.5-cp311.whl ; sys_platform == \"linux\"\n"
        "-e git+https://github.com/a/b.git#egg=b\n./local/pkg\nnumpy>=1.2,<2\n")
FRAGMENTS = ["torch", "==", "2.1", "+cu121", "[", "]", "cuda", ",", ";", " ", "\n", "\\\n", "#", " #", "@",
             "https://x/y.whl", "--hash=sha256:ab", "-r", "-e", "--index-url", "=", "python_version", ">=", "'3.8'"]


def _check(text: str) -> None:
    f = read_requirements(text)
    for ln in f.lines:
        for p in (ln.code, ln.comment, ln.spec, ln.name, ln.extras, ln.specifier, ln.url, ln.marker,
                  *(o.name for o in ln.options), *(o.value for o in ln.options)):
            if p is not None:
                assert text[p.offset : p.end] == p.src
        assert ln.line <= ln.last_line
    for c in f.comments:
        assert text[c.offset : c.end] == c.src
    # nothing is lost: every character is code, comment or whitespace/continuation
    covered = {i for ln in f.lines for i in range(ln.code.offset, ln.code.end)} | \
        {i for c in f.comments for i in range(c.offset, c.end)}
    assert all(text[i] in " \t\r\n\\" for i in range(len(text)) if i not in covered)
    assert all(1 <= p.line <= line_count(text) for p in f.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join))
def test_round_trip_generated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_round_trip_mutated(text: str) -> None:
    _check(text)


def test_structure() -> None:
    f = read_requirements(SEED)
    kinds = [(ln.kind, ln.line, ln.last_line) for ln in f.lines]
    assert kinds == [("option", 2, 2), ("option", 3, 3), ("requirement", 4, 5), ("requirement", 6, 6),
                     ("requirement", 7, 7), ("requirement", 8, 8), ("requirement", 9, 9)]
    index, include, torch, flash, editable, local, numpy = f.lines
    assert index.option("--extra-index-url").value.src == "https://download.pytorch.org/whl/cu121"  # type: ignore[union-attr]
    assert include.option("-r").value.src == "base.txt"  # type: ignore[union-attr]
    assert (torch.name.src, torch.specifier.src, torch.marker.src) == (  # type: ignore[union-attr]
        "torch", "==2.1.0+cu121", 'python_version >= "3.8"')
    assert torch.hashes == ("sha256:abc", "sha256:def") and torch.comment.src == "# pinned"  # type: ignore[union-attr]
    assert torch.requirement is not None and str(torch.requirement.specifier) == "==2.1.0+cu121"
    assert (flash.extras.src, flash.url.src) == ("[x,y]", "https://x/flash_attn-2.5-cp311.whl")  # type: ignore[union-attr]
    assert flash.requirement is not None and flash.requirement.extras == {"x", "y"}
    assert editable.editable and editable.url.src.startswith("git+https://")  # type: ignore[union-attr]
    assert local.url is not None and local.name is None
    assert numpy.requirement is not None and not f.problems


def test_malformed_requirement_is_a_problem() -> None:
    f = read_requirements("ok==1\nbad==\n")
    assert [p.line for p in f.problems] == [2] and f.lines[1].requirement is None
    nul = read_requirements('torch==2.1 ; python_version >= "\x003.8"\n')  # packaging raises SyntaxError on it
    assert [p.line for p in nul.problems] == [1] and nul.lines[0].name is not None
