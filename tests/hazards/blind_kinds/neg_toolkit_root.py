import os
import shutil


def toolkit_root():
    root = os.environ.get("CUDA_HOME") or os.environ.get("ROCM_PATH")
    if root:
        return root
    compiler = shutil.which("nvcc") or shutil.which("hipcc")
    return os.path.dirname(os.path.dirname(compiler)) if compiler else None
