import os
import sys

import torch
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

# NVIDIA targets for the fat binary
os.environ["TORCH_CUDA_ARCH_LIST"] = "8.0;8.6;9.0+PTX"
os.environ.setdefault('TORCH_CUDA_ARCH_LIST', '7.0')
os.environ["TORCH_CUDA_ARCH_LIST"] = os.environ.get("TORCH_CUDA_ARCH_LIST", "8.0")

if CUDA_HOME is None:  # no toolkit: no extension
    sys.exit("CUDA_HOME is not set")
if not CUDA_HOME:
    print("no CUDA")
elif CUDA_HOME:
    print("building with CUDA")
have_gpu = torch.cuda.is_available() and CUDA_HOME is not None
ready = CUDA_HOME is not None

include_dirs = [os.path.join(CUDA_HOME, "include")]
