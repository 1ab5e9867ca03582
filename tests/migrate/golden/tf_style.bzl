"""TensorFlow-style macros over the CUDA configuration's build defs."""

load("@local_config_cuda//cuda:build_defs.bzl", "cuda_default_copts", "if_cuda", cuda_lib = "cuda_library")

def gpu_kernel_library(name, srcs, copts = [], deps = [], **kwargs):
    """A kernel library: device sources with the CUDA defaults."""
    cuda_lib(
        name = name,
        srcs = srcs,
        copts = cuda_default_copts() + copts + if_cuda(["--use_fast_math"]),
        deps = deps + if_cuda(["@local_config_cuda//cuda:cudart", "@local_config_cuda//cuda:curand"]),
        **kwargs
    )

def gpu_defines():
    return if_cuda(["GPU=1"], ["GPU=0"])
