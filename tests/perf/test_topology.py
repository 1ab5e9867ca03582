from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.perf import links, topology

DATA = Path(__file__).parent / "data"


def test_real_h200_pair_topology_and_peak():
    topo = topology.parse_nvidia_smi((DATA / "nvidia_smi_topo_h200x2.txt").read_text())
    assert topo.link(0, 1) == "NV18" and topo.numa == {0: "0", 1: "0"}
    peak = links.peak("NVIDIA H200", topo.link(0, 1), 2)
    assert peak is not None and peak.gbps == 450.0 and peak.label == "NVLink4 x18"
    assert topology.warnings(topo, [0, 1]) == []


def test_split_machine_warns_about_pcie_numa_and_nics():
    topo = topology.parse_nvidia_smi((DATA / "nvidia_smi_topo_split.txt").read_text())
    assert topo.link(1, 2) == "SYS" and topo.nics[0] == {"NIC0": "PIX", "NIC1": "SYS"}
    warnings = topology.warnings(topo, [0, 1, 2, 3])
    assert any("GPU0-GPU2 connected via SYS" in w for w in warnings)
    assert any("NUMA nodes" in w for w in warnings)
    assert any(w.startswith("GPU2 has no NIC") for w in warnings)
    assert not any(w.startswith("GPU0 has no NIC") for w in warnings)
    assert topology.warnings(topo, [0, 1]) == []


def test_rocm_smi_topology_and_xgmi_peak():
    topo = topology.parse_rocm_smi((DATA / "rocm_smi_showtopo.txt").read_text())
    assert topo.link(0, 3) == "XGMI" and topo.link(2, 2) == "X"
    assert topo.numa == {0: "0", 1: "0", 2: "1", 3: "1"}
    assert any("NUMA" in w for w in topology.warnings(topo, [0, 1, 2, 3]))
    assert links.peak("AMD Instinct MI300X", "XGMI", 8).gbps == 7 * 64  # type: ignore[union-attr]
    assert links.peak("AMD Instinct MI300X", "XGMI", 2).gbps == 64  # type: ignore[union-attr]


@pytest.mark.parametrize(("gpu", "link", "gbps"), [("NVIDIA A100-SXM4-80GB", "NV12", 300), ("NVIDIA B200", "NV18", 900),
                                                   ("NVIDIA H100 80GB HBM3", "NV18", 450), ("NVIDIA H200", "SYS", None),
                                                   ("Tesla T4", "NV1", None)])
def test_link_peaks(gpu, link, gbps):
    peak = links.peak(gpu, link, 8)
    assert (peak.gbps if peak else None) == gbps


def test_link_table_has_sources_and_dates():
    rows = links.table()
    assert len(rows) >= 8 and all(r.source and r.date == "2026-11-30" and r.per_link > 0 for r in rows)


def test_no_tool_no_topology():
    assert topology.parse_nvidia_smi("garbage").links == {}
    assert topology.parse_rocm_smi("").links == {}


def test_scaling_and_mode_tables():
    from cuda2rocm.perf import summary

    def rec(size, bw, mode="auto"):
        return {"kind": "comm", "op": "all_reduce", "bytes": size, "busbw_gbps": bw, "timing": "graph",
                "timing_requested": mode}

    runs = {2: [rec(1 << 20, 40.0), rec(1 << 30, 330.0)], 8: [rec(1 << 20, 30.0), rec(1 << 30, 360.0)]}
    table = summary.scaling_table(runs, "all_reduce", "auto", 450.0).splitlines()
    assert table[0].startswith("| size | 2 GPUs | 8 GPUs | % peak (8) | efficiency 2->8 |")
    assert table[2] == "| 1M | 40.0 | 30.0 | 7% | 0.75 |" and table[3] == "| 1G | 330.0 | 360.0 | 80% | 1.09 |"
    modes = summary.mode_table([rec(16 << 20, 200.0, "graph"), rec(16 << 20, 210.0, "events")], "all_reduce",
                               summary.NCCL_TESTS_H200X2_ALL_REDUCE, ("graph", "events"))
    assert "| 16M | 200.0 | 210.0 | 210.0 | 212.0 | 0.99 | met (>= 0.95x) |" in modes
