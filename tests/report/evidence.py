"""Real evidence for the delivery-report tests: records made with ``cuda2rocm.envelope.record`` from the typed
results of the real library calls on small inputs (scan and convert of the bundled example, compare of the
committed H200 captures, bench's comparison on fixed samples, the committed H200 env fingerprint and comm
records). A hand-built value is used only where no machine here can make one (a ROCm fingerprint, a smoke run on
a GPU, a hipcc failure) and is marked as such."""

from __future__ import annotations

import copy
import hashlib
import json
import tarfile
from functools import cache
from pathlib import Path
from typing import Any

from tests.envelope import samples

from cuda2rocm import envelope
from cuda2rocm.perf import compare as bench
from cuda2rocm.perf.commrun import load as load_comm
from cuda2rocm.perf.metrics import Metric
from cuda2rocm.results import ScanResult
from cuda2rocm.results.perf import CommRun
from cuda2rocm.results.regress import Outcome
from cuda2rocm.results.translate import ConvertSummary
from cuda2rocm.rewrite.runner import WritePolicy
from cuda2rocm.translate.summary import summarize
from cuda2rocm.workspace.store import records_dir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "llm-service"
H200_ENV = ROOT / "tests" / "envinfo" / "fixtures" / "env-h200.json"
H200_COMM = ROOT / "benchmarks" / "results" / "comm-h200x2-2026-11-30" / "allreduce.jsonl"
CAPTURES = ROOT / "benchmarks" / "results" / "gpu-2026-11-30" / "regress.tar.gz"
STAMP = "2026-12-01T09:{:02d}:00.000Z"


class Workspace:
    """A workspace folder whose records are numbered in the order they are added (fixed names and times, so
    reports of it are reproducible)."""

    def __init__(self, root: Path, config: str | None = None) -> None:
        self.root = root
        self.folder = records_dir(root)
        self.folder.mkdir(parents=True, exist_ok=True)
        if config is not None:
            (root / "cuda2rocm.toml").write_text(config, encoding="utf-8")
        self.n = 0

    def add(self, kind: str, payload: Any, *args: str, exit_status: int = 0, machine: str | None = None) -> Path:
        self.n += 1
        return envelope.record(kind, payload, self.folder / f"{self.n:03d}-{kind}.json",
                               command_line=("cuda2rocm", *(args or (kind,))), started_at=STAMP.format(self.n),
                               finished_at=STAMP.format(self.n), exit_status=exit_status, machine=machine)

    def artifact(self, role: str, name: str, text: str) -> envelope.Artifact:
        """``text`` stored as the workspace stores an input a result was computed from (by sha256)."""
        data = text.encode("utf-8")
        sha = hashlib.sha256(data).hexdigest()
        store = self.root / ".cuda2rocm" / "artifacts"
        store.mkdir(parents=True, exist_ok=True)
        (store / sha).write_bytes(data)
        return envelope.Artifact(role, f"/elsewhere/{name}", sha, len(data))

    def compared(self, kind: str, payload: Any, base: str, cand: str, *args: str, exit_status: int = 0) -> Path:
        """A compare or bench-compare record whose baseline and candidate inputs ran on ``base`` / ``cand``
        (``cuda``: an NVIDIA H200, ``rocm``: an AMD MI300X, ``cpu``), kept as stored artifacts: capture
        manifests for compare, bench JSONL with its fingerprint for bench compare."""
        make = side_manifest if kind == "compare" else side_bench
        arts = (self.artifact("baseline", f"{base}/{'manifest.json' if kind == 'compare' else 'base.jsonl'}",
                              make(base)),
                self.artifact("candidate", f"{cand}/{'manifest.json' if kind == 'compare' else 'cand.jsonl'}",
                              make(cand)))
        self.n += 1
        return envelope.record(kind, payload, self.folder / f"{self.n:03d}-{kind}.json",
                               command_line=("cuda2rocm", *(args or (kind,))), started_at=STAMP.format(self.n),
                               finished_at=STAMP.format(self.n), exit_status=exit_status, artifacts=arts)

    def add_raw(self, data: dict[str, Any]) -> Path:
        """An envelope written as given (a kind this tool does not know, another payload version)."""
        self.n += 1
        path = self.folder / f"{self.n:03d}-{data['kind']}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    def raw(self, kind: str, payload: Any, *args: str, exit_status: int = 0, version: str = "1") -> dict[str, Any]:
        """The JSON of an envelope of any kind (also one this tool version does not know)."""
        return {"kind": kind, "schema_version": envelope.SCHEMA_VERSION, "payload_schema_version": version,
                "tool": {"name": "cuda2rocm", "version": "0.2.0"}, "command_line": ["cuda2rocm", *(args or (kind,))],
                "started_at": STAMP.format(self.n + 1), "finished_at": STAMP.format(self.n + 1),
                "exit_status": exit_status, "project": {"path": "", "git_commit": None}, "machine": None,
                "payload": payload}


