"""Stand-in for a ROCm build of PyTorch (tests/migrate/rocm_torch/README.md)."""

from torch import cuda, utils, version

__version__ = version.__version__
__all__ = ["cuda", "utils", "version"]
