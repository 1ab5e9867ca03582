"""The C-tokenizer fast path for Python files yields exactly the logical lines of the ``tokenize`` path.

Where the two could differ (non-ASCII text, lone CRs, input the C tokenizer rejects or stops on) the fast path
must decline (return None), and the ``tokenize`` path then reports what it always did.
"""

from __future__ import annotations

import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.scan.analyzers import python as pyscan
from cuda2rocm.scan.filefacts import FileFacts

ROOT = Path(__file__).resolve().parents[2]
needs_c_tokenizer = pytest.mark.skipif(pyscan._C_TOKENS is None, reason="tokenize already uses the C tokenizer")

Shape = list[list[tuple[int, str, tuple[int, int], tuple[int, int]]]]


def _shape(lines: list[pyscan.Line]) -> Shape:
    """What the rules read of each token: STRING or not (ERRORTOKEN counts as OP), text, start and end."""
    def kind(t: tokenize.TokenInfo) -> int:
        return tokenize.OP if t.type == tokenize.ERRORTOKEN else t.type
    return [[(kind(t), t.string, t.start, t.end) for t in line.tokens] for line in lines]


def _slow(text: str) -> tuple[Shape, list[str]]:
    report = FileFacts("x.py", "python")
    lines = list(pyscan._stdlib_logical_lines(report, text))
    return _shape(lines), [p.message for p in report.problems]


def _check(text: str) -> bool:
    """Assert the fast path equals the slow one or declines; True when it did not decline."""
    fast = pyscan._c_logical_lines(text)
    if fast is None:
        return False
    slow, problems = _slow(text)
    assert problems == [], f"fast path accepted input tokenize rejects: {problems}"
    assert _shape(fast) == slow
    return True


def _python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True,
                            check=False).stdout.split()
    return sorted(ROOT / p for p in listed if (ROOT / p).is_file())


@needs_c_tokenizer
def test_fast_path_equals_tokenize_on_every_python_file_in_the_repository() -> None:
    files = _python_files()
    assert len(files) > 100
    taken = sum(_check(p.read_text(encoding="utf-8")) for p in files)
    assert taken >= 0.9 * sum(p.read_text(encoding="utf-8").isascii() for p in files)


@needs_c_tokenizer
def test_fast_path_equals_tokenize_on_the_standard_library_sample() -> None:
    stdlib = Path(tokenize.__file__).parent
    files = sorted(stdlib.rglob("*.py"))[::50]  # ~350 of the standard library's (and site-packages') files
    texts = []
    for p in files:
        try:
            texts.append(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    assert sum(_check(t) for t in texts) >= len(texts) // 2


EDGE_CASES = [
    "x = (1,\n",  # EOF inside brackets: tokenize raises, the C tokenizer stops silently
    "x = [\n# c\n",
    "s = '''abc\n",  # unterminated triple-quoted string
    "if x:\n    a\n  b\n",  # dedent to no enclosing level
    "if x:\n\ta\n        b\n",  # inconsistent tabs
    "if x:\n  if y:\n    a\n b\n",
    "x = 1 \\\n",  # continuation at EOF
    "x = 1 \\",
    "a\x00b\n",  # NUL
    "x = 'abc\n",  # unterminated string
    "$x\n", "x = `a`\n",  # ERRORTOKENs
    "x = 1\n\x0c\ny\n",  # form feed
    "x=1\r\ny=2\r\n", "x=1\ry=2\r", "'''\r\n'''",  # CRLF, lone CR, CRLF inside a string
    "", "\n\n", "# only a comment", "def f():\n  return\n#c", "x = 1 if y else 2",
    "0777\n", "0777else", "x = 1if y else 2\n", "a = 1e\n", "1_000\n", "x = f'{a!r:>{w}}'\n", "x = 'é'\n",
    "import torch\nx = torch.cuda.get_device_capability()\nif x >= (8, 0):\n    pass\n",
    "async def f():\n    await x\n    async with a as b:\n        pass\n", "async = 1\nawait = 2\n",
]


@needs_c_tokenizer
@pytest.mark.parametrize("text", EDGE_CASES)
def test_fast_path_equals_tokenize_or_declines_on_edge_cases(text: str) -> None:
    _check(text)


def test_declines_where_columns_or_line_ends_would_differ() -> None:
    assert pyscan._c_logical_lines("x = 'é'\n") is None
    assert pyscan._c_logical_lines("x=1\ry=2\r") is None
    assert pyscan._c_logical_lines("s = '''a\r\nb'''\r\n") is None
    assert pyscan._c_logical_lines("x = (1,\n") is None
    assert pyscan._c_logical_lines("if x:\n    a\n  b\n") is None


@needs_c_tokenizer
def test_fast_path_is_taken_for_ordinary_code() -> None:
    assert _check("import torch\n\n\ndef f(x):\n    return x.cuda()  # move\n")


FRAGMENTS = st.sampled_from([
    "x", "torch", ".", "cuda", "(", ")", "[", "]", "{", "}", ",", ":", "=", "==", " ", "  ", "\t", "\n", "\r\n",
    "\r", "\\\n", "\\", "#", "# c\n", "'", '"', "'''", '"""', "f'", "b'", "r'", "1", "0x1f", "1.5e3", "0777",
    "if ", "else", "def ", "class ", "import ", "from ", "as ", "lambda", "@", "->", "$", "`", "\x0c", "é", "\x00",
    "    ", "pass", "return", "async ", "await ", "get_device_capability", "'str'", '"s"', "'''doc'''",
])


@needs_c_tokenizer
@settings(max_examples=600, deadline=None)
@given(st.lists(FRAGMENTS, max_size=40).map("".join))
def test_fast_path_equals_tokenize_or_declines_on_generated_text(text: str) -> None:
    _check(text)


def test_scan_python_reports_the_same_problem_on_the_slow_path() -> None:
    report = FileFacts("bad.py", "python")
    pyscan.scan_python(report, "import torch\nx = torch.cuda.get_device_capability(\n")
    assert [p.extra["rule"] for p in report.problems] == ["C2R-E105"]
    assert "tokenizer stopped at line 3" in report.problems[0].message
    assert report.problems[0].line == 3


def test_uses_tokenize_itself_on_312_and_later() -> None:
    assert (pyscan._C_TOKENS is None) == (sys.version_info >= (3, 12))


def test_syntax_warnings_of_scanned_files_do_not_reach_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    report = FileFacts("w.py", "python")
    pyscan.scan_python(report, "import torch\nx = 1if torch.cuda.is_available() else 0\n")
    assert "SyntaxWarning" not in capfd.readouterr().err