@cache
def scan_result() -> ScanResult:
    from cuda2rocm.scan.api import scan

    return scan(EXAMPLE)


@cache
def convert_summary() -> ConvertSummary:
    from cuda2rocm.translate.api import convert

    return summarize(convert(EXAMPLE, policy=WritePolicy(write=False)))


def h200_env() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(H200_ENV.read_text(encoding="utf-8"))
    return data


def rocm_env(*, gpu: str = "AMD Instinct MI300X", arch: str = "gfx942", container: bool = True,
             gpus: int = 8) -> dict[str, Any]:
    """Hand-built: there is no ROCm machine here. The shape is what ``cuda2rocm env`` writes on one."""
    fp = copy.deepcopy(samples.fingerprint())
    fp.update(host="mi300x-box", platform="rocm", cuda="", rocm="6.2.0", driver="6.8.5",
              gpus=[{"index": i, "vendor": "amd", "name": gpu, "arch": arch} for i in range(gpus)], gpu_count=gpus,
              container={"detected": container, "evidence": [".dockerenv"] if container else []})
    return fp


_DEVICES = {"cuda": ("cuda", "cuda", "NVIDIA H200"), "rocm": ("cuda", "rocm", "AMD Instinct MI300X"),
            "cpu": ("cpu", "cpu", "x86_64")}


def side_manifest(platform: str) -> str:
    """A capture manifest made on ``platform`` (the shape ``cuda2rocm capture`` writes; ROCm builds of torch
    name the device ``cuda`` and report the backend ``rocm``)."""
    device, backend, name = _DEVICES[platform]
    return json.dumps({"format": "cuda2rocm-capture", "version": 1, "entries": [], "seed": 0, "device": device,
                       "dtype": "float32", "fingerprint": {"backend": backend, "device": device,
                                                           "device_name": name}})


def side_bench(platform: str) -> str:
    """bench JSONL whose fingerprint names ``platform`` (the H200's, a ROCm one, or a machine with no GPU)."""
    fp = h200_env() if platform == "cuda" else rocm_env() if platform == "rocm" else \
        {**h200_env(), "platform": "none", "gpus": [], "cuda": "", "driver": ""}
    return json.dumps({"metric": "serve/tokens_per_s", "values": [1000.0], "env": fp}) + "\n"


def h200_comm() -> CommRun:
    run, problems = load_comm(H200_COMM)
    assert not problems
    return run


def rccl_comm(world_size: int, nnodes: int = 1, *, wrong: bool = False, problems: tuple[str, ...] = ()) -> CommRun:
    """The committed H200 run re-labelled as RCCL at another scale (no ROCm cluster here): same record shape."""
    run = h200_comm()
    header = {**run.header, "backend": "RCCL 2.20.5 (torch.distributed backend nccl)", "backend_library": "RCCL",
              "backend_version": "2.20.5", "world_size": world_size, "nnodes": nnodes,
              "backend_problems": list(problems)}
    records = [{**r, "world_size": world_size, "backend": header["backend"]} for r in run.records[:4]]
    if wrong:
        records[0] = {**records[0], "correct": False, "wrong": 3}
    return CommRun(header, records)


