from __future__ import annotations

import pytest
import torch

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs 2 GPUs")]


@pytest.mark.parametrize("op", ["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "sendrecv"])
def test_every_collective_is_correct_and_graph_timed_on_nccl(tmp_path, op, comm_runner):
    rc, recs, log = comm_runner(tmp_path, 2, "--ops", op, "-b", "64K", "-e", "4M", "-f", "8", "--reps", "3",
                             "--timing", "graph", backend="nccl")
    assert rc == 0, log
    header, results = recs[0], recs[1:]
    assert header["backend_library"] == "NCCL" and header["backend_version"] != "unknown"
    assert results and all(r["correct"] and r["wrong"] == 0 for r in results), log
    assert all(r["timing"] == "graph" and r["busbw_gbps"] > 0 for r in results), log


def test_graph_timing_beats_plain_loop_at_small_sizes(tmp_path, comm_runner):
    rc, recs, log = comm_runner(tmp_path, 2, "--ops", "all_reduce", "-b", "64K", "-e", "64K", "--reps", "5",
                             "--timing", "graph,wall", backend="nccl")
    assert rc == 0, log
    by_mode = {r["timing"]: r["busbw_gbps"] for r in recs[1:]}
    assert by_mode["graph"] > by_mode["wall"], by_mode


def test_auto_timing_keeps_the_faster_mode_and_names_the_other(tmp_path, comm_runner):
    rc, recs, log = comm_runner(tmp_path, 2, "--ops", "all_reduce,all_to_all", "-b", "1M", "-e", "16M", "-f", "16",
                                "--reps", "5", backend="nccl")
    assert rc == 0, log
    assert recs[0]["link_peak"] is None or recs[0]["link_peak"]["gbps"] > 0
    for r in recs[1:]:
        assert r["timing_requested"] == "auto" and r["timing"] in ("graph", "events")
        assert r["timing_note"].startswith("auto: ") and r["correct"]
