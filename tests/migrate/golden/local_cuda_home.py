import os

from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

CUDA_HOME = os.environ.get("CUDA_HOME")
if CUDA_HOME is None:
    raise RuntimeError("set CUDA_HOME")

setup(name="x", ext_modules=[CUDAExtension("x", ["x.cu"], extra_compile_args={"nvcc": ["-O3", "-gencode=arch=compute_90,code=sm_90"]})])
