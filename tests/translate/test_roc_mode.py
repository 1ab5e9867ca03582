"""--roc (issue 16, family 2): rocBLAS's complex class for cuComplex in files that use cuBLAS
(``translate/data/roc_complex.csv``), roc* handle and descriptor structs and functions that have no hip* twin
(``cusparseContext`` -> ``_rocsparse_handle``, ``cublasInit`` -> ``rocblas_initialize``); the C2R-A120 rule
(roc* calls with other argument lists keep the hip* call) is unchanged (test_roc_signatures.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cuda2rocm.mapping.table import load
from cuda2rocm.model import Translated
from cuda2rocm.toolchain.discover import find_hipcc
from cuda2rocm.translate import data
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options


def _out(src: str, **kw: object) -> Translated:
    r = convert_source(src, "t.cu", Options(**kw))  # type: ignore[arg-type]
    assert isinstance(r, Translated)
    return r


def _use(name: str) -> str:
    entry = load().lookup(name)
    assert entry is not None
    return f"void g() {{ {name}(x); }}\n" if entry.kind == "function" else f"{name}* p;\n"


@pytest.mark.parametrize("name", sorted(data.roc_complex()))
def test_complex_names_become_rocblas_ones_in_cublas_files(name: str) -> None:
    roc = data.roc_complex()[name]
    assert f"{roc}" in _out("#include <cublas_v2.h>\n" + _use(name), roc=True).text
    hip = load().lookup(name)
    assert hip is not None
    for other in (_out("#include <cufft.h>\n" + _use(name), roc=True), _out("#include <cublas_v2.h>\n" + _use(name))):
        assert hip.hip in other.text and roc not in other.text


def test_complex_functions_without_a_rocblas_spelling_are_reported() -> None:
    fns = [e.cuda for e in load().by_library("complex") if e.kind == "function" and e.cuda not in data.roc_complex()]
    assert "cuCaddf" in fns and "cuCmul" in fns
    src = "#include <cublas_v2.h>\n" + "".join(f"void g{k}() {{ {f}(a, b); }}\n" for k, f in enumerate(fns))
    r = _out(src, roc=True)
    reported = {f.line for f in r.findings if f.rule == "C2R-A101" and "operators" in f.message}
    assert reported == set(range(2, 2 + len(fns)))


STRUCTS = {"cublasContext": "_rocblas_handle", "cusparseContext": "_rocsparse_handle",
           "cusparseMatDescr": "_rocsparse_mat_descr", "cusparseSpMatDescr": "_rocsparse_spmat_descr",
           "cusparseDnVecDescr": "_rocsparse_dnvec_descr"}


@pytest.mark.parametrize("cuda", sorted(STRUCTS))
def test_handle_and_descriptor_structs_take_their_roc_names(cuda: str) -> None:
    r = _out(f"struct {cuda}* raw;\n", roc=True)
    assert f"struct {STRUCTS[cuda]}* raw;" in r.text and not r.findings
    hip = _out(f"struct {cuda}* raw;\ncudaError_t e;\n")
    assert f"struct {cuda}* raw;" in hip.text and any(f.rule == "C2R-A101" for f in hip.findings)


def test_roc_only_functions_translate_and_enum_values_stay_reported() -> None:
    r = _out("void g(int f) { cublasInit(); if (f == CUSPARSE_FORMAT_SLICED_ELLPACK) return; }\n", roc=True)
    assert "rocblas_initialize();" in r.text
    assert "CUSPARSE_FORMAT_SLICED_ELLPACK" in r.text  # rocsparse_format_ell is another format
    assert any(f.rule == "C2R-A101" and "SLICED_ELLPACK" in f.message for f in r.findings)


ROCSPARSE = """#include <cusparse.h>
int g() {
  cusparseHandle_t h;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) return 1;
  struct cusparseContext* raw = h;
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  struct cusparseMatDescr* draw = d;
  cusparseDestroyMatDescr(draw);
  return cusparseDestroy(raw) == CUSPARSE_STATUS_SUCCESS ? 0 : 2;
}
"""


@pytest.mark.hipcc
@pytest.mark.skipif(find_hipcc() is None or not Path("/usr/include/rocsparse/rocsparse.h").exists(),
                    reason="hipcc and rocSPARSE headers needed")
def test_roc_struct_names_compile_against_rocsparse(tmp_path: Path) -> None:
    r = _out(ROCSPARSE, roc=True, target_rocm="5.2")
    assert "struct _rocsparse_handle* raw" in r.text
    src = tmp_path / "t.hip"
    src.write_text(r.text)
    done = subprocess.run([str(find_hipcc()), "--offload-arch=gfx90a", "-x", "hip", "-c", str(src), "-o",
                           str(tmp_path / "t.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
