from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.perf import ingest

DATA = Path(__file__).parent / "data"


def test_nccl_tests_text_is_parsed_both_placements():
    rows, problems = ingest.parse_nccl_tests((DATA / "all_reduce_perf_h100x8.txt").read_text(), Path("x.txt"))
    assert not problems
    assert len(rows) == 12 and {r["placement"] for r in rows} == {"oop", "ip"}
    first = rows[0]
    assert first == {"op": "all_reduce", "bytes": 1048576, "count": 262144, "type": "float", "redop": "sum",
                     "root": -1, "placement": "oop", "time_us": 27.85, "algbw_gbps": 37.65, "busbw_gbps": 65.89,
                     "wrong": 0.0}
    # busbw = algbw * 2(n-1)/n with n = 8, as nccl-tests prints it
    assert all(abs(r["busbw_gbps"] - r["algbw_gbps"] * 1.75) < 0.02 for r in rows)


def test_nccl_tests_bad_rows_are_reported(tmp_path):
    bad = tmp_path / "alltoall_perf.log"
    bad.write_text("     1048576        262144     float    none      -1    27.85   37.65\n# nothing else\n")
    loaded = ingest.load([bad])
    assert any("alltoall_perf.log:1" in p for p in loaded.problems)


def test_loading_nccl_tests_into_metrics():
    loaded = ingest.load([DATA / "all_reduce_perf_h100x8.txt"])
    m = loaded.metrics["nccl/all_reduce/float/oop/1073741824/busbw_gbps"]
    assert m.samples == [442.98] and m.direction() == "higher"


def test_real_pytest_benchmark_json(tmp_path):
    test = tmp_path / "test_b.py"
    test.write_text("def test_sum(benchmark):\n    benchmark(sum, range(1000))\n")
    out = tmp_path / "bench.json"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test),
                    f"--benchmark-json={out}", "--benchmark-save-data", "--benchmark-max-time=0.05",
                    "--benchmark-min-rounds=5"], check=True, capture_output=True, cwd=tmp_path)
    loaded = ingest.load([out])
    (name,) = loaded.metrics
    assert name.endswith("test_sum/time_s") and len(loaded.metrics[name].samples) >= 5
    assert "machine_info" in loaded.env


def test_jsonl_with_bad_lines_loads_the_rest(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text('{"metric": "tokens_per_s", "values": [1, 2]}\nnot json\n[1]\n{"metric": "tokens_per_s", '
                    '"value": 3, "env": {"gpu": "H200"}}\n')
    loaded = ingest.load([path])
    assert loaded.metrics["tokens_per_s"].samples == [1.0, 2.0, 3.0]
    assert [p.split(": ")[0] for p in loaded.problems] == [f"{path}:2", f"{path}:3"]
    assert loaded.env == {"gpu": "H200"}


@pytest.mark.parametrize("content", [b"\x00\x01binary", b"\xff\xfe bad utf8 {"])
def test_unreadable_files_are_named(tmp_path, content):
    path = tmp_path / "weird.jsonl"
    path.write_bytes(content)
    loaded = ingest.load([path, DATA / "all_reduce_perf_h100x8.txt"])
    assert any(str(path) in p for p in loaded.problems)
    assert loaded.metrics  # the other file still loaded


def test_comm_results_from_the_h200_run_load_as_metrics():
    path = Path(__file__).parents[2] / "benchmarks/results/comm-h200x2-2026-11-30/allreduce.jsonl"
    loaded = ingest.load([path])
    key = "comm/all_reduce/float32/ip/1073741824/graph/busbw_gbps"
    assert len(loaded.metrics[key].samples) == 7
    assert json.loads(path.read_text().splitlines()[0])["backend_library"] == "NCCL"
