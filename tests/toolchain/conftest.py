from __future__ import annotations

import pytest

from cuda2rocm.toolchain import find_hipcc, find_nvcc

needs_hipcc = pytest.mark.skipif(find_hipcc() is None, reason="hipcc not installed")
needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
