"""Shell reader: logical lines with the offsets of each word in the original text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.formats._base import joined
from cuda2rocm.source.formats.shell import read_shell

from ._strategies import line_count, mutated

FRAGMENTS = ["echo", " ", "\t", "\n", "\\\n", "'", '"', "$'", "\\", "$(", ")", "${X}", "`", "#", ";", "&&", "||",
             "|", "&", ">", "2>&1", "<<EOF", "<<-'T'", "EOF", "\tT", "NCCL_DEBUG=INFO", "export", "a#b", "x"]
SEED = ("#!/bin/bash\nexport NCCL_DEBUG=INFO  # c\ntorchrun --nnodes=2 \\\n  --nproc_per_node=8 \"a b\" $'x\\'y' "
        "\"$(echo \"$(date)\")\" train.py && echo ok; cat <<-EOF > f\n\tbody\n\tEOF\necho 'multi\nline' a#b\n")


def _check(text: str) -> None:
    s = read_shell(text)
    assert joined(s.tokens) == text
    for ln in s.lines:
        for w in ln.words:
            assert text[w.offset : w.end] == w.src
        assert ln.line <= ln.last_line
    assert all(1 <= p.line <= line_count(text) for p in s.problems)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_round_trip_generated(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEED))
def test_round_trip_mutated(text: str) -> None:
    _check(text)


def test_words_keep_original_offsets_across_continuations() -> None:
    s = read_shell(SEED)
    assert [ln.line for ln in s.lines] == [1, 2, 3, 7]
    launch = s.lines[2]
    assert (launch.line, launch.last_line) == (3, 4)
    words = {w.value: w for w in launch.words}
    nproc = words["--nproc_per_node=8"]
    assert SEED.count("\n", 0, nproc.offset) + 1 == 4  # the word's own physical line
    assert words["a b"].src == '"a b"' and "x\\'y" in words
    assert words['$(echo "$(date)")'].src == '"$(echo "$(date)")"'
    assert [w.src for c in launch.commands() for w in c[:1]] == ["torchrun", "echo", "cat"]
    assert launch.heredocs[0].src == "\tbody\n\tEOF"
    assert s.lines[3].words[1].value == "multi\nline" and s.lines[3].words[2].src == "a#b"
    assert s.lines[1].comment is not None and s.lines[1].comment.src == "# c"


def test_comment_does_not_continue_and_hash_in_quotes() -> None:
    s = read_shell("# a \\\necho \"# not\" '#' x#y # yes\n")
    assert [ln.line for ln in s.lines] == [1, 2]
    assert [w.src for w in s.lines[1].words] == ['echo', '"# not"', "'#'", "x#y"]


def test_malformed() -> None:
    assert read_shell('echo "open\n').problems[0].line == 1
    assert "unterminated single quote" in read_shell("echo 'x\n\n").problems[0].message
    assert "here-document" in read_shell("cat <<EOF\nbody\n").problems[0].message
    assert read_shell("echo $(open\n").problems
