from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuda2rocm.source.tokens import (
    HEADER,
    IDENT,
    TokenizeError,
    check,
    tokenize,
    untokenize,
)

SAMPLES = [
    "",
    "int x;\r\nint y;\r\n",
    '// cudaMalloc\n/* cudaFree */ cudaMalloc(&p, 4); const char* s = "cudaMalloc";\n',
    '#define CHECK(x) do { \\\n  cudaError_t e = (x); } while (0)\n',
    'auto r = R"delim(cudaMalloc "quoted" )delim";\nauto u = u8"x"; char c = \'\\\'\';\n',
    "k<<<grid, block, 0, stream>>>(a, b);\nFoo<Bar<Baz<int>>> v;\n",
    "#include <cuda_runtime.h>\n#include \"local.cuh\"\n#  include   <thrust/device_vector.h>\n",
    "float f = 1.0e-5f + 0x1fULL + 1'000'000 + .5;\n",
    "\x00\x01 junk @ ` \u00e9\n",
    "/* unterminated",
    '"unterminated\nnext line',
]


@pytest.mark.parametrize("text", SAMPLES)
def test_round_trip(text: str) -> None:
    assert untokenize(tokenize(text)) == text


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_round_trip_any_text(text: str) -> None:
    assert untokenize(tokenize(text)) == text


def test_comments_and_strings_are_single_tokens() -> None:
    toks = tokenize(SAMPLES[2])
    idents = [t.src for t in toks if t.kind == IDENT]
    assert idents.count("cudaMalloc") == 1
    assert idents.count("cudaFree") == 0


def test_include_operand_is_header_token() -> None:
    toks = tokenize(SAMPLES[6])
    headers = [t.src for t in toks if t.kind == HEADER]
    assert headers == ["<cuda_runtime.h>", "<thrust/device_vector.h>"]
    assert all(t.pp for t in toks if t.kind == HEADER)


def test_directive_spans_continuation_lines() -> None:
    toks = tokenize(SAMPLES[3])
    ident = next(t for t in toks if t.src == "cudaError_t")
    assert ident.pp
    after = tokenize(SAMPLES[3] + "int z;\n")
    assert not next(t for t in after if t.src == "z").pp


def test_launch_opener_is_one_token_and_templates_are_not() -> None:
    toks = [t.src for t in tokenize(SAMPLES[5]) if t.kind == "PUNCT"]
    assert "<<<" in toks
    assert toks.count("<<<") == 1


@pytest.mark.parametrize(("text", "line"), [("int a;\n/* open", 2), ('x;\n\ny = "abc\n', 3)])
def test_check_reports_unterminated(text: str, line: int) -> None:
    with pytest.raises(TokenizeError) as info:
        check(tokenize(text), text)
    assert info.value.line == line


@pytest.mark.parametrize("quote", ['"', "'"])
def test_unterminated_literal_with_long_tail_is_one_bad_string(quote: str) -> None:
    # a nested-quantifier pattern backtracks exponentially here (it used to hang on prose like "target's")
    text = f"x = {quote}" + "abc def " * 200 + "\nint y;\n"
    toks = tokenize(text)
    assert untokenize(toks) == text
    bad = [t for t in toks if t.kind == "BAD_STRING"]
    assert len(bad) == 1 and bad[0].src.startswith(quote) and "\n" not in bad[0].src
    assert any(t.src == "y" for t in toks)


def test_prev_and_next_code_treat_directives_as_their_own_streams():
    from cuda2rocm.source.declared import defined_names, is_defined
    from cuda2rocm.source.tokens import next_code, prev_code

    text = "int a;\n#ifdef DEBUG // c\n  #define X 1\n#endif\n  cudaFree(d);\n"
    toks = tokenize(text)
    at: dict[str, int] = {}
    for k, t in enumerate(toks):
        at.setdefault(t.src, k)
    assert toks[prev_code(toks, at["cudaFree"])].src == ";"  # not 'endif': the directive is skipped
    assert toks[next_code(toks, at[";"])].src == "cudaFree"
    assert toks[prev_code(toks, at["DEBUG"])].src == "ifdef"  # inside a directive: its own tokens
    assert next_code(toks, at["DEBUG"]) == len(toks) and prev_code(toks, at["#"]) == -1
    assert toks[prev_code(toks, at["X"])].src == "define"
    assert "cudaFree" not in defined_names(toks) and not is_defined(toks, "cudaFree")
    assert "X" in defined_names(toks) and is_defined(toks, "X")


@pytest.mark.parametrize(("text", "lines"), [
    ("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("a\r\nb\r\n", 2), ("a\rb\r", 2), ("a\rb", 2), ("\r\n\r\n", 2),
    ("a\r\n\rb", 3), ("\n\n\n", 3),
])
def test_count_lines_counts_every_line_end_a_reader_does(text: str, lines: int) -> None:
    from cuda2rocm.source.tokens import LineIndex, count_lines

    assert count_lines(text) == lines
    if text and not text.endswith(("\n", "\r")):  # the line index agrees (it counts a last, empty line too)
        assert LineIndex(text).line_count == lines


def test_scan_and_convert_count_lines_ended_by_a_lone_carriage_return(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan
    from cuda2rocm.translate.engine import translate_text
    from cuda2rocm.translate.options import Options

    text = "__global__ void k() {}\rint x;\rint y;\r"  # old Mac line ends: three lines (found by fuzzing: 0 or 1)
    (tmp_path / "k.cu").write_bytes(text.encode())
    assert scan(tmp_path).files[0].lines == 3
    assert translate_text(text, "k.cu", Options()).stats.lines == 3
