"""Real captures from an NVIDIA H200 (scripts/gpu/regress.sh, 2026-11-30) compared offline.

resnet18(weights=None) with a fixed seed was captured on the GPU and on the CPU in FP32, BF16 and FP16. Here,
without a GPU, the committed captures must pass GPU-vs-CPU under each dtype's default policy, and a
deliberate perturbation of one layer in the GPU capture must fail with that layer as the first divergence.
"""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from cuda2rocm.regress.compare import compare

ARCHIVE = Path(__file__).parents[2] / "benchmarks" / "results" / "gpu-2026-11-30" / "regress.tar.gz"
DTYPES = ("float32", "bfloat16", "float16")


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("h200")
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(root, filter="data")
    return root / "regress"


@pytest.mark.parametrize("dtype", DTYPES)
def test_gpu_matches_cpu_under_dtype_policy(captures: Path, dtype: str) -> None:
    manifest = json.loads((captures / f"gpu-{dtype}" / "manifest.json").read_text())
    assert manifest["device"].startswith("cuda")
    result = compare(captures / f"cpu-{dtype}", captures / f"gpu-{dtype}")
    assert result.passed, result.first_divergence
    assert len(result.reports) == len(manifest["entries"])


def _perturbed_copy(src: Path, dst: Path, layer: str) -> None:
    shutil.copytree(src, dst)
    tensors = load_file(str(src / "tensors.safetensors"))
    if tensors[layer].dtype == np.uint16:  # bf16 is stored as raw 16-bit words: flip low mantissa bits
        tensors[layer] = tensors[layer] ^ np.uint16(0x7)
    else:
        values = tensors[layer]
        tensors[layer] = (values + 0.1 * values.std() * np.ones_like(values)).astype(values.dtype)
    save_file(tensors, str(dst / "tensors.safetensors"))


@pytest.mark.parametrize("dtype", ("float32", "float16"))
def test_perturbed_layer_is_named_first_divergence(captures: Path, tmp_path: Path, dtype: str) -> None:
    layer = "act/layer3.0.conv1"
    _perturbed_copy(captures / f"gpu-{dtype}", tmp_path / "perturbed", layer)
    result = compare(captures / f"cpu-{dtype}", tmp_path / "perturbed")
    assert not result.passed
    assert result.first_divergence is not None and result.first_divergence.name == layer
