from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.perf import service, soak, telemetry

ROOT = Path(__file__).parents[2]


def _jsonl(path, name, values, **extra):
    path.write_text(json.dumps({"metric": name, "values": list(map(float, values)), **extra}) + "\n")
    return str(path)


def test_run_a_command_records_samples_and_env(tmp_path):
    out = tmp_path / "run.jsonl"
    rc = main(["bench", "run", "-n", "3", "--warmup", "1", "--name", "noop", "-o", str(out), "--",
               sys.executable, "-c", "pass"])
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert rc == 0 and recs[0]["metric"] == "noop/time_s" and len(recs[0]["values"]) == 3
    assert all(v > 0 for v in recs[0]["values"]) and recs[0]["env"]["python"]
    assert recs[1] == {"metric": "noop/errors", "value": 0, "better": "lower", "errors": []}


def test_failing_command_exits_1_and_refuses_to_clobber(tmp_path):
    out = tmp_path / "run.jsonl"
    assert main(["bench", "run", "-n", "2", "--warmup", "0", "-o", str(out), "--", sys.executable, "-c",
                 "raise SystemExit(3)"]) == 1
    assert main(["bench", "run", "-n", "1", "-o", str(out), "--", sys.executable, "-c", "pass"]) == 2
    assert main(["bench", "run", "-n", "1", "-o", str(out), "--force", "--", sys.executable, "-c", "pass"]) == 0


