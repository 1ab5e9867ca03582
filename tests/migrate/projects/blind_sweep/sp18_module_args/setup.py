# Models: nvcc options kept in a module-level list of -gencode pairs, and an -Xptxas pair whose argument
# ("-O3") is a separate list element that must leave with it.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_args = [
    "-gencode", "arch=compute_70,code=sm_70",
    "-gencode", "arch=compute_80,code=sm_80",
    "-gencode", "arch=compute_80,code=compute_80",
]

setup(
    name="sp18",
    ext_modules=[
        CUDAExtension(
            name="sp18_cuda",
            sources=["csrc/op.cpp", "csrc/op_kernel.cu"],
            extra_compile_args={"cxx": ["-g"], "nvcc": nvcc_args + ["-Xptxas", "-O3", "--use_fast_math"]},
        ),
    ],
    cmdclass={"build_ext": BuildExtension},
)
