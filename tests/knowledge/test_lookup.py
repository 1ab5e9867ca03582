from __future__ import annotations

import pytest

from cuda2rocm import knowledge
from cuda2rocm.knowledge import versions


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("MI300X", "MI300X"), ("mi300x", "MI300X"), ("AMD Instinct MI300X", "MI300X"), ("gfx942", "MI300X"),
        ("gfx942:sramecc+:xnack-", "MI300X"), ("MI300A", "MI300A"), ("gfx90a", "MI250X"), ("H200", "H200"),
        ("NVIDIA H200", "H200"), ("NVIDIA H100 80GB HBM3", "H100"), ("NVIDIA A100-SXM4-80GB", "A100"),
        ("sm_100", "B200"), ("radeon rx 7900 xtx", "Radeon RX 7900 XTX"), ("gfx950", "MI355X"),
    ],
)
def test_get_gpu_finds(query, name):
    gpu = knowledge.get_gpu(query)
    assert gpu is not None and gpu.name == name


@pytest.mark.parametrize("query", ["MI999X", "gfx9999", "H300", "", "Radeon"])
def test_get_gpu_unknown_is_none(query):
    assert knowledge.get_gpu(query) is None


def test_gpu_facts_used_by_hazard_checks():
    mi300, h200, rdna = knowledge.get_gpu("MI300X"), knowledge.get_gpu("H200"), knowledge.get_gpu("gfx1100")
    assert (mi300.wavefront_size, mi300.lds_kib, mi300.max_workgroup_size) == (64, 64.0, 1024)
    assert (h200.wavefront_size, h200.compute_capability, h200.target) == (32, "9.0", "sm_90")
    assert rdna.wavefront_sizes == (32, 64) and rdna.wavefront_size == 32
    assert mi300.links[0].count == 7 and mi300.links[0].unverified


@pytest.mark.parametrize(
    ("name", "key"),
    [("flash-attn", "flash-attention"), ("flash_attn", "flash-attention"), ("flash_attn.ops.triton", "flash-attention"),
     ("Auto_GPTQ", "AutoGPTQ"), ("cupy-cuda12x", "cupy"), ("nvidia.dali", "nvidia-dali"), ("xformers", "xformers"),
     ("tensorrt_llm", "tensorrt-llm"), ("vllm", "vllm")],
)
def test_get_plugin(name, key):
    assert knowledge.get_plugin(name).key == key


@pytest.mark.parametrize("name", ["numpy", "numba", "flash", "torch"])
def test_get_plugin_none_for_ordinary_packages(name):
    assert knowledge.get_plugin(name) is None


def test_releases_newest_first_and_series_lookup():
    order = list(knowledge.rocm_releases())
    assert order == versions.newest_first(order)
    assert knowledge.get_release("6.4").version == "6.4.3"
    assert knowledge.get_release("6.4.1").version == "6.4.1"
    assert knowledge.get_release("6.4.9") is None and knowledge.get_release("8") is None
    assert "MI300X" in knowledge.get_release("6.4.1").gpus
    assert "MI325X" not in knowledge.get_release("6.3.0").gpus  # first listed in 6.4


def test_library_env_and_container_tables():
    assert knowledge.get_library("cublas").hip.cmake_target == "roc::hipblas"
    assert knowledge.get_library("NCCL").hip.name == "RCCL"
    assert "HIP_VISIBLE_DEVICES" in knowledge.get_env_var("CUDA_VISIBLE_DEVICES").rocm
    assert knowledge.get_env_var("NCCL_NVLS_ENABLE").status == "no_effect"
    assert "nvcr.io/nvidia/pytorch" in knowledge.containers()["rocm/pytorch"].replaces


@pytest.mark.parametrize(
    ("wanted", "listed", "ok"),
    [("2.6", "2.6.0", True), ("2.6.0", "2.6", True), ("2.6", "2.60", False), ("2.6.1", "2.6.0", False),
     ("2.6.0+rocm6.4", "2.6", True), ("x", "2.6", False)],
)
def test_version_matching(wanted, listed, ok):
    assert versions.matches(wanted, listed) is ok
