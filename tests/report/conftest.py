"""Shared evidence for the delivery-report tests: expensive real results made once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.report import evidence


@pytest.fixture(scope="session")
def capture_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed H200 captures, extracted: ``regress/{cpu,gpu}-{float32,bfloat16,float16}``."""
    root = tmp_path_factory.mktemp("h200")
    evidence.captures(root)
    return root


@pytest.fixture(scope="session")
def compare_pass(capture_root: Path):  # type: ignore[no-untyped-def]
    """compare CPU vs GPU FP32 captures: passes under the default policy (paths relative to capture_root)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(capture_root)
        return evidence.compare_outcome("regress/cpu-float32", "regress/gpu-float32")


@pytest.fixture(scope="session")
def compare_fail(capture_root: Path):  # type: ignore[no-untyped-def]
    """FP32 baseline against the FP16 capture: every tensor's dtype differs, the first layer diverges."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(capture_root)
        return evidence.compare_outcome("regress/cpu-float32", "regress/gpu-float16")


@pytest.fixture(scope="session")
def smoke_pass():  # type: ignore[no-untyped-def]
    """A real smoke run of a tiny model on the CPU."""
    torch = pytest.importorskip("torch")
    from cuda2rocm.regress.smoke import smoke

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    return smoke(model, torch.randn(3, 4), "cpu")
