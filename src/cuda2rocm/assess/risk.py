"""Overall risk and an effort range from the residual work, and a proof-of-concept recommendation."""

from __future__ import annotations

from cuda2rocm import knowledge
from cuda2rocm.assess.layers import nothing_to_port
from cuda2rocm.assess.residual import Residual, residual
from cuda2rocm.model import Severity
from cuda2rocm.results import LayerAssessment, RiskAssessment, ScanResult

#: signals that alone make a project high-risk
HARD_SIGNALS = ("TensorRT dependence", "much inline PTX")
#: signals that make a project at least medium-risk
CARE_SIGNALS = ("CUDA Graph dependence", "multi-node NCCL/NVLink tuning")
MUCH_PTX = 5
MANY_KERNELS = 5
HIGH_DAYS = 20


def critical_findings(r: ScanResult) -> int:
    """Critical findings (input problems aside): each is code that breaks on the target as it stands."""
    return sum(1 for f in r.findings if f.severity >= Severity.CRITICAL and not f.rule.startswith("C2R-E"))


def signals(r: ScanResult, left: Residual | None = None) -> list[str]:
    """What drives the risk: the residual manual work by kind, then project facts; verification gaps (no
    tests, baselines or pins) last, marked as such (they make the result harder to prove, not the port larger)."""
    if nothing_to_port(r):
        return []
    left = left if left is not None else residual(r)
    names = {a.name for a in r.api_usage}
    rules = {f.rule for f in r.findings}
    out = [f"{n} {_WHAT[kind]}" for kind, n in sorted(left.items.items(), key=lambda kv: _ORDER.index(kv[0]))
           if kind in _WHAT]
    if r.stats.get("inline_asm", 0) >= MUCH_PTX:
        out.append("much inline PTX")
    if "C2R-P108" in rules or any(a.library == "tensorrt" for a in r.api_usage):
        out.append("TensorRT dependence")
    if "C2R-P107" in rules or any(n.startswith(("cudaGraph", "cudaStreamBeginCapture")) for n in names):
        out.append("CUDA Graph dependence")
    if "C2R-D103" in rules and (r.deployment.scale in ("multi-node", "kubernetes") or _nvlink_tuning(r)):
        out.append("multi-node NCCL/NVLink tuning")
    if r.stats.get("kernels", 0) >= MANY_KERNELS and not r.baselines.get("tests"):
        out.append("many custom ops without tests (verification gap)")
    out += [f"no {what} (verification gap)" for what, key in (("pinned versions", "pinned_versions"),
                                                             ("tests", "tests"), ("benchmark baselines", "benchmarks"))
            if not r.baselines.get(key)]
    return out


_WHAT = {"critical": "critical finding(s) without an automatic fix", "binary": "closed CUDA binaries",
         "plugin-none": "GPU plugin(s) without a ROCm build", "api": "CUDA API(s) without a HIP counterpart",
         "device": "device-code hazard(s) to rewrite by hand", "plugin-partial": "plugin(s) with partial ROCm support",
         "code": "other construct(s) to change by hand"}
_ORDER = ("critical", "binary", "plugin-none", "api", "device", "plugin-partial", "code", "review", "plugin")


def _nvlink_tuning(r: ScanResult) -> bool:
    return any(f.rule == "C2R-D103" and ("NVL" in f.message or "MNNVL" in f.message) for f in r.findings)


def assess_risk(r: ScanResult, layers: tuple[LayerAssessment, ...]) -> RiskAssessment:
    """From the residual work (:mod:`cuda2rocm.assess.residual`): ``none`` with nothing to port; ``high`` with
    critical findings left, closed binaries, plugins without a ROCm build, TensorRT, much PTX or more than
    20 person-days left; ``medium`` with any manual work left or a dependence that needs care on the target
    (graphs, multi-node NCCL tuning); else ``low``: a port the automatic steps do, whatever the raw reference
    count. Missing tests and baselines are listed, as verification gaps, but do not raise the level."""
    if nothing_to_port(r):
        return RiskAssessment("none", (), (0, 0), poc(r))
    left = residual(r)
    found = signals(r, left)
    days = effort(r, layers, left)
    hard = any(left.items.get(k) for k in ("critical", "binary", "plugin-none")) or any(
        s in HARD_SIGNALS for s in found)
    if hard or days[1] > HIGH_DAYS:
        level = "high"
    elif left.manual or any(s in CARE_SIGNALS for s in found):
        level = "medium"
    else:
        level = "low"
    return RiskAssessment(level, tuple(found), days, poc(r))


def effort(r: ScanResult, layers: tuple[LayerAssessment, ...], left: Residual | None = None) -> tuple[int, int]:
    """Person-days of the residual work plus verification (``layers`` are kept for callers; the per-layer view
    does not add days of its own: their findings are counted once, in the residual)."""
    left = left if left is not None else residual(r)
    # part-ported: finish and test the HIP path (a judgement: 60% of a fresh port)
    return left.days(0.6 if rocm_path_files(r) else 1.0)


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
