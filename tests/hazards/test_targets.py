"""Hazard targets are the knowledge base's GPUs: one GPU table for the project."""

from __future__ import annotations

import pytest

from cuda2rocm import knowledge
from cuda2rocm.hazards import UnknownTarget, resolve


@pytest.mark.parametrize("name", sorted(n for n, g in knowledge.gpus().items() if g.vendor == "amd"))
def test_every_amd_gpu_resolves_to_its_knowledge_facts(name: str) -> None:
    gpu = knowledge.gpus()[name]
    t = resolve(name)
    assert (t.name, t.gfx, t.wavefront) == (gpu.name, gpu.gfx_target, gpu.wavefront_size)
    assert t.lds_kib == int(gpu.max_lds_per_workgroup_kib or gpu.lds_kib or 0) > 0
    assert t.fp8 == (gpu.fp8 or "none")


@pytest.mark.parametrize(("name", "gfx", "fp8"), [
    ("MI300X", "gfx942", "fnuz"), ("gfx942", "gfx942", "fnuz"), ("MI355X", "gfx950", "ocp"),
    # the FP8 encoding is the GPU's, however it is spelled (a second table keyed by spelling said "none" here)
    ("AMD Instinct MI355X", "gfx950", "ocp"), ("instinct mi325x", "gfx942", "fnuz"),
    ("MI250X", "gfx90a", "none"), ("gfx1100", "gfx1100", "none"),
])
def test_names_and_gfx_ids(name: str, gfx: str, fp8: str) -> None:
    t = resolve(name)
    assert (t.gfx, t.fp8) == (gfx, fp8)


@pytest.mark.parametrize("name", ["H100", "sm_90", "nonsense", "MI50"])
def test_nvidia_unknown_and_factless_gpus_are_unknown_targets(name: str) -> None:
    with pytest.raises(UnknownTarget, match=r"known: .*MI300X"):
        resolve(name)
