"""Golden pairs: tests/golden/<library>/<name>.<ext> translates to <name>.hip, byte for byte.

Regenerate after a deliberate change with ``C2R_UPDATE_GOLDEN=1 pytest tests/translate/test_golden.py``,
then review the diff.
"""

from __future__ import annotations

import os

import pytest
from tests.translate.golden import GOLDEN, expected_path, inputs, output_text, read, translate

CASES = inputs()


def test_every_library_has_golden_pairs():
    libraries = {p.relative_to(GOLDEN).parts[0] for p in CASES}
    for lib in ("runtime", "driver", "device", "cublas", "cublaslt", "curand", "cufft", "cusparse", "cusolver",
                "cudnn", "cub", "thrust", "nccl", "nvtx", "cooperative_groups", "complex", "fp16", "bf16",
                "nvrtc", "macros", "launch"):
        assert lib in libraries
    assert len(CASES) >= 36


@pytest.mark.parametrize("src", CASES, ids=[str(p.relative_to(GOLDEN)) for p in CASES])
def test_golden(src):
    original = read(src)
    got = output_text(translate(src, original), original)
    expected = expected_path(src)
    if os.environ.get("C2R_UPDATE_GOLDEN"):
        with open(expected, "w", encoding="utf-8", newline="") as f:
            f.write(got)
    assert got == read(expected)
