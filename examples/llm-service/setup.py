"""Builds the fused CUDA kernels as ``llm_service._C``."""

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="llm-service",
    version="0.4.0",
    packages=find_packages(include=["service", "service.*"]),
    ext_modules=[
        CUDAExtension(
            name="llm_service._C",
            sources=["csrc/fused_ops.cpp", "csrc/reduce_kernels.cu", "csrc/ptx_kernels.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": ["-O3", "--use_fast_math", "-gencode=arch=compute_80,code=sm_80",
                         "-gencode=arch=compute_90,code=sm_90"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
