"""Build files: CMake, Makefiles, Bazel. CMake is read command by command (never evaluated)."""

from __future__ import annotations

import re

from cuda2rocm.scan import rocm_path
from cuda2rocm.scan.analyzers import shell
from cuda2rocm.scan.filefacts import FileFacts

ARCH_FLAG = re.compile(r"(?:-arch[= ]|--gpu-architecture[= ]|-gencode[= ]|arch=)(?:sm|compute)_\d+a?")
_CMAKE_CMD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_FIND_CUDA = re.compile(r"^\s*(CUDAToolkit|CUDA)\b\s*(\d+(?:\.\d+)*)?", re.IGNORECASE)
_ARCH_VAR = re.compile(r"\b(CMAKE_CUDA_ARCHITECTURES|CUDA_ARCHITECTURES|\w*CUDA_\w*ARCHS?|\w*CUDA_ARCH_LIST)\b")
#: CUDA toolkit libraries linked by name (``-lcublas``, ``target_link_libraries(x cublas nccl)``)
_CUDA_LIBS = ("cudart", "cuda", "cublas", "cublasLt", "cudnn", "cufft", "curand", "cusparse", "cusolver", "nccl",
              "nvrtc", "nvToolsExt", "nvjpeg", "nvidia-ml", "cupti", "nvinfer")
_LINK_FLAG = re.compile(r"(?<![\w-])-l(" + "|".join(sorted(map(re.escape, _CUDA_LIBS), key=len, reverse=True)) +
                        r")(?![\w-])")
_LINK_NAME = re.compile(r"(?<![\w:/.-])(" + "|".join(sorted(map(re.escape, _CUDA_LIBS), key=len, reverse=True)) +
                        r")(?![\w:/.-])")


def scan_cmake(report: FileFacts, text: str) -> None:
    for name, args, line, col in cmake_commands(report, text):
        _cmake_command(report, name.lower(), args, line, col)


def cmake_commands(report: FileFacts, text: str) -> list[tuple[str, str, int, int]]:
    """(command, argument text with comments/strings blanked, line, col) for every command; unbalanced
    parentheses are reported."""
    out: list[tuple[str, str, int, int]] = []
    clean = _mask_cmake(text)
    pos = 0
    while True:
        m = _CMAKE_CMD.search(clean, pos)
        if not m:
            return out
        end = _close_paren(clean, m.end())
        line = clean.count("\n", 0, m.start()) + 1
        if end < 0:
            report.problem("C2R-E105", f"CMake command {m.group(1)}( opened at line {line} is never closed", line)
            return out
        col = m.start() - (clean.rfind("\n", 0, m.start()) + 1) + 1
        out.append((m.group(1), clean[m.end():end], line, col))
        pos = end + 1


def _mask_cmake(text: str) -> str:
    """Blank out comments and quoted strings (keeping offsets) so parentheses inside them do not count."""
    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0)) if m.group(0).startswith("#") else _keep_quotes(m.group(0))
    return re.sub(r'#\[\[.*?\]\]|#[^\n]*|"(?:[^"\\]|\\.)*"', blank, text, flags=re.DOTALL)


def _keep_quotes(s: str) -> str:
    """Quoted values may hold architecture lists (``"70;80"``); only their words that look like CMake
    variables are blanked, and parentheses never count."""
    return re.sub(r"[A-Z][A-Z0-9_]{3,}", lambda m: " " * len(m.group(0)), s).replace("(", " ").replace(")", " ")


def _close_paren(text: str, start: int) -> int:
    depth = 1
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _cmake_command(report: FileFacts, name: str, args: str, line: int, col: int) -> None:
    rocm_path.cmake(report, f"{name}({args})", line, col)
    if name == "find_package":
        m = _FIND_CUDA.match(args)
        if m:
            version = m.group(2) or ""
            report.component("cuda", "CUDA", version, line, f"find_package({args.strip()[:60]})")
            report.add("C2R-S101", line, col, f"find_package({' '.join(filter(None, (m.group(1), version)))}) "
                       "requires the CUDA toolkit")
    elif name in ("project", "enable_language") and re.search(r"\bCUDA\b", args):
        report.add("C2R-S111", line, col, f"{name}(... CUDA) enables the CMake CUDA language (nvcc)")
    elif "CUDA::" in args:
        libs = sorted(set(re.findall(r"CUDA::(\w+)", args)))
        report.add("C2R-S111", line, col, f"links CUDA toolkit targets {', '.join('CUDA::' + x for x in libs)}")
    elif name == "target_link_libraries" and (plain := sorted(set(_LINK_NAME.findall(args)))):
        report.add("C2R-S111", line, col, f"links CUDA libraries {', '.join(plain)}")
    _arch(report, args, line, col)


def _arch(report: FileFacts, text: str, line: int, col: int) -> None:
    m = _ARCH_VAR.search(text)
    flag = ARCH_FLAG.search(text)
    if m:
        report.add("C2R-S110", line, col, f"{m.group(1)} pins NVIDIA architectures ({' '.join(text.split())[:60]})")
    elif flag:
        report.add("C2R-S110", line, col, f"nvcc architecture flag {flag.group(0)}")


def scan_make(report: FileFacts, text: str) -> None:
    for i, raw in enumerate(text.splitlines(), start=1):
        code = raw.split("#", 1)[0]
        flag = ARCH_FLAG.search(code)
        if flag:
            report.add("C2R-S110", i, flag.start() + 1, f"nvcc architecture flag {flag.group(0)}")
        if re.search(r"\bnvcc\b", code):
            report.tags.add("nvcc")
        rocm_path.command(report, code, i)
        libs = _LINK_FLAG.findall(code)
        if libs:
            first = _LINK_FLAG.search(code)
            report.add("C2R-S111", i, (first.start() if first else 0) + 1,
                       f"links CUDA libraries {', '.join('-l' + x for x in dict.fromkeys(libs))}")
        if raw.startswith("\t"):
            shell.scan_line(report, raw, i)


def scan_bazel(report: FileFacts, text: str) -> None:
    for i, raw in enumerate(text.splitlines(), start=1):
        code = raw.split("#", 1)[0]
        m = re.search(r"\b(cuda_library|cuda_binary)\s*\(|@local_config_cuda|@rules_cuda", code)
        if m:
            report.add("C2R-S111", i, m.start() + 1, f"Bazel CUDA rule {m.group(0).rstrip('(').strip()}")
        flag = ARCH_FLAG.search(code)
        if flag:
            report.add("C2R-S110", i, flag.start() + 1, f"nvcc architecture flag {flag.group(0)}")
