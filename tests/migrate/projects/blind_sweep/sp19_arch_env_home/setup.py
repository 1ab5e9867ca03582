# Models: TORCH_CUDA_ARCH_LIST forced through os.environ, a CUDA_HOME guard imported from
# torch.utils.cpp_extension, CUDA libraries named for the linker, and an include path built from CUDA_HOME.
import os

from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

os.environ["TORCH_CUDA_ARCH_LIST"] = "7.5;8.0+PTX"

if CUDA_HOME is None:
    raise RuntimeError("needs the CUDA toolkit")

setup(
    name="sp19",
    ext_modules=[
        CUDAExtension(
            "sp19._C",
            ["csrc/op.cpp", "csrc/op_kernel.cu"],
            include_dirs=[os.path.join(CUDA_HOME, "include")],
            libraries=["cublas", "curand"],
            extra_compile_args={"nvcc": ["-O2", "-Xcompiler", "-fopenmp"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
