"""Files and trees: bad input, atomic writes, backups, no clobbering, mirrored output, local headers, jobs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cuda2rocm.model import Failed, Translated
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.runner import WritePolicy

KERNEL = "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n" \
         "void go(float* d) { k<<<1, 32>>>(d); cudaDeviceSynchronize(); }\n"


def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "main.cu").write_text('#include "sub/util.cuh"\n' + KERNEL)
    (src / "sub" / "util.cuh").write_text("#pragma once\ninline void u(void* p) { cudaFree(p); }\n")
    (src / "notes.txt").write_text("cudaMalloc\n")
    return src


def test_tree_is_mirrored_with_renaming(tmp_path):
    report = convert(tree(tmp_path), tmp_path / "out")
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*")) == [
        "main.hip", "sub", "sub/util.cuh"]
    assert "hipFree" in (tmp_path / "out" / "sub" / "util.cuh").read_text()
    assert report.exit_code(Options().fail_on) == 0


def test_single_file_follows_local_headers(tmp_path):
    src = tree(tmp_path)
    report = convert([src / "main.cu"], tmp_path / "o" / "main.hip")
    assert {f.job.display for f in report.files} == {"main.cu", "sub/util.cuh"}
    assert (tmp_path / "o" / "sub" / "util.cuh").exists()


def test_existing_output_is_not_clobbered(tmp_path):
    src = tree(tmp_path)
    convert(src, tmp_path / "out")
    (tmp_path / "out" / "main.hip").write_text("mine")
    report = convert(src, tmp_path / "out")
    assert report.exit_code(Options().fail_on) == 2 and "exists" in report.failed[0].write_error
    assert (tmp_path / "out" / "main.hip").read_text() == "mine"
    convert(src, tmp_path / "out", policy=WritePolicy(force=True))
    assert "hipDeviceSynchronize" in (tmp_path / "out" / "main.hip").read_text()


def test_in_place_keeps_backup_and_mode(tmp_path):
    src = tree(tmp_path)
    main = src / "main.cu"
    os.chmod(main, 0o640)
    convert(src, None, in_place=True)
    assert "hipDeviceSynchronize" in main.read_text()
    assert (src / "main.cu.orig").read_text().startswith('#include "sub/util.cuh"')
    assert (main.stat().st_mode & 0o777) == 0o640
    main.write_text(KERNEL)
    assert convert(src, None, in_place=True).exit_code(Options().fail_on) == 2  # backup exists
    assert convert(src, None, in_place=True, policy=WritePolicy(backup=False)).exit_code(Options().fail_on) == 0


@pytest.mark.parametrize(("data", "message"), [
    (b"\x7fELF\x00\x00binary", "binary"),
    (b"int a;\n/* never closed cudaMalloc\n", "unterminated"),
])
def test_bad_input_fails_per_file_and_run_goes_on(tmp_path, data, message):
    src = tree(tmp_path)
    (src / "bad.cu").write_bytes(data)
    report = convert(src, tmp_path / "out")
    bad = next(f for f in report.files if f.job.display == "bad.cu")
    assert isinstance(bad.outcome.result, Failed) and message in bad.outcome.result.error
    assert (src / "bad.cu").read_bytes() == data
    assert not (tmp_path / "out" / "bad.hip").exists()
    assert (tmp_path / "out" / "main.hip").exists()
    assert report.exit_code(Options().fail_on) == 2


def test_invalid_utf8_is_no_longer_a_failure(tmp_path):
    """An invalid UTF-8 sequence in a comment (which convert refused, naming the line, before issue 16) is
    kept byte for byte; scan still names such bytes with their line (tests/scan/test_bad_input.py)."""
    (tmp_path / "a.cu").write_bytes(b"int a;\nint b;\n// \xc3\x28\n")
    (r,) = convert(tmp_path / "a.cu").results
    assert not isinstance(r, Failed)


def test_huge_file_is_refused_without_reading(tmp_path):
    big = tmp_path / "big.cu"
    with open(big, "wb") as f:
        f.truncate(100 * 2**20)  # 100 MiB, sparse
    (r,) = convert(big, options=Options(max_bytes=32 * 2**20)).results
    assert isinstance(r, Failed) and "too large" in r.error


def test_symlink_loop_does_not_hang(tmp_path):
    src = tree(tmp_path)
    (src / "sub" / "loop").symlink_to(src, target_is_directory=True)
    report = convert(src)
    assert len(report.files) == 2


def test_jobs_give_the_same_results(tmp_path):
    src = tmp_path / "many"
    src.mkdir()
    for i in range(12):
        (src / f"f{i}.cu").write_text(KERNEL.replace("k(", f"k{i}("))
    one = convert(src, options=Options(jobs=1))
    two = convert(src, options=Options(jobs=2))
    assert [r.text for r in one.results if isinstance(r, Translated)] == \
           [r.text for r in two.results if isinstance(r, Translated)]
    assert len(two.results) == 12


def test_single_file_output_puts_parent_headers_where_its_includes_find_them(tmp_path):
    """`convert src/a/x.cu -o out/x.hip` (issue 16 bug 9): x.hip's `#include "../u.h"` and `"sub/v.cuh"` must find
    the translated headers, so they go relative to out/, not mirrored from the inputs' common root."""
    src = tmp_path / "src"
    (src / "a" / "sub").mkdir(parents=True)
    (src / "u.h").write_text("#pragma once\ninline void u(void* p) { cudaFree(p); }\n")
    (src / "a" / "sub" / "v.cuh").write_text("#pragma once\ninline void v(void* p) { cudaFree(p); }\n")
    (src / "a" / "x.cu").write_text('#include "../u.h"\n#include "sub/v.cuh"\n' + KERNEL)
    out = tmp_path / "build" / "out"
    report = convert([src / "a" / "x.cu"], out / "x.hip")
    assert report.exit_code(Options().fail_on) == 0
    assert {f.job.display for f in report.files} == {"a/x.cu", "u.h", "a/sub/v.cuh"}
    written = sorted(p.relative_to(tmp_path / "build").as_posix() for p in (tmp_path / "build").rglob("*.*"))
    assert written == ["out/sub/v.cuh", "out/x.hip", "u.h"]
    for include in ("../u.h", "sub/v.cuh"):  # what the output includes is the translated header
        assert "hipFree" in (out / include).read_text()


