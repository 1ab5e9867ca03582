"""Build files: CMake and Makefiles through their readers (:mod:`cuda2rocm.source.formats`), Bazel/Starlark
through Python's tokenizer (Starlark is Python-shaped). Nothing is evaluated: checks look at one command's
arguments, one word or one string literal at a time."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator, Sequence

from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.filefacts import Bad, Fact, Hit, Record, Tag
from cuda2rocm.source.formats._base import Piece
from cuda2rocm.source.formats.cmake import Argument, Command, read_cmake
from cuda2rocm.source.formats.make import read_make
from cuda2rocm.source.tokens import LineIndex

ARCH_FLAG = re.compile(r"(?:-arch[= ]|--gpu-architecture[= ]|-gencode[= ]|arch=)(?:sm|compute)_\d+a?")
_SPLIT_ARCH = ("-arch", "--gpu-architecture", "-gencode")
_ARCH_VALUE = re.compile(r"(?:sm|compute)_\d+a?")
_FIND_CUDA = re.compile(r"(CUDAToolkit|CUDA)\b\s*(\d+(?:\.\d+)*)?", re.IGNORECASE)
_ARCH_VAR = re.compile(r"\b(CMAKE_CUDA_ARCHITECTURES|CUDA_ARCHITECTURES|\w*CUDA_\w*ARCHS?|\w*CUDA_ARCH_LIST)\b")
#: CUDA toolkit libraries linked by name (``-lcublas``, ``target_link_libraries(x cublas nccl)``)
_CUDA_LIBS = ("cudart", "cuda", "cublas", "cublasLt", "cudnn", "cufft", "curand", "cusparse", "cusolver", "nccl",
              "nvrtc", "nvToolsExt", "nvjpeg", "nvidia-ml", "cupti", "nvinfer")
_LINK_FLAG = re.compile(r"(?<![\w-])-l(" + "|".join(sorted(map(re.escape, _CUDA_LIBS), key=len, reverse=True)) +
                        r")(?![\w-])")
_LINK_NAME = re.compile(r"(?<![\w:/.-])(" + "|".join(sorted(map(re.escape, _CUDA_LIBS), key=len, reverse=True)) +
                        r")(?![\w:/.-])")
_NVCC = re.compile(r"\bnvcc\b")
_BAZEL_RULES = frozenset({"cuda_library", "cuda_binary"})
_BAZEL_REPO = re.compile(r"@local_config_cuda|@rules_cuda")


def arch_flag(words: Sequence[str]) -> tuple[int, int, str] | None:
    """The first nvcc architecture flag in ``words``: (word index, offset in that word, flag text); the split
    spelling ``-arch sm_80`` is one flag over two words."""
    for i, word in enumerate(words):
        m = ARCH_FLAG.search(word)
        if m:
            return i, m.start(), m.group(0)
        if word in _SPLIT_ARCH and i + 1 < len(words) and (v := _ARCH_VALUE.match(words[i + 1])):
            return i, 0, f"{word} {v.group(0)}"
    return None


# -- CMake ------------------------------------------------------------------------------------------------------

def scan_cmake(text: str) -> Iterator[Record]:
    listfile = read_cmake(text)
    for problem in listfile.problems:
        yield Bad(rules.E105, problem.message, problem.line)
    for command in listfile.commands:
        if command.close >= 0:
            yield from _cmake_command(command)


def _argument_text(arg: Argument) -> str:
    """What the checks read of one argument: a quoted value may hold an architecture list (``"70;80"``), but
    its words that look like CMake variables (a message's prose) are blanked."""
    if arg.kind != "quoted":
        return arg.src
    return re.sub(r"[A-Z][A-Z0-9_]{3,}", lambda m: " " * len(m.group(0)), arg.src)


def _cmake_command(command: Command) -> Iterator[Record]:
    name, line, col = command.lower, command.line, command.col
    texts = [_argument_text(a) for a in command.arguments if a.kind != "paren"]
    yield from rocm_path.cmake(name, texts, line, col)
    joined = " ".join(texts)
    if name == "find_package":
        m = _FIND_CUDA.match(" ".join(texts[:2]))
        if m:
            version = m.group(2) or ""
            yield Fact("cuda", "CUDA", version, line, f"find_package({joined[:60]})")
            yield Hit(rules.S101, line, col, f"find_package({' '.join(filter(None, (m.group(1), version)))}) "
                       "requires the CUDA toolkit")
    elif name in ("project", "enable_language") and any(re.search(r"\bCUDA\b", t) for t in texts):
        yield Hit(rules.S111, line, col, f"{name}(... CUDA) enables the CMake CUDA language (nvcc)")
    elif any("CUDA::" in t for t in texts):
        libs = sorted({lib for t in texts for lib in re.findall(r"CUDA::(\w+)", t)})
        yield Hit(rules.S111, line, col, f"links CUDA toolkit targets {', '.join('CUDA::' + x for x in libs)}")
    elif name == "target_link_libraries" and (plain := sorted({x for t in texts for x in _LINK_NAME.findall(t)})):
        yield Hit(rules.S111, line, col, f"links CUDA libraries {', '.join(plain)}")
    var = next((m for t in texts if (m := _ARCH_VAR.search(t))), None)
    flag = arch_flag(texts)
    if var:
        yield Hit(rules.S110, line, col, f"{var.group(1)} pins NVIDIA architectures ({' '.join(joined.split())[:60]})")
    elif flag:
        yield Hit(rules.S110, line, col, f"nvcc architecture flag {flag[2]}")


# -- Makefiles --------------------------------------------------------------------------------------------------

def scan_make(text: str) -> Iterator[Record]:
    makefile = read_make(text)
    index = LineIndex(text)
    for ln in makefile.lines:
        words = list(ln.words)
        if ln.kind == "recipe":
            cut = next((k for k, w in enumerate(words) if w.src.startswith("#")), len(words))
            words = words[:cut]
        for line, on_line in _by_line(words, index):
            yield from _make_words(on_line, line, index)
        if ln.command is not None and ln.command.src.strip():
            yield from shell.scan_text(ln.command.src, index.line(ln.command.offset))


def _by_line(words: Sequence[Piece], index: LineIndex) -> Iterator[tuple[int, list[Piece]]]:
    """Words grouped by their physical line."""
    group: list[Piece] = []
    line = 0
    for w in words:
        wl = index.line(w.offset)
        if group and wl != line:
            yield line, group
            group = []
        line = wl
        group.append(w)
    if group:
        yield line, group


def _make_words(words: list[Piece], line: int, index: LineIndex) -> Iterator[Record]:
    srcs = [w.src for w in words]
    flag = arch_flag(srcs)
    if flag:
        yield Hit(rules.S110, line, index.line_col(words[flag[0]].offset + flag[1])[1],
                   f"nvcc architecture flag {flag[2]}")
    if any(_NVCC.search(s) for s in srcs):
        yield Tag("nvcc")
    yield from rocm_path.command(" ".join(srcs), line)
    libs = [(w, m) for w in words for m in _LINK_FLAG.finditer(w.src)]
    if libs:
        first, m = libs[0]
        yield Hit(rules.S111, line, index.line_col(first.offset + m.start())[1],
                   f"links CUDA libraries {', '.join('-l' + x for x in dict.fromkeys(m.group(1) for _, m in libs))}")


# -- Bazel ------------------------------------------------------------------------------------------------------

def scan_bazel(text: str) -> Iterator[Record]:
    """BUILD/WORKSPACE/.bzl files: rules_cuda rules called by name, CUDA repositories and nvcc flags in string
    literals (one finding of each kind per line)."""
    rule_lines: set[int] = set()
    flag_lines: set[int] = set()
    toks = list(_starlark_tokens(text))
    for k, (kind, value, line, col) in enumerate(toks):
        if kind == tokenize.NAME and value in _BAZEL_RULES and k + 1 < len(toks) and toks[k + 1][1] == "(" \
                and line not in rule_lines:
            rule_lines.add(line)
            yield Hit(rules.S111, line, col, f"Bazel CUDA rule {value}")
        elif kind == tokenize.STRING:
            repo = _BAZEL_REPO.search(value)
            if repo and line not in rule_lines:
                rule_lines.add(line)
                yield Hit(rules.S111, line, col + repo.start(), f"Bazel CUDA rule {repo.group(0)}")
            flag = ARCH_FLAG.search(value)
            if flag and line not in flag_lines:
                flag_lines.add(line)
                yield Hit(rules.S110, line, col + flag.start(), f"nvcc architecture flag {flag.group(0)}")


def _starlark_tokens(text: str) -> Iterator[tuple[int, str, int, int]]:
    """(token type, text, 1-based line, 1-based col) of NAME, OP and STRING tokens; after a tokenizer error
    the rest is read from the next line on, so one bad line does not hide the file."""
    lines = text.splitlines(keepends=True)
    first = 0
    while first < len(lines):
        gen = tokenize.generate_tokens(io.StringIO("".join(lines[first:])).readline)
        try:
            for tok in gen:
                if tok.type in (tokenize.NAME, tokenize.OP, tokenize.STRING):
                    yield tok.type, tok.string, tok.start[0] + first, tok.start[1] + 1
            return
        except (tokenize.TokenError, SyntaxError) as exc:
            bad = getattr(exc, "lineno", None) or (exc.args[1][0] if len(exc.args) > 1 else 1)
            first += max(1, int(bad))
