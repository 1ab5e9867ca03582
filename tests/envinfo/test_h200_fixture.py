"""The fingerprints taken on the lent H200 machines (scripts/gpu/env.sh): one GPU (fixtures/env-h200.json)
and two NVLink-connected GPUs (NAME=env-h200x2, fixtures/env-h200x2.json)."""

from __future__ import annotations

import re

import pytest

from cuda2rocm import knowledge
from cuda2rocm.envinfo.diff import load
from cuda2rocm.envinfo.labels import labels


@pytest.fixture(params=["env-h200.json", "env-h200x2.json"])
def h200(fixtures, request):
    path = fixtures / request.param
    if not path.is_file():
        pytest.skip(f"fixtures/{request.param} not recorded yet (run scripts/gpu/env.sh on the H200 machines)")
    return load(path)


def test_h200_gpus_and_driver(h200):
    assert h200["platform"] == "cuda" and h200["gpu_count"] >= 1
    for gpu in h200["gpus"]:
        assert "H200" in gpu["name"] and gpu["compute_capability"] == "9.0" and gpu["arch"] == "sm_90"
        assert gpu["memory_mib"] > 130_000
        assert knowledge.get_gpu(gpu["name"]).name == "H200"
    assert h200["driver"].startswith("580.")
    assert h200["cuda"].startswith("13.")


def test_h200_torch_and_nccl(h200):
    torch = h200["frameworks"]["torch"]
    assert re.match(r"2\.11\.", torch["version"]) and torch["cuda"].startswith("13.")
    assert torch["hip"] is None and torch["available"] is True
    assert len(torch["devices"]) == h200["gpu_count"]
    assert re.fullmatch(r"2\.2[89]\.\d+", h200["libraries"]["nccl"])
    assert labels(h200)["io.cuda2rocm.env.lib.nccl"] == h200["libraries"]["nccl"]


def test_h200_links_when_two_gpus(h200):
    if h200["gpu_count"] < 2:
        pytest.skip("one GPU: no links to check")
    links = h200["topology"]["links"]
    n = h200["gpu_count"]
    assert len(links) == n * (n - 1)  # every ordered pair of GPUs
    assert all(re.fullmatch(r"NV\d+", v) for v in links.values())