def test_run_a_callable(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    out = tmp_path / "c.jsonl"
    rc = main(["bench", "run", "--callable", "tests.perf.workloads:matmul", "-n", "5", "-o", str(out)])
    rec = json.loads(out.read_text().splitlines()[0])
    assert rc == 0 and len(rec["values"]) == 5 and rec["timer"] in ("wall", "cuda-events")
    assert main(["bench", "run", "--callable", "tests.perf.workloads:flaky", "-n", "6", "--warmup", "0"]) == 1
    assert main(["bench", "run", "--callable", "tests.perf.workloads:nope"]) == 2
    assert main(["bench", "run"]) == 2


@pytest.mark.parametrize(("cand_mean", "rc"), [(700, 1), (1000, 0), (1300, 0)])
def test_compare_exit_codes(tmp_path, cand_mean, rc):
    rng = np.random.default_rng(cand_mean)
    base = _jsonl(tmp_path / "b.jsonl", "tokens_per_s", rng.normal(1000, 10, 12), env={"gpu": "H200"})
    cand = _jsonl(tmp_path / "c.jsonl", "tokens_per_s", rng.normal(cand_mean, 10, 12), env={"gpu": "MI300X"})
    assert main(["bench", "compare", base, cand]) == rc
    assert main(["bench", "compare", base, cand, "-t", "tokens_per_s>=0.9x"]) == (1 if cand_mean < 900 else 0)


def test_compare_prints_env_differences_and_cost(tmp_path, capsys):
    base = _jsonl(tmp_path / "b.jsonl", "step_time_s", [2.0, 2.1, 1.9, 2.0], env={"gpu": "H200"})
    cand = _jsonl(tmp_path / "c.jsonl", "step_time_s", [2.5, 2.4, 2.6, 2.5], env={"gpu": "MI300X"})
    rc = main(["bench", "compare", base, cand, "--task-metric", "step_time_s", "--price", "4.0", "2.0",
               "--gpus", "8", "-t", "step_time_s<=1.3x"])
    out = capsys.readouterr().out
    assert rc == 0 and "gpu: 'H200' -> 'MI300X'" in out and "x0.625" in out


def test_compare_bad_inputs_exit_2(tmp_path):
    empty = tmp_path / "e.jsonl"
    empty.write_text("garbage\n")
    good = _jsonl(tmp_path / "g.jsonl", "x_s", [1, 2, 3])
    assert main(["bench", "compare", str(empty), good]) == 2
    assert main(["bench", "compare", good, good, "-t", "nonsense"]) == 2


def test_service_from_log(tmp_path, capsys):
    log = tmp_path / "req.jsonl"
    lines = [{"start": i * 0.1, "latency_ms": 100 + i, "ttft_s": 0.01, "tokens": 10} for i in range(100)]
    log.write_text("\n".join(map(json.dumps, lines)) + "\nbad line\n")
    out = tmp_path / "svc.jsonl"
    assert main(["bench", "service", "--log", str(log), "-o", str(out)]) == 0
    values = {json.loads(x)["metric"]: json.loads(x)["value"] for x in out.read_text().splitlines()}
    assert values["service/latency_p50_s"] == pytest.approx(np.percentile(np.arange(100) + 100, 50) / 1e3)
    assert values["service/latency_p99_s"] == pytest.approx(np.percentile(np.arange(100) + 100, 99) / 1e3)
    assert values["service/ttft_p95_s"] == pytest.approx(0.01)
    assert values["service/throughput_rps"] == pytest.approx(100 / (9.9 + 0.199))
    assert "req.jsonl:101" in capsys.readouterr().out


def test_service_callable_sweep_measures_ttft_and_concurrency(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.perf import workloads

    values = service.sweep(workloads.stream, [1, 4], 16)
    assert values["service/c1/ttft_p50_s"] >= 0.002 and values["service/c4/tokens_per_s"] > 0
    assert values["service/c4/throughput_rps"] > values["service/c1/throughput_rps"]  # sleeps overlap
    assert values["service/c1/error_rate"] == 0


def test_soak_reports_drift_and_errors():
    delays = iter([0.001] * 10 + [0.02] * 10)

    def slowing() -> None:
        import time

        time.sleep(next(delays, 0.02))

    rows = [{"gpu": 0, "power_w": 300.0 + i, "throttled": i == 3, "ecc_errors": i // 2} for i in range(5)]
    result = soak.soak(slowing, 0.3, source=lambda: rows[:1], interval=0.05)
    assert result.drift() > 0.5 and result.slope_per_hour() > 0
    problems = result.problems(max_drift=0.05)
    assert any("slower at the end" in p for p in problems)


def test_telemetry_parsers_and_summary():
    text = ("0, 412.30, 61, 1980, 81234, 97, 0, 0x0000000000000000\n"
            "1, 398.10, 59, 1755, 81200, 95, 2, 0x0000000000000004\n")
    rows = telemetry.parse_nvidia_smi_csv(text)
    assert rows[0]["power_w"] == 412.3 and rows[1]["throttled"] and not rows[0]["throttled"]
    samples = [{**r, "t": t, "ecc_errors": r["ecc_errors"] + t} for t in range(3) for r in rows]
    summary = telemetry.summarize(samples)
    assert summary["gpu1"]["ecc_increase"] == 2 and summary["gpu1"]["throttled_fraction"] == 1.0
    assert summary["gpu0"]["sm_clock_mhz"] == {"min": 1980.0, "mean": 1980.0, "max": 1980.0}
    amd = telemetry.parse_rocm_smi_json(json.dumps({"card0": {"Average Graphics Package Power (W)": "650.0",
                                                              "Temperature (Sensor edge) (C)": "55.0",
                                                              "GPU use (%)": "99"}}))
    assert amd[0]["power_w"] == 650.0 and amd[0]["util_pct"] == 99.0
    assert telemetry.sparkline([1, 2, 3, 4]) == "▁▃▅█"
    assert telemetry.parse_rocm_smi_json("not json") == []


def test_telemetry_without_a_gpu_tool_says_so(tmp_path, capsys):
    _name, source = telemetry.find_source()
    rc = main(["bench", "run", "--telemetry", "-n", "1", "--", sys.executable, "-c", "pass"])
    assert rc == 0
    if source is None:
        assert "not sampled" in capsys.readouterr().out


def test_compare_with_a_threshold_that_matches_nothing_is_a_usage_error(tmp_path, capsys):
    base = _jsonl(tmp_path / "b.jsonl", "tokens_per_s", [1000, 1010, 990, 1000])
    cand = _jsonl(tmp_path / "c.jsonl", "tokens_per_s", [660, 670, 650, 660])
    assert main(["bench", "compare", base, cand, "-t", "nonexistent<=1.1x"]) == 2
    assert "'nonexistent <= 1.1x' matches no metric" in capsys.readouterr().err
    assert main(["bench", "compare", base, cand, "-t", "tokens_per_s>=0.95x"]) == 1
