# Sparse kernels: one -gencode pair per supported compute capability, and the toolkit's headers.
import os

from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

CAPABILITIES = ["70", "80", "90"]

nvcc_args = ["-O2", "-std=c++17", "--expt-relaxed-constexpr"]
for cap in CAPABILITIES:
    nvcc_args += ["-gencode", f"arch=compute_{cap},code=sm_{cap}"]
nvcc_args.append("--ptxas-options=-v")

if CUDA_HOME is None:
    raise RuntimeError("CUDA_HOME is not set: install the CUDA toolkit")

include_dirs = [os.path.join(CUDA_HOME, "include"), "csrc"]

setup(
    name="sparseops",
    version="0.3.0",
    ext_modules=[
        CUDAExtension(
            "sparseops._C",
            ["csrc/sparse.cpp", "csrc/sparse_kernels.cu"],
            include_dirs=include_dirs,
            libraries=["cusparse"],
            extra_compile_args={"cxx": ["-O2"], "nvcc": nvcc_args},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
