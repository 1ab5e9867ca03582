"""Overall risk from the high-risk signals, an effort range and a proof-of-concept recommendation."""

from __future__ import annotations

from cuda2rocm import knowledge
from cuda2rocm.assess.layers import nothing_to_port
from cuda2rocm.model import Severity
from cuda2rocm.results import LayerAssessment, RiskAssessment, ScanResult

#: signals that alone make a project high-risk
HARD_SIGNALS = ("closed CUDA binaries/plugins", "TensorRT dependence")
MUCH_PTX = 5
MANY_KERNELS = 5
_DAYS = {"low": (0, 1), "medium": (2, 5), "high": (5, 15)}


def critical_findings(r: ScanResult) -> int:
    """Critical findings (input problems aside): each is code that breaks on the target as it stands."""
    return sum(1 for f in r.findings if f.severity >= Severity.CRITICAL and not f.rule.startswith("C2R-E"))


def signals(r: ScanResult) -> list[str]:
    if nothing_to_port(r):
        return []
    rules = {f.rule for f in r.findings}
    names = {a.name for a in r.api_usage}
    out = []
    if critical := critical_findings(r):
        out.append(f"{critical} critical finding(s)")
    if r.stats.get("inline_asm", 0) >= MUCH_PTX:
        out.append("much inline PTX")
    if any(not b.has_source for b in r.binaries) or any(p.rocm_support in ("none", "deprecated_project")
                                                        for p in r.plugins):
        out.append("closed CUDA binaries/plugins")
    if r.stats.get("kernels", 0) >= MANY_KERNELS and not r.baselines.get("tests"):
        out.append("many custom ops without tests")
    if "C2R-P108" in rules or any(a.library == "tensorrt" for a in r.api_usage):
        out.append("TensorRT dependence")
    if "C2R-P107" in rules or any(n.startswith(("cudaGraph", "cudaStreamBeginCapture")) for n in names):
        out.append("CUDA Graph dependence")
    if "C2R-D103" in rules and (r.deployment.scale in ("multi-node", "kubernetes") or _nvlink_tuning(r)):
        out.append("multi-node NCCL/NVLink tuning")
    out += [f"no {what}" for what, key in (("pinned versions", "pinned_versions"), ("tests", "tests"),
                                           ("benchmark baselines", "benchmarks")) if not r.baselines.get(key)]
    return out


def _nvlink_tuning(r: ScanResult) -> bool:
    return any(f.rule == "C2R-D103" and ("NVL" in f.message or "MNNVL" in f.message) for f in r.findings)


def assess_risk(r: ScanResult, layers: tuple[LayerAssessment, ...]) -> RiskAssessment:
    """``none`` with no effort when there is nothing to port; ``high`` with any critical finding, a hard signal
    or >= 3 signals; ``medium`` with any signal or a high layer; else ``low``."""
    if nothing_to_port(r):
        return RiskAssessment("none", (), (0, 0), poc(r))
    found = signals(r)
    if len(found) >= 3 or critical_findings(r) or any(s in HARD_SIGNALS for s in found):
        level = "high"
    elif found or any(la.difficulty == "high" for la in layers):
        level = "medium"
    else:
        level = "low"
    return RiskAssessment(level, tuple(found), effort(r, layers), poc(r))


def effort(r: ScanResult, layers: tuple[LayerAssessment, ...]) -> tuple[int, int]:
    """Person-days: per-layer base by difficulty, plus per-kernel, per-inline-asm and per-closed-binary work."""
    low = sum(_DAYS[la.difficulty][0] for la in layers)
    high = sum(_DAYS[la.difficulty][1] for la in layers)
    kernels, asm = r.stats.get("kernels", 0), r.stats.get("inline_asm", 0)
    closed = sum(1 for b in r.binaries if not b.has_source)
    low += int(kernels * 0.25 + asm * 0.5 + closed * 5)
    high += int(kernels * 1 + asm * 2 + closed * 20 + 0.999)
    if rocm_path_files(r):  # part-ported: finish and test the HIP path (a judgement: 60% of a fresh port)
        low, high = max(1, int(low * 0.6)), max(1, int(high * 0.6 + 0.999))
    return low, max(low, high)


def rocm_path_files(r: ScanResult) -> list[str]:
    """Files where the project already builds or runs for ROCm (C2R-S113)."""
    return [f.path for f in r.files if "rocm-path" in f.tags]


def poc(r: ScanResult) -> str:
    """The smallest workload that exercises the riskiest layers on one GPU of the target."""
    if not r.files or nothing_to_port(r):
        return "Nothing to port was found."
    gfx = _gfx(r.target_gpu)
    ext = [f.path for f in r.files if "torch-extension" in f.tags]
    # the largest CUDA file that runs on one GPU (a file calling NCCL needs several)
    cuda = sorted((f for f in r.files if f.language == "cuda"), key=lambda f: ("nccl" in f.tags, -f.lines))
    steps = []
    existing = rocm_path_files(r)
    if existing:
        steps.append(f"start from the existing ROCm path ({existing[0]})")
    if ext:
        steps.append(f"build the PyTorch extension declared in {ext[0]} in a rocm/pytorch image with "
                     f"PYTORCH_ROCM_ARCH={gfx}")
    elif cuda:
        what = "largest CUDA file" if "nccl" not in cuda[0].tags else "largest CUDA file; it calls NCCL"
        steps.append(f"translate and compile {cuda[0].path} ({what}) for {gfx} with hipcc")
    tests = [f.path for f in r.files if "/test" in "/" + f.path]
    if tests:
        steps.append(f"run {tests[0]} on one {r.target_gpu}")
    steps.append("compare outputs and latency with the CUDA baseline (`cuda2rocm capture` on both, "
                 "`cuda2rocm compare`, `cuda2rocm bench compare`)")
    if r.deployment.scale in ("multi-gpu", "multi-node", "kubernetes"):
        steps.append("then a 2-GPU RCCL run (`cuda2rocm comm --nproc 2`) before the full deployment")
    return "Single-GPU proof of concept: " + "; ".join(steps) + "."


def _gfx(target_gpu: str) -> str:
    gpu = knowledge.get_gpu(target_gpu)
    return (gpu.target if gpu is not None else "") or target_gpu
