"""C2R-A106 (a CUDA-looking name the tables do not know) is not reported for the project's own names."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.translate.api import convert, convert_source
from cuda2rocm.translate.options import Options

CHECK_MACRO = "#define CUDA_CHECK(call) do { cudaError_t e = (call); (void)e; } while (0)\n"
USER = 'void f(float** p) {\n  CUDA_CHECK(cudaMalloc(p, 4));\n  cudaFooBar();\n}\n'


def _a106(report_findings: list) -> list[tuple[str, int, str]]:  # type: ignore[type-arg]
    return sorted((f.path, f.line, f.message.split()[0]) for f in report_findings if f.rule == "C2R-A106")


def test_macro_from_a_local_header_is_the_projects(tmp_path: Path) -> None:
    (tmp_path / "common.cuh").write_text(CHECK_MACRO)
    (tmp_path / "a.cu").write_text('#include "common.cuh"\n' + USER)
    report = convert(tmp_path / "a.cu", tmp_path / "out", Options())
    assert _a106(report.findings) == [("a.cu", 4, "cudaFooBar")]  # the unknown API is still reported


def test_headers_are_followed_transitively_and_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "include").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "check.h").write_text(CHECK_MACRO)
    (tmp_path / "src" / "util.cuh").write_text('#pragma once\n#include "../include/check.h"\n')
    (tmp_path / "src" / "a.cu").write_text('#include "util.cuh"\n' + USER)
    report = convert(tmp_path / "src", tmp_path / "out", Options())
    assert [name for _, _, name in _a106(report.findings)] == ["cudaFooBar"]


def test_include_cycles_and_missing_or_binary_headers_are_harmless(tmp_path: Path) -> None:
    (tmp_path / "x.cuh").write_text('#include "y.cuh"\n')
    (tmp_path / "y.cuh").write_text('#include "x.cuh"\n#include "missing.h"\n#include "blob.h"\n')
    (tmp_path / "blob.h").write_bytes(b"\x00\xff\xfe binary")
    (tmp_path / "a.cu").write_text('#include "x.cuh"\n' + USER)
    report = convert(tmp_path / "a.cu", tmp_path / "out", Options())
    names = [name for _, _, name in _a106(report.findings)]
    assert names == ["CUDA_CHECK", "cudaFooBar"]  # nothing defines CUDA_CHECK here


def test_angle_bracket_includes_are_not_the_projects(tmp_path: Path) -> None:
    (tmp_path / "common.cuh").write_text(CHECK_MACRO)
    (tmp_path / "a.cu").write_text("#include <common.cuh>\n" + USER)
    report = convert(tmp_path / "a.cu", tmp_path / "out", Options())
    assert [name for _, _, name in _a106(report.findings)] == ["CUDA_CHECK", "cudaFooBar"]


def test_text_without_a_file_reports_what_it_cannot_resolve() -> None:
    result = convert_source('#include "common.cuh"\n' + USER, "a.cu")
    assert sorted(f.message.split()[0] for f in result.findings if f.rule == "C2R-A106") == \
        ["CUDA_CHECK", "cudaFooBar"]
