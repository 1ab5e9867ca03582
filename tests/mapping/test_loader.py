"""The typed loader: lookups, versions, availability, fallbacks, headers, classification."""

from __future__ import annotations

import pytest

from cuda2rocm.mapping import (
    ROCM_RELEASES,
    SUPPORT_LEVELS,
    Resolution,
    Version,
    identifier_library,
    is_known_rocm,
    load,
    newest_rocm,
    parse_version,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("6.2", (6, 2)), ("6.2.4", (6, 2, 4)), ("5.2.21153-0", (5, 2, 21153)), ("v12.1", (12, 1)), ("7", (7,))],
)
def test_parse_version(text, expected):
    assert parse_version(text) == expected


@pytest.mark.parametrize(("a", "b"), [("6.2", "6.2.0"), ("6.0", "6"), ("5.7.0", "5.7")])
def test_trailing_zeros_do_not_matter(a, b):
    assert parse_version(a) == parse_version(b)
    assert hash(parse_version(a)) == hash(parse_version(b))


@pytest.mark.parametrize(("low", "high"), [("5.2", "6.2"), ("6.2", "6.2.1"), ("6.9", "6.10"), ("6", "6.0.1")])
def test_version_order(low, high):
    assert parse_version(low) < parse_version(high)


@pytest.mark.parametrize("bad", ["", "abc", "-1.0", "."])
def test_bad_version_raises(bad):
    with pytest.raises(ValueError):
        parse_version(bad)


def test_version_str_shows_major_minor():
    assert str(parse_version("6")) == "6.0"
    assert str(parse_version("6.2.4")) == "6.2.4"


@pytest.mark.parametrize(
    ("cuda", "hip", "library"),
    [
        ("cudaMalloc", "hipMalloc", "runtime"),
        ("cudaDeviceProp", "hipDeviceProp_t", "runtime"),
        ("cuMemAlloc_v2", "hipMalloc", "driver"),
        ("cublasSgemm_v2", "hipblasSgemm", "cublas"),
        ("cublasLtMatmul", "hipblasLtMatmul", "cublaslt"),
        ("cudaDataType", "hipDataType", "datatypes"),
        ("__half2float", "__half2float", "fp16"),
        ("__nv_bfloat16", "__hip_bfloat16", "bf16"),  # hip_bfloat16 before ROCm 6.0 (fallback)
        ("curandCreateGenerator", "hiprandCreateGenerator", "curand"),
        ("cufftExecC2C", "hipfftExecC2C", "cufft"),
        ("cusparseSpMV", "hipsparseSpMV", "cusparse"),
        ("make_cuComplex", "make_hipComplex", "complex"),
        ("ncclAllReduce", "ncclAllReduce", "nccl"),
        ("nvtxRangePushA", "roctxRangePushA", "nvtx"),
        ("cub", "hipcub", "cub"),
        ("thrust::cuda", "thrust::hip", "thrust"),
        ("cooperative_groups::this_grid", "cooperative_groups::this_grid", "cooperative_groups"),
        ("__CUDACC__", "__HIPCC__", "macros"),
        ("__syncthreads", "__syncthreads", "device"),
    ],
)
def test_lookup(cuda, hip, library):
    entry = load().lookup(cuda)
    assert entry is not None
    assert (entry.hip, entry.library) == (hip, library)


def test_lookup_unknown_is_none():
    assert load().lookup("notACudaName") is None


def test_support_levels_are_valid_and_unsupported_rows_have_no_hip_name():
    for entry in load():
        assert entry.support in SUPPORT_LEVELS
        if entry.support == "unsupported":
            assert entry.hip == "", entry.cuda


def test_cudnn_maps_only_to_miopen():
    create = load().lookup("cudnnCreate")
    assert (create.hip, create.roc, create.support) == ("", "miopenCreate", "supported")
    for entry in load().by_library("cudnn"):
        assert entry.hip == ""
        assert (entry.support == "supported") == bool(entry.roc), entry.cuda


def test_rocblas_names_for_roc():
    assert load().lookup("cublasSgemm_v2").resolve(roc=True) == Resolution("rocblas_sgemm")


@pytest.mark.parametrize(
    ("name", "rocm", "expected"),
    [
        ("__shfl_down_sync", "5.2", Resolution("__shfl_down", (0,), True)),
        ("__shfl_down_sync", "6.2", Resolution("__shfl_down_sync")),
        ("__shfl_xor_sync", "6.1.2", Resolution("__shfl_xor", (0,), True)),
        ("__ballot_sync", "5.7", Resolution("__ballot", (0,), True)),
        ("__ballot_sync", "7.0", Resolution("__ballot_sync")),
        ("__syncwarp", "6.4", None),
        ("__syncwarp", "7.0", Resolution("__syncwarp")),
        ("cudaMalloc", "5.0", Resolution("hipMalloc")),
        ("__reduce_add_sync", "7.2", None),
        ("sharedMemPerBlockOptin", "5.2", None),
        ("sharedMemPerBlockOptin", "6.0", Resolution("sharedMemPerBlockOptin")),
    ],
)
def test_resolve_for_target_release(name, rocm, expected):
    assert load().lookup(name).resolve(rocm) == expected


