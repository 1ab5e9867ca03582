""".bazelrc reader: logical lines (continuations), command:config, quoted words, comments, imports."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats._base import joined
from cuda2rocm.source.formats.bazelrc import read_bazelrc

from ._strategies import line_count, mutated

SEED = ("# CUDA builds\nbuild --flag_alias=cuda_archs=@rules_cuda//cuda:archs\n"
        "build:cuda --@rules_cuda//cuda:enable --@rules_cuda//cuda:archs=sm_80 \\\n"
        "    --action_env=CUDA_TOOLKIT_PATH=/usr/local/cuda  # the toolkit\n"
        "build:cuda --copt='-DX=a b' --repo_env \"TF_CUDA_VERSION=12\"\r\n"
        "test:cuda --test_env=K=\\\"v\\\"\ntry-import %workspace%/user.bazelrc\n")
FRAGMENTS = ["build", ":cuda", " ", "\t", "\n", "\r\n", "\\\n", "\\", "'", '"', "#", " #", "--config=cuda",
             "--action_env=K=V", "import", "try-import", "x", "=", "a#b"]


def _check(text: str) -> None:
    f = read_bazelrc(text)
    assert joined(f.tokens) == text
    for ln in f.lines:
        assert ln.words and ln.line <= ln.last_line
        for w in ln.words:
            assert text[w.offset : w.end] == w.src
        assert text[ln.offset : ln.end].startswith(ln.words[0].src)
    for c in f.comments:
        assert text[c.offset : c.end] == c.src and c.src.startswith("#")
    assert all(1 <= p.line <= line_count(text) for p in f.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_round_trip_generated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_round_trip_mutated(text: str) -> None:
    _check(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60))
def test_round_trip_any_text(text: str) -> None:
    _check(text)


def test_structure() -> None:
    f = read_bazelrc(SEED)
    assert not f.problems
    assert [(ln.kind, ln.command, ln.config, ln.line, ln.last_line) for ln in f.lines] == [
        ("options", "build", "", 2, 2), ("options", "build", "cuda", 3, 4), ("options", "build", "cuda", 5, 5),
        ("options", "test", "cuda", 6, 6), ("import", "try-import", "", 7, 7)]
    _, enable, copt, test, imp = f.lines
    assert [w.value for w in enable.options] == ["--@rules_cuda//cuda:enable", "--@rules_cuda//cuda:archs=sm_80",
                                                 "--action_env=CUDA_TOOLKIT_PATH=/usr/local/cuda"]
    assert enable.comment is not None and enable.comment.src == "# the toolkit"
    assert [w.value for w in copt.options] == ["--copt=-DX=a b", "--repo_env", "TF_CUDA_VERSION=12"]
    assert copt.options[0].src == "--copt='-DX=a b'"
    assert test.options[0].value == '--test_env=K="v"'
    assert imp.words[1].value == "%workspace%/user.bazelrc"
    assert [ln.line for ln in f.configs("cuda")] == [3, 5, 6]
    assert [c.src for c in f.comments] == ["# CUDA builds", "# the toolkit"]


def test_continuation_inside_a_word_joins_it() -> None:
    f = read_bazelrc("build --co\\\npt=-O3\n")
    assert [w.value for w in f.lines[0].words] == ["build", "--copt=-O3"]
    assert f.lines[0].last_line == 2


def test_hash_inside_a_word_is_not_a_comment() -> None:
    f = read_bazelrc("build --define=a#b  # c\n")
    assert [w.value for w in f.lines[0].words] == ["build", "--define=a#b"] and len(f.comments) == 1


def test_unterminated_quote_is_a_problem_with_its_line() -> None:
    f = read_bazelrc("build --copt=-O2\nbuild:cuda --copt='-DX\nbuild --copt=-g\n")
    assert [p.line for p in f.problems] == [2]
    assert [ln.line for ln in f.lines] == [1, 2, 3]  # the next line is still read
