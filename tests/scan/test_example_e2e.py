"""End to end on the bundled example: every planted scan/python/deployment/build item is found at its file
and line by the rule this table names, and no decoy line gets a finding from any rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cuda2rocm.scan.api import scan

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm-service"
DATA = YAML(typ="safe").load((EXAMPLE / "expectations.yaml").read_text(encoding="utf-8"))
#: tag -> the scan rule that reports it (families scan, python, deployment and the build items scan covers)
RULE_OF = {
    "cublas-include": "C2R-S112", "cublas-gemmex": "C2R-S112", "thrust-sort": "C2R-S112",
    "nccl-include": "C2R-S112", "nccl-allreduce": "C2R-S112", "cmake-cudatoolkit": "C2R-S101",
    "cmake-cuda-arch": "C2R-S110", "cmake-cublas-link": "C2R-S111", "torch-extension": "C2R-S105",
    "nvcc-gencode": "C2R-S110", "docker-cuda-image": "C2R-D101", "docker-arch-list": "C2R-P105",
    "docker-nccl-p2p": "C2R-D103", "docker-nccl-ib": "C2R-D103", "docker-nccl-nvls": "C2R-D103",
    "k8s-node-selector": "C2R-D102", "k8s-nccl-debug": "C2R-D103", "k8s-nccl-ifname": "C2R-D103",
    "k8s-gpu-request": "C2R-D102", "launch-nvidia-smi": "C2R-D104", "launch-nccl-async": "C2R-D103",
    "launch-cuda-max-conn": "C2R-D108", "launch-torchrun": "C2R-D106", "req-torch-cu121": "C2R-S102",
    "req-cu121-index": "C2R-S102", "req-flash-attn": "C2R-S203", "req-bitsandbytes": "C2R-S203",
    "req-xformers": "C2R-S202", "req-nvidia-nccl": "C2R-S102", "req-pynvml": "C2R-P103",
    "py-pynvml-import": "C2R-P103", "py-cudnn-benchmark": "C2R-P104", "py-tf32-flag": "C2R-P104",
    "py-capability-compare": "C2R-P101", "py-capability-call": "C2R-P101", "py-device-name-match": "C2R-P102",
    "py-flash-attn-import": "C2R-S203", "py-bnb-import": "C2R-S203",
    "cublas-tf32": "C2R-S112", "thrust-cuda-policy": "C2R-S112",
}
OURS = [item for item in DATA["planted"] if item["family"] in ("scan", "python", "deployment")
        or item["tag"] in RULE_OF]


@pytest.fixture(scope="module")
def findings() -> set[tuple[str, str, int]]:
    return {(f.rule, f.path, f.line) for f in scan(EXAMPLE).findings}


def test_every_scan_family_item_has_a_rule() -> None:
    assert {item["tag"] for item in OURS} <= set(RULE_OF)


@pytest.mark.parametrize("item", OURS, ids=lambda item: item["tag"])
def test_planted_item_found(item: dict[str, object], findings: set[tuple[str, str, int]]) -> None:
    assert (RULE_OF[str(item["tag"])], item["path"], item["line"]) in findings


@pytest.mark.parametrize("decoy", DATA["decoys"], ids=lambda item: item["tag"])
def test_decoy_not_flagged(decoy: dict[str, object], findings: set[tuple[str, str, int]]) -> None:
    assert not [r for r, p, line in findings if p == decoy["path"] and line == decoy["line"]]


def test_parallel_scan_gives_the_same_result() -> None:
    one, two = scan(EXAMPLE), scan(EXAMPLE, jobs=2)
    assert one.findings == two.findings and one.inventory == two.inventory and one.files == two.files
    assert one.layers == two.layers and one.risk == two.risk


def test_assessment_of_the_example() -> None:
    result = scan(EXAMPLE)
    levels = {str(la.layer): la.difficulty for la in result.layers}
    assert levels["low-level"] == "high"  # inline PTX, wave64 and LDS hazards
    assert levels["ops"] == "high"  # NCCL tuning, nvidia.com/gpu, nvidia-smi
    assert levels["extension"] in ("medium", "high")
    assert "multi-node NCCL/NVLink tuning" in result.risk.signals
    # two critical K402 findings (96 KB of LDS) and inline PTX: high (it was "medium" before issue 18)
    assert result.risk.level == "high" and result.risk.signals[0] == "2 critical finding(s) without an automatic fix"
    assert result.risk.effort_person_days[0] < result.risk.effort_person_days[1]
    assert "setup.py" in result.risk.poc_recommendation and "gfx942" in result.risk.poc_recommendation
    assert result.deployment.scale == "kubernetes"


def test_an_empty_tree_has_nothing_to_port(tmp_path: Path) -> None:
    """Was "Risk: high, 5-21 person-days" beside "Nothing to port was found."."""
    from cuda2rocm.report import render

    result = scan(tmp_path)
    assert result.risk is not None
    assert (result.risk.level, result.risk.effort_person_days, result.risk.signals) == ("none", (0, 0), ())
    text = render(result, "text")
    assert "Risk: none" in text and "Effort: 0 person-days" in text and "Nothing to port was found." in text
