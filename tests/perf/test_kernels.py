"""Kernel-level records: ncu output captured on an H200 (tests/perf/data/ncu, commands in commands.txt), a
rocprofv3 kernel trace written from its documented format (tests/perf/data/rocprofv3/README.md), compared
kernel by kernel with ``bench compare``; the static occupancy estimate from hipcc's resource remarks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.perf import kernels, occupancy
from cuda2rocm.perf.compare import compare
from cuda2rocm.perf.ingest import load

DATA = Path(__file__).parent / "data"
NCU = DATA / "ncu"
TRACE = DATA / "rocprofv3" / "two_kernels_kernel_trace.csv"


def test_ncu_csv_gives_one_launch_per_kernel_call_with_its_facts() -> None:
    parsed = kernels.parse((NCU / "two_kernels.ncu.csv").read_text(), "two_kernels.ncu.csv")
    assert not parsed.problems and parsed.profiler == "ncu"
    summary = {s.key: s for s in kernels.summarize(parsed.launches)}
    assert set(summary) == {"scale", "accumulate"}
    assert summary["scale"].calls == summary["accumulate"].calls == 20  # the program launches each 20 times
    assert summary["accumulate"].facts["shared_bytes"] == 1024  # __shared__ float tile[256]
    assert summary["scale"].facts["block_size"] == 256
    assert summary["scale"].facts["registers"] > 0 and 0 < summary["scale"].facts["achieved_occupancy_pct"] <= 100
    assert 5e-6 < summary["scale"].mean_s < summary["accumulate"].mean_s < 1e-3  # ns -> s, thousands separators


def test_rocprof_trace_keys_match_ncu_keys() -> None:
    parsed = kernels.parse(TRACE.read_text(), str(TRACE))
    assert not parsed.problems and parsed.profiler == "rocprofv3"
    rocm = {s.key: s for s in kernels.summarize(parsed.launches)}
    cuda = {s.key for s in kernels.summarize(kernels.parse((NCU / "two_kernels.ncu.csv").read_text(), "").launches)}
    assert set(rocm) == cuda  # "scale(float *, float, int)" and "scale(float*, float, int)" are one kernel
    assert rocm["accumulate"].facts == {"registers": 12, "shared_bytes": 1024, "block_size": 256}


def test_bad_rows_are_named_and_the_rest_loads(tmp_path: Path) -> None:
    text = TRACE.read_text().splitlines()
    text[3] = text[3].replace("1551874061", "x", 1)
    parsed = kernels.parse_rocprof("\n".join(text), "t.csv")
    assert [p.split(":")[:2] for p in parsed.problems] == [["t.csv", "4"]]
    assert len(parsed.launches) == 39
    assert kernels.parse_ncu("no header here", "x.csv").problems == \
        ['x.csv: no ncu CSV header ("ID","Process ID",...) found']


@pytest.mark.parametrize(("key", "name"), [("scale", "scale(float *, float, int)"),
                                           ("k<float,2>", "void k<float, 2>(float*, int)"),
                                           ("ns::f", "ns::f(int)")])
def test_base_name(key: str, name: str) -> None:
    assert kernels.base_name(name) == key


def test_overloads_keep_their_signatures() -> None:
    launches = [kernels.Launch("f(int)", 1e-6), kernels.Launch("f(float)", 2e-6), kernels.Launch("g(int)", 1e-6)]
    assert sorted(kernels.keys(launches).values()) == ["f(float)", "f(int)", "g"]


def test_compare_same_program_passes_and_slowed_kernel_fails_naming_it() -> None:
    base = load([NCU / "two_kernels.ncu.csv"]).metrics
    same = compare(base, load([NCU / "two_kernels_run2.ncu.csv"]).metrics)
    assert same.exit_code == 0 and {r.verdict for r in same.results} == {"ok"}
    slow = compare(base, load([NCU / "two_kernels_slow.ncu.csv"]).metrics)
    assert slow.exit_code == 1
    assert [r.name for r in slow.results if r.verdict == "regression"] == ["kernel/accumulate/time_s"]
    assert main(["bench", "compare", str(NCU / "two_kernels.ncu.csv"), str(NCU / "two_kernels_slow.ncu.csv")]) == 1


def test_bench_kernels_from_file_writes_records_compare_reads(tmp_path: Path) -> None:
    out = tmp_path / "cuda.jsonl"
    assert main(["bench", "kernels", "--from", str(NCU / "two_kernels.ncu.csv"), "-o", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["metric"] for r in recs if "metric" in r} == {"kernel/scale/time_s", "kernel/accumulate/time_s"}
    assert {r["key"] for r in recs if r.get("kind") == "kernel"} == {"scale", "accumulate"}
    loaded = load([out])
    assert not loaded.problems and len(loaded.metrics["kernel/scale/time_s"].samples) == 20


def test_kernel_map_matches_a_renamed_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    renamed = tmp_path / "renamed_kernel_trace.csv"
    renamed.write_text(TRACE.read_text().replace('"accumulate(', '"accumulate_wave64('))
    loaded = load([NCU / "two_kernels.ncu.csv"], {"accumulate": "accumulate_wave64"})
    assert "kernel/accumulate_wave64/time_s" in loaded.metrics
    mapping = tmp_path / "map.yaml"
    mapping.write_text("accumulate: accumulate_wave64\n")
    code = main(["bench", "compare", str(NCU / "two_kernels.ncu.csv"), str(renamed), "--kernel-map", str(mapping)])
    out = capsys.readouterr().out
    assert code in (0, 1) and "accumulate_wave64" in out and "only in" not in out.lower()


REMARKS = """\
k.hip:3:1: remark: Function Name: _Z9transposePKfPfi [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     SGPRs: 24 [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     VGPRs: 9 [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     AGPRs: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     ScratchSize [bytes/lane]: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]
k.hip:3:1: remark:     LDS Size [bytes/block]: 16384 [-Rpass-analysis=kernel-resource-usage]
"""


def test_occupancy_limited_by_lds_for_a_block_size() -> None:
    (kernel,) = occupancy.parse_remarks(REMARKS)
    assert (kernel.function, kernel.vgprs, kernel.lds_bytes, kernel.occupancy) == ("_Z9transposePKfPfi", 9, 16384, 8)
    # 64 KiB of LDS per CU holds 4 blocks; 4 waves of 64 per 256-thread block; 16 waves over 4 SIMDs
    est = occupancy.estimate(kernel, "MI250X", block_size=256)
    assert (est.waves_per_simd, est.max_waves_per_simd, est.limited_by) == (4, 8, "LDS")
    assert occupancy.estimate(kernel, "MI250X", block_size=1024).waves_per_simd == 8


def test_occupancy_limited_by_registers() -> None:
    kernel = occupancy.Resources("k", "k.hip", 1, vgprs=130, agprs=0, occupancy=3)
    est = occupancy.estimate(kernel, "MI300X")
    assert (est.waves_per_simd, est.limited_by) == (3, "registers")
    assert occupancy._by_vgprs(kernel, occupancy.limits()["gfx942"]) == 3  # 512 // 136


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
def test_occupancy_from_real_hipcc_remarks(tmp_path: Path) -> None:
    src = tmp_path / "k.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void tile(const float* x, float* y) {\n"
                   "  __shared__ float t[4096];\n  t[threadIdx.x] = x[threadIdx.x];\n  __syncthreads();\n"
                   "  y[threadIdx.x] = t[4095 - threadIdx.x];\n}\n")
    found, error = occupancy.compile_report(src, "gfx90a")
    assert not error, error
    (kernel,) = found
    assert kernel.lds_bytes == 16384 and kernel.vgprs > 0 and kernel.occupancy > 0
    assert occupancy.demangle(kernel.function).startswith("tile(")
    assert occupancy.estimate(kernel, "MI250X", 256).limited_by == "LDS"


@pytest.mark.parametrize(("name", "key", "sig"), [
    ("void at::native::gpu_kernel_impl_nocast<float>(at::TensorIteratorBase &, const float &)",
     "at::native::gpu_kernel_impl_nocast<float>",
     "void at::native::gpu_kernel_impl_nocast<float>(at::TensorIteratorBase&,const float&)"),
    ("void at::native::(anonymous namespace)::vec<4>(int, float *)", "at::native::(anonymous namespace)::vec<4>",
     "void at::native::(anonymous namespace)::vec<4>(int,float*)"),
    ("void  k<unsigned int, 2> (unsigned  int *)", "k<unsigned int,2>", "void k<unsigned int,2>(unsigned int*)"),
])
def test_keys_keep_the_blanks_cxx_needs(name: str, key: str, sig: str) -> None:
    """Issue 31, item 7: keys read ``voidat::gpu_kernel_impl_nocast``; words stay apart, punctuation does not."""
    assert kernels.base_name(name) == key and kernels.signature(name) == sig


def test_ncu_runs_with_the_gpus_own_clocks_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31, item 7: ncu locks clocks to base by default, so its times did not compare with unlocked runs.
    A stand-in ncu on PATH records its command line and answers with a captured CSV."""
    log = tmp_path / "argv.txt"
    fake = tmp_path / "bin" / "ncu"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\ncat {NCU / "two_kernels.ncu.csv"}\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{'/usr/bin:/bin'}")
    out = tmp_path / "k.jsonl"
    assert main(["bench", "kernels", "--profiler", "ncu", "-o", str(out), "--", "true"]) == 0
    assert main(["bench", "kernels", "--profiler", "ncu", "--profiler-option=--clock-control",
                 "--profiler-option=base", "--profiler-option=--replay-mode", "--profiler-option=application",
                 "-o", str(tmp_path / "b.jsonl"), "--", "true"]) == 0
    first, second = log.read_text().splitlines()
    assert "--clock-control none" in first and first.endswith(" true")
    assert "--clock-control base --replay-mode application true" in second and "none" not in second
    clocks = {json.loads(line).get("clock_control") for line in out.read_text().splitlines()} - {None}
    based = {json.loads(line).get("clock_control") for line in (tmp_path / "b.jsonl").read_text().splitlines()}
    assert clocks == {"none"} and based - {None} == {"base"}
    assert main(["bench", "kernels", "--from", str(NCU / "two_kernels.ncu.csv"), "--profiler-option=-x"]) == 2