def test_single_file_output_never_replaces_an_included_source(tmp_path):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    (src / "u.h").write_text("#pragma once\ninline void u(void* p) { cudaFree(p); }\n")
    (src / "a" / "x.cu").write_text('#include "../u.h"\n' + KERNEL)
    report = convert([src / "a" / "x.cu"], src / "a" / "x.hip", policy=WritePolicy(force=True))
    assert "cudaFree" in (src / "u.h").read_text()  # its output place is the source itself: left alone
    assert [p.path for p in report.problems] == ["u.h"] and "would replace it" in report.problems[0].message
    assert (src / "a" / "x.hip").exists()


def test_non_utf8_bytes_are_translated_around_and_kept(tmp_path):
    """Issue 16: legacy sources with Latin-1/cp1252 bytes in comments and strings (which convert used to refuse
    as "not valid UTF-8") are translated, every byte it does not edit kept as it was."""
    src = tmp_path / "src"
    src.mkdir()
    data = (b"// Auteur: Ren\xe9 M\xfcller \x96 calcul\n#include <cuda_runtime.h>\nconst char* s = \"\xe9t\xe9\";\n"
            b"void f(float** p) { cudaMalloc(p, 4); }\n")
    (src / "legacy.cu").write_bytes(data)
    report = convert(src, tmp_path / "out")
    (done,) = report.files
    assert not isinstance(done.outcome.result, Failed)
    out = (tmp_path / "out" / "legacy.hip").read_bytes()
    assert b"hipMalloc(p, 4)" in out and b"hip/hip_runtime.h" in out
    assert out.startswith(b"// Auteur: Ren\xe9 M\xfcller \x96 calcul\n") and b'"\xe9t\xe9"' in out
    assert out.replace(b"hipMalloc", b"cudaMalloc").replace(b"hip/hip_runtime.h", b"cuda_runtime.h") == data


def test_a_chain_of_headers_deeper_than_the_recursion_limit_is_followed(tmp_path: Path) -> None:
    """Each header includes the next, 1,500 deep: every one is planned, in include order (the walk was one
    recursion per header, a RecursionError past ~1,000; found by fuzzing)."""
    from cuda2rocm.translate.plan import plan_convert

    depth = 1500
    for k in range(depth):
        (tmp_path / f"h{k}.cuh").write_text(f'#include "h{k + 1}.cuh"\n' if k + 1 < depth else "int x;\n")
    (tmp_path / "main.cu").write_text('#include "h0.cuh"\n#include "h1.cuh"\n')
    plan = plan_convert([tmp_path / "main.cu"], tmp_path / "o" / "main.hip", Options(follow_includes=True))
    names = [job.source.name for job in plan.jobs]
    assert names[0] == "main.cu" and len(names) == depth + 1
    assert names[1:] == [f"h{k}.cuh" for k in range(depth)]  # h1 comes once, after h0 that includes it


def test_sibling_headers_follow_their_own_includes_first(tmp_path: Path) -> None:
    from cuda2rocm.translate.plan import plan_convert

    (tmp_path / "a.cuh").write_text('#include "c.cuh"\n')
    (tmp_path / "b.cuh").write_text("int b;\n")
    (tmp_path / "c.cuh").write_text('#include "a.cuh"\n')  # a cycle: each file once
    (tmp_path / "main.cu").write_text('#include "a.cuh"\n#include "b.cuh"\n#include "missing.cuh"\n')
    plan = plan_convert([tmp_path / "main.cu"], tmp_path / "o" / "main.hip", Options(follow_includes=True))
    assert [job.source.name for job in plan.jobs] == ["main.cu", "a.cuh", "c.cuh", "b.cuh"]
