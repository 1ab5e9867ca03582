"""One hand-built (deterministic) result per envelope kind, for round-trip and golden tests."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from tests.report.sample import sample_result

from cuda2rocm.model import Confidence, Finding, InputProblem, Layer, Severity
from cuda2rocm.perf import compare as cmp
from cuda2rocm.perf.commrun import load
from cuda2rocm.perf.metrics import Metric
from cuda2rocm.results.compat import CompatReport, Query, Recommendation, Verdict
from cuda2rocm.results.migrate import AddedFile, MigratedFile, MigrationSummary
from cuda2rocm.results.perf import CommRun, Report
from cuda2rocm.results.regress import (
    Check,
    CompareResult,
    Curve,
    CurveReport,
    Entry,
    Manifest,
    MetricReport,
    Outcome,
    SmokeReport,
    TensorReport,
    TensorStats,
    Tolerance,
)
from cuda2rocm.results.stats import FileStats
from cuda2rocm.results.translate import CompileOutcome, ConvertSummary, FileSummary, MappedDiagnostic, VerifySummary

COMM_RESULTS = Path(__file__).parents[2] / "benchmarks/results/comm-h200x2-2026-11-30"

K101 = Finding("C2R-K101", Severity.HIGH, Confidence.HIGH, Layer.LOW_LEVEL, "csrc/reduce.cu", 12, 16,
               "lane index assumes a 32-lane warp", "use warpSize")


def convert_summary() -> ConvertSummary:
    stats = FileStats("csrc/reduce.cu", "translated", 80, {("runtime", "function"): 3, ("cublas", "type"): 1}, 0, 1,
                      0.0125)
    return ConvertSummary((
        FileSummary("csrc/reduce.cu", "translated", "out/csrc/reduce.hip", True, "", "", 0, 4, "ab" * 32, (K101,),
                    stats),
        FileSummary("csrc/host.cpp", "unchanged", stats=FileStats("csrc/host.cpp", "unchanged", 10)),
        FileSummary("csrc/bad.cu", "failed", reason="not UTF-8", line=3, stats=FileStats("csrc/bad.cu", "failed")),
    ), 0.5)


def verify_summary() -> VerifySummary:
    diag = MappedDiagnostic("csrc/reduce.cu", 12, 14, 5, "error", "use of undeclared identifier '__shfl_down_sync'")
    return VerifySummary("gfx90a", (
        CompileOutcome("csrc/reduce.cu", False, (diag,), ("hipcc", "--offload-arch=gfx90a", "-c", "reduce.hip"), 1.5,
                       "reduce.hip:14:5: error: ..."),
        CompileOutcome("csrc/host.cpp", True, (), ("hipcc", "-c", "host.cpp"), 0.25),
    ))


def fingerprint() -> dict[str, Any]:
    return {"schema": "cuda2rocm.env/1", "tool_version": "0.1.0", "collected_at": "2026-11-30T10:00:00+00:00",
            "host": "h200-box", "os": {"name": "Ubuntu 22.04"}, "kernel": "6.5.0", "machine": "x86_64",
            "python": "3.11.9", "platform": "cuda", "gpus": [{"index": 0, "name": "NVIDIA H200", "arch": "sm_90"}],
            "gpu_count": 1, "driver": "550.90", "cuda": "12.4", "rocm": "", "notes": []}


def compare_outcome() -> Outcome:
    tol = Tolerance("bf16", 1e-2, 1.6e-2, 1e-3, 1e-2, 0.999)
    stats = TensorStats(4096, 0.25, math.inf, None, 0.01, 0.9999, 3, 0, 1, 0, 0, 1, 17)
    tensors = CompareResult("cuda/", "rocm/", (
        TensorReport("layer1.out", "pass", "BF16", (2, 2048), "bf16", tol, stats),
        TensorReport("layer2.out", "fail", "BF16", (2, 2048), "bf16", tol, stats, ("rel L2 0.01 > 0.001",)),
        TensorReport("head.weight", "missing-in-candidate"),
    ), ("candidate has extra tensors",))
    curve = CurveReport("loss", 3, 1, 2.0, 0.125, 1.5, math.nan, False, True, ("outside the band",),
                        Curve("loss", (0.0, 1.0, 2.0), (2.0, 1.75, 1.5)), Curve("loss", (0.0, 1.0, 2.0),
                                                                                   (2.0, 1.8, math.nan)))
    metrics = [MetricReport("accuracy", 0.91, 0.905, True), MetricReport("bleu", None, 31.0, False, "missing")]
    return Outcome(tensors, [curve], metrics)


def bench_report() -> Report:
    base = {"tokens_per_s": Metric("tokens_per_s", [1000.0, 1010.0, 990.0, 1005.0], "tok/s", "higher"),
            "step_time_s": Metric("step_time_s", [2.0, 2.1, 1.9]), "only_base_s": Metric("only_base_s", [1.0])}
    cand = {"tokens_per_s": Metric("tokens_per_s", [900.0, 905.0, 910.0, 895.0], "tok/s", "higher"),
            "step_time_s": Metric("step_time_s", [2.5, 2.4, 2.6])}
    report = cmp.compare(base, cand, cmp.policy_from(["tokens_per_s>=0.95x"]))
    return Report(report.results, ("gpu: 'H200' -> 'MI300X'",), {"step_time_s": "baseline 1, candidate 2"})


def bench_records() -> list[dict[str, Any]]:
    return [{"metric": "noop/time_s", "values": [0.5, 0.25], "unit": "s", "better": "lower", "timer": "wall",
             "env": {"host": "box", "python": "3.11.9"}},
            {"metric": "noop/errors", "value": 0, "better": "lower", "errors": []}]


def comm_run() -> CommRun:
    run, problems = load(COMM_RESULTS / "allreduce.jsonl")
    assert not problems
    return CommRun(run.header, run.records[:3])


def smoke_report() -> SmokeReport:
    return SmokeReport("cuda:0", Check("forward", True), 120, (("aten::nonzero", 2),), ("aten::foo",),
                       ("flash",), (Check("bfloat16", True), Check("float16", False, "NaN loss")), 2**30, "allocated",
                       (Check("nan-input", True, "propagates"),))


B101 = Finding("C2R-B101", Severity.MEDIUM, Confidence.HIGH, Layer.LOW_LEVEL, "CMakeLists.txt", 3, 1,
               "project(... LANGUAGES CUDA)", "use HIP")


def migrate_build() -> MigrationSummary:
    return MigrationSummary("build", "mirror", (
        MigratedFile("CMakeLists.txt", "changed", "out/CMakeLists.txt", True, "", 3, "cd" * 32, (), (B101,)),
        MigratedFile("Makefile", "unchanged", "out/Makefile", True),
        MigratedFile("bad/CMakeLists.txt", "failed", problems=("4: unterminated bracket argument",)),
    ), (), (InputProblem("link", "symbolic link to /etc not followed"),),
        {"gfx": ["gfx942"], "style": "language", "renames": {"k.cu": "k.hip"}}, (B101,), 0.25)


def migrate_deploy() -> MigrationSummary:
    m101 = Finding("C2R-M101", Severity.HIGH, Confidence.HIGH, Layer.OPS, "k8s/deploy.yaml", 12, 9,
                   "requests nvidia.com/gpu", "request amd.com/gpu")
    return MigrationSummary("deploy", "diff", (
        MigratedFile("Dockerfile", "changed", edits=2, output_sha256="ef" * 32),
        MigratedFile("k8s/deploy.yaml", "changed", edits=1, output_sha256="01" * 32, findings=(m101,)),
    ), (AddedFile("k8s/deploy-rocm-canary.yaml", "added", False, "", "23" * 32),),
        options={"gfx": ["gfx90a", "gfx942"], "rocm": "6.4", "os": "ubuntu22.04", "canary": 1}, seconds=0.5)


def capture_manifest() -> Manifest:
    return Manifest((Entry("act/conv1", "F32", (2, 64, 16, 16), "activation", "conv1"), Entry("output", "BF16", (2, 10),
                                                                                              "output")),
                    0, "ab" * 32, "cuda", "float32", True, False, "target.py", "2026-11-30T01:23:36+00:00",
                    {"torch": "2.11.0+cu130", "device_name": "NVIDIA H200"})


def compat_report() -> CompatReport:
    return CompatReport(Query("MI300X", "6.4", "", {"pytorch": "2.6"}), "6.4.3", (
        Verdict("gpu MI300X / rocm 6.4.3", "supported", "listed", "ROCm 6.4.3 compatibility matrix"),
        Verdict("pytorch 2.6 / rocm 6.4.3", "unknown", "not in the matrix"),
    ), ("6.4 means 6.4.3",), Recommendation("6.4.3", "ubuntu-22.04", {"pytorch": "2.6"}, "matrix"))


SAMPLES = {
    "scan": sample_result,
    "convert": convert_summary,
    "verify": verify_summary,
    "env": fingerprint,
    "compare": compare_outcome,
    "bench-compare": bench_report,
    "bench-run": bench_records,
    "comm": comm_run,
    "smoke": smoke_report,
    "migrate-build": migrate_build,
    "migrate-deploy": migrate_deploy,
    "capture": capture_manifest,
    "compat": compat_report,
}
