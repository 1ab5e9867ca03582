# A PyTorch extension with its nvcc options in a variable (comments must survive).
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

NVCC_FLAGS = [
    "-O3",
    "--use_fast_math",  # fast math on both platforms
    "--expt-relaxed-constexpr",
    "--expt-extended-lambda",  # device lambdas
    "-Xcompiler", "-fPIC,-Wall",
    "-gencode", "arch=compute_80,code=sm_80",
]
NVCC_FLAGS.append('-lineinfo')
NVCC_FLAGS += ["--maxrregcount=64"]

ext_args = {
    'cxx': ['-O3', '-fopenmp'],  # host compiler
    'nvcc': NVCC_FLAGS,
}

setup(
    name="fused",
    ext_modules=[
        CUDAExtension(
            "fused._C",
            ["csrc/ops.cpp", "csrc/kernels.cu"],
            extra_compile_args=ext_args,
            libraries=["cublas", "curand",  # random numbers
                       "cusparse", "nccl", "gomp"],
        ),
        CUDAExtension(
            name="fused._attn",
            sources=["csrc/attn.cu"],
            extra_compile_args=dict(cxx=["-O2"], nvcc=["-O2", "-arch=sm_90", "--default-stream", "per-thread"]),
            libraries=LIBS if False else ["cudart"],
        ),
        CUDAExtension("fused._dyn", ["csrc/dyn.cu"], extra_compile_args={"nvcc": nvcc_flags()}),
    ],
    cmdclass={"build_ext": BuildExtension},
)
