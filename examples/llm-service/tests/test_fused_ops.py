"""Checks the fused kernels against plain PyTorch (needs a GPU and the built extension)."""

from __future__ import annotations

import pytest
import torch

cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")


@cuda
def test_rms_norm_matches_reference() -> None:
    from llm_service import _C

    x = torch.randn(8, 4096, device="cuda")
    w = torch.rand(4096, device="cuda")
    ref = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    torch.testing.assert_close(_C.rms_norm(x, w, 1e-6), ref, rtol=1e-4, atol=1e-5)


@cuda
def test_count_positive() -> None:
    from llm_service import _C

    logits = torch.randn(10_000, device="cuda")
    assert _C.count_positive(logits) == int((logits > 0).sum())
