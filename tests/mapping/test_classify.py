"""CUDA-name and header recognition lives in mapping/classify (naming conventions in data/prefixes.csv); scan
and convert both ask it, so they cannot disagree about which names are CUDA's."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.mapping import classify
from cuda2rocm.scan.analyzers import apinames
from cuda2rocm.translate.passes import unknown

# What scan (scan/analyzers/apinames.py) and convert (translate/passes/unknown.py) each recognised before they
# shared classify: every name either accepted is still a CUDA name.
_SCAN_BEFORE = re.compile(
    r"cuda[A-Z_]\w*|cu[A-Z]\w*|CU[a-z]\w*|CU_[A-Z]\w*|(?:cublasLt|cublas|cudnn|cufft|cusparse|cusolver|curand"
    r"|cutensor|nvrtc|nvjpeg|cupti)\w*|(?:nccl|nvtx|nvml)[A-Z]\w*|(?:NCCL|CUBLAS|CUDNN|CUFFT|CURAND|CUSPARSE"
    r"|CUSOLVER|NVTX|NVML|CUTENSOR)_\w+")
_CONVERT_BEFORE = re.compile(
    r"(?:cuda|cublas|cublasLt|cufft|curand|cusparse|cusolver|cudnn|cutensor|nvrtc|nccl|nvtx)[A-Z_]\w*"
    r"|cu[A-Z][a-z]\w*|(?:CUDA|CU|CUBLAS|CUFFT|CURAND|CUSPARSE|CUSOLVER|CUDNN|NCCL|NVRTC)_[A-Z0-9_]+")
_STARTS = ["cuda", "cu", "CU", "CU_", "CUDA_", "cublas", "cublasLt", "cudnn", "cufft", "curand", "cusparse",
           "cusolver", "cutensor", "nvrtc", "nvjpeg", "cupti", "nccl", "nvtx", "nvml", "NCCL_", "CUBLAS_", "CUDNN_",
           "NVRTC_", "NVML_", "CUTENSOR_", "cub", "cube", "my", "nv", "NV", "_", "x"]


def test_scan_and_convert_ask_the_same_place() -> None:
    assert apinames.is_cuda_identifier is classify.looks_cuda
    assert apinames.is_cuda_header is classify.is_cuda_header
    assert unknown.looks_cuda is classify.looks_cuda
    assert {"thrust", "cub", "cutlass", "cute", "nvinfer1", "nvcuda", "cooperative_groups"} == apinames.NAMESPACES


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_STARTS), st.from_regex(r"[A-Za-z0-9_]{0,6}", fullmatch=True))
def test_every_name_either_side_recognised_is_still_recognised(start: str, tail: str) -> None:
    name = start + tail
    if _SCAN_BEFORE.fullmatch(name) or _CONVERT_BEFORE.fullmatch(name):
        assert classify.looks_cuda(name), name
    elif classify.looks_cuda(name):
        # the only widening: CU_/CUDA_/NVRTC_ names with a lowercase letter (no CUDA name is spelled so)
        assert re.fullmatch(r"(?:CU|CUDA|NVRTC)_\w+", name) and re.search("[a-z]", name[3:]), name


def test_where_the_two_copies_disagreed() -> None:
    # scan missed the CUDA_ names (datatypes, status codes, macros); convert missed driver types and NVML
    for name in ("CUDA_R_32F", "CUDA_SUCCESS", "CUDA_VERSION", "NVRTC_SUCCESS"):
        assert classify.looks_cuda(name) and not _SCAN_BEFORE.fullmatch(name), name
    for name in ("CUdevice", "nvmlInit", "nvjpegCreate", "cuptiActivityEnable", "CUTENSOR_OP_ADD"):
        assert classify.looks_cuda(name) and not _CONVERT_BEFORE.fullmatch(name), name
    for name in ("cube", "cu_seqlens", "my_cuda", "nv", "cuda", "thrust", "CUDART"):
        assert not classify.looks_cuda(name), name


def test_libraries_by_prefix() -> None:
    expected = {"cudaFutureCall": "runtime", "cuda_fp16.h": "runtime", "cuFuture": "driver", "CUdevice_x": "driver",
                "CUDA_R_99F": "driver", "NVRTC_ERROR_X": "nvrtc", "nvmlFoo": "nvml", "cutensorFoo": "cutensor",
                "cooperative_groups::tiled": "cooperative_groups", "cooperative_groups.h": "cooperative_groups",
                "thrust::sort": "thrust", "thrust/sort.h": "thrust", "cub/cub.cuh": "cub", "cute::Tensor": "cutlass",
                "nvinfer1::IBuilder": "tensorrt", "NvInfer.h": "tensorrt", "nvtx3/nvToolsExt.h": "nvtx",
                "CUDART_VERSION": "macros", "cube": "", "my_function": ""}
    assert {n: classify.prefix_library(n) for n in expected} == expected


def test_headers() -> None:
    for name in ("cuda_runtime.h", "cublas_v2.h", "thrust/sort.h", "cub/cub.cuh", "nccl.h", "cooperative_groups.h",
                 "mma.h", "nvtx3/nvToolsExt.h", "NvInfer.h", "cuda/std/atomic"):
        assert classify.is_cuda_header(name), name
    for name in ("vector", "my_cuda.h", "stdio.h", "thrusting.h"):
        assert not classify.is_cuda_header(name), name


def test_scan_counts_the_cuda_names_it_used_to_miss(tmp_path: Path) -> None:
    from cuda2rocm.scan.api import scan

    (tmp_path / "g.cu").write_text("#include <cublas_v2.h>\nvoid f(cublasHandle_t h) {\n"
                                   "  cudaDataType t = CUDA_R_32F;\n  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);\n}\n")
    names = {u.name: u.library for u in scan(tmp_path).api_usage}
    assert names.get("CUDA_R_32F") == "datatypes"
    assert names.get("cublasSetMathMode") == "cublas"