@cache
def captures(root: Path) -> Path:
    with tarfile.open(CAPTURES) as tar:
        tar.extractall(root, filter="data")
    return root / "regress"


def compare_outcome(base: str, cand: str) -> Outcome:
    """Compare two captures (paths as given: relative ones stay relative in the record)."""
    from cuda2rocm.regress.session import run_compare

    return run_compare(base, cand)


def bench_report(*, slower: bool = False, threshold: str = "serve/tokens_per_s>=0.9x") -> bench.Report:
    """bench's real comparison on fixed samples: CUDA baseline vs ROCm candidate."""
    base = {"serve/tokens_per_s": Metric("serve/tokens_per_s", [1000.0, 1012.0, 995.0, 1003.0, 990.0], "tok/s",
                                         "higher"),
            "serve/p95_latency_s": Metric("serve/p95_latency_s", [0.120, 0.118, 0.125, 0.121, 0.119], "s", "lower")}
    factor = 0.7 if slower else 1.04
    cand = {"serve/tokens_per_s": Metric("serve/tokens_per_s", [v * factor for v in base["serve/tokens_per_s"].samples],
                                         "tok/s", "higher"),
            "serve/p95_latency_s": Metric("serve/p95_latency_s", [0.117, 0.116, 0.121, 0.118, 0.120], "s", "lower")}
    return bench.compare(base, cand, bench.policy_from([threshold] if threshold else []))


def migrate_payload(files: list[tuple[str, str]], generated: tuple[str, ...] = (),
                    rules: tuple[str, ...] = ()) -> dict[str, Any]:
    """A migrate-build/-deploy payload as ``migrate.summary.MigrationSummary`` writes it: files[] (path, status,
    findings), added[] (path, status); the findings of ``rules`` on the first file."""
    from cuda2rocm.envelope.codec import encode
    from cuda2rocm.model import Confidence, Finding, Layer, Severity
    from cuda2rocm.results.migrate import AddedFile, MigratedFile, MigrationSummary

    found = tuple(Finding(r, Severity.MEDIUM, Confidence.HIGH, Layer.OPS, files[0][0] if files else "", 1, 1, "m")
                  for r in rules)
    out = [MigratedFile(p, s, findings=found if i == 0 else ()) for i, (p, s) in enumerate(files)]
    if not files and found:
        out = [MigratedFile("deploy.yaml", "unchanged", findings=found)]
    summary = MigrationSummary("deploy", "in-place", tuple(out), tuple(AddedFile(g, "added") for g in generated))
    data: dict[str, Any] = encode(summary)
    return data


CLEAN_CU = """#include <cuda_runtime.h>

__global__ void fill(float* x, float v) { x[blockIdx.x * blockDim.x + threadIdx.x] = v; }

int main() {
    float* d = nullptr;
    cudaMalloc(&d, 256 * sizeof(float));
    fill<<<1, 256>>>(d, 1.0f);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
"""


def clean_project(root: Path) -> Path:
    """A one-file CUDA project with nothing unsupported: no plugin, no math library, every API mapped."""
    project = root / "clean"
    project.mkdir(parents=True, exist_ok=True)
    (project / "fill.cu").write_text(CLEAN_CU, encoding="utf-8")
    return project


def scan_of(project: Path) -> ScanResult:
    from cuda2rocm.scan.api import scan

    return scan(project)


def convert_of(project: Path) -> ConvertSummary:
    from cuda2rocm.translate.api import convert

    return summarize(convert(project, policy=WritePolicy(write=False)))


def broken_project(root: Path) -> Path:
    """The clean project plus a .cu file with a comment never closed (convert fails on it, and says so; a file
    that is not UTF-8 is translated since issue 16)."""
    project = clean_project(root)
    (project / "bad.cu").write_bytes(b"__global__ void k() {}\n/* never closed\n")
    return project