def test_available_in_bounds():
    entry = load().lookup("__shfl_sync")
    assert not entry.available_in("6.1")
    assert entry.available_in(Version((6, 2)))
    assert not load().lookup("__reduce_add_sync").available_in("7.2")


def test_headers():
    table = load()
    assert table.header("cuda_runtime.h").hip == "hip/hip_runtime.h"
    assert table.header("<cub/cub.cuh>").resolve() == "hipcub/hipcub.hpp"
    assert table.header("cudnn.h").resolve() is None
    assert table.header("cudnn.h").resolve(roc=True) == "miopen/miopen.h"
    assert table.header("cublasLt.h").resolve("5.2") is None
    assert table.header("nope.h") is None


@pytest.mark.parametrize(
    ("name", "library"),
    [
        ("cudaMalloc", "runtime"),
        ("cudaSomethingNew", "runtime"),
        ("cuMemAlloc", "driver"),
        ("cuFutureCall", "driver"),
        ("cublasLtFuture", "cublaslt"),
        ("cudnnBackendFuture", "cudnn"),
        ("__shfl_down_sync", "device"),
        ("__reduce_add_sync", "device"),
        ("thrust::sort", "thrust"),
        ("cooperative_groups::reduce", "cooperative_groups"),
        ("CUDART_VERSION", "macros"),
        ("cube", ""),
        ("cuda", ""),
        ("my_function", ""),
    ],
)
def test_identifier_library(name, library):
    assert identifier_library(name) == library


def test_releases():
    assert ROCM_RELEASES[0] == parse_version("5.0")
    assert list(ROCM_RELEASES) == sorted(ROCM_RELEASES)
    assert newest_rocm() == ROCM_RELEASES[-1] >= parse_version("7.2")
    assert is_known_rocm("5.2") and is_known_rocm("6.2.4") and not is_known_rocm("6.5")


def test_lookup_is_a_dict_and_load_is_cached():
    assert load() is load()
    assert len(load()) > 9000
    assert "cudaMalloc" in load()


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (["x", "y", "", "function", "maybe", *[""] * 12], "support 'maybe'"),
        (["x", "y", "", "function", "supported", "", "", "", "not-a-version", *[""] * 8], "not a version"),
        (["x", "y", "", "function", "supported", *[""] * 8, "zero", "", "", ""], "invalid literal"),
    ],
)
def test_malformed_row_names_file_and_line(row, message):
    from cuda2rocm.mapping.table import MappingDataError, _checked_entry

    with pytest.raises(MappingDataError, match=rf"mapping/data/runtime\.csv:42: .*{message}"):
        _checked_entry("runtime", 42, row)


def test_every_row_of_every_table_builds():
    """Entries are built lazily; building all of them here proves every packaged row is well formed."""
    assert sum(1 for _ in load()) == len(load())


def test_every_row_of_every_table_has_every_column():
    """``load()`` reads only each row's name (the row is parsed on lookup): every row, the ones a name listed in
    an earlier table shadows too, is read in full here, and the lazily parsed rows equal the eager reader's."""
    from cuda2rocm.mapping.table import _ordered, _raw_library, _row, table_names

    eager: dict[str, tuple[str, int, list[str]]] = {}
    for library in _ordered(table_names()):
        for lineno, row in _raw_library(library):  # raises MappingDataError on a short or long row
            eager.setdefault(row[0], (library, lineno, row))
    lazy = load()._raw
    assert list(lazy) == list(eager)  # the same names in the same order (iteration order of the table)
    assert all((lib, n, _row(lib, n, line)) == eager[name] for name, (lib, n, line) in lazy.items())


def test_a_short_row_names_file_and_line():
    from cuda2rocm.mapping.table import MappingDataError, _first_field, _row

    with pytest.raises(MappingDataError, match=r"mapping/data/runtime\.csv:7: 2 fields, expected 17"):
        _row("runtime", 7, "cudaX,hipX")
    assert _row("runtime", 7, '"a,b",' + "," * 15)[0] == _first_field('"a,b",x') == "a,b"


@pytest.mark.parametrize(
    ("header", "rocm", "expected"),
    [
        ("cuda_bf16.h", "5.2", "hip/hip_bfloat16.h"),
        ("cuda_bf16.h", "6.2", "hip/hip_bf16.h"),
        ("cuda_fp16.h", "5.2", "hip/hip_fp16.h"),
        ("curand_kernel.h", None, "hiprand/hiprand_kernel.h"),
        ("nccl.h", None, "rccl/rccl.h"),
        ("nvToolsExt.h", None, "roctracer/roctx.h"),
        ("mma.h", None, None),
    ],
)
def test_header_resolution(header, rocm, expected):
    assert load().header(header).resolve(rocm) == expected


def test_hip_data_types_exist_in_5_2_for_the_basic_types_only():
    table = load()
    assert table.lookup("CUDA_R_32F").resolve("5.2").name == "HIP_R_32F"
    assert table.lookup("CUDA_R_8I").resolve("5.2") is None
    assert table.lookup("CUDA_R_8I").resolve("5.7").name == "HIP_R_8I"
