# A fused-ops extension that checks the nvcc release before choosing its targets.
import os
import subprocess

import torch
from packaging.version import Version, parse
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension


def nvcc_release(cuda_dir):
    """The release nvcc -V prints, as a Version."""
    out = subprocess.check_output([os.path.join(cuda_dir, "bin", "nvcc"), "-V"], text=True)
    words = out.split()
    return parse(words[words.index("release") + 1].rstrip(","))


gencode = []
nvcc_version = nvcc_release(CUDA_HOME)
if nvcc_version < Version("11.6"):
    raise RuntimeError(f"CUDA 11.6 or newer is needed, found {nvcc_version}")
gencode += ["-gencode", "arch=compute_80,code=sm_80"]
if nvcc_version >= Version("11.8"):
    gencode += ["-gencode", "arch=compute_90,code=sm_90"]

# torch's own CUDA must match the toolkit's major release
torch_cuda = parse(torch.version.cuda)
if torch_cuda.major != nvcc_version.major:
    raise RuntimeError("torch was built for another CUDA major release than nvcc's")

setup(
    name="fastops",
    packages=find_packages(),
    ext_modules=[
        CUDAExtension(
            name="fastops._C",
            sources=["csrc/fastops.cpp", "csrc/fastops_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": ["-O3", "--use_fast_math", "--ptxas-options=-v", "-lineinfo"] + gencode,
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
