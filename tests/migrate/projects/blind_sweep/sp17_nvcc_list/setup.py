# Models: one CUDAExtension whose nvcc list mixes options hipcc takes (-O3), nvcc spellings with a
# clang twin (--use_fast_math), NVIDIA-only ones (-lineinfo, -Wno-deprecated-gpu-targets) and a
# one-word -gencode= target.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="sp17",
    ext_modules=[
        CUDAExtension(
            "sp17._C",
            ["csrc/op.cpp", "csrc/op_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": [
                    "-O3",
                    "--use_fast_math",
                    "-lineinfo",
                    "-Wno-deprecated-gpu-targets",
                    "-gencode=arch=compute_89,code=sm_89",
                ],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
