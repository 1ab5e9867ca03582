"""A hand-built ScanResult and rule table: formatters are tested without the scanner or the registry."""

from __future__ import annotations

from cuda2rocm.model import Component, Confidence, Finding, InputProblem, Layer, Severity
from cuda2rocm.rules import Rule
from cuda2rocm.scan.result import (
    ApiUse,
    BinaryArtifact,
    Deployment,
    FileInfo,
    LayerAssessment,
    PluginUse,
    RiskAssessment,
    ScanResult,
)

RULES = {
    "C2R-K101": Rule(
        id="C2R-K101",
        title="Lane index assumes a 32-lane warp",
        family="hazards",
        severity=Severity.HIGH,
        confidence=Confidence.HIGH,
        layer=Layer.LOW_LEVEL,
        what="Flags `threadIdx.x & 31` and `% 32` lane computations.",
        why="CDNA GPUs run 64-lane wavefronts, so half the lanes get the wrong index.",
        example="int lane = threadIdx.x & 31;",
        instead="int lane = threadIdx.x % warpSize;",
        references=("https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html",),
    ),
    "C2R-D301": Rule(
        id="C2R-D301",
        title="Kubernetes requests nvidia.com/gpu",
        family="deployment",
        severity=Severity.MEDIUM,
        confidence=Confidence.HIGH,
        layer=Layer.OPS,
        what="Finds `nvidia.com/gpu` resource requests.",
        why="The AMD device plugin advertises `amd.com/gpu`.",
        example="limits: {nvidia.com/gpu: 2}",
        instead="limits: {amd.com/gpu: 2}",
    ),
}


def finding(rule: str, sev: Severity, path: str, line: int, col: int, msg: str, fix: str = "") -> Finding:
    layer = Layer.OPS if rule.startswith("C2R-D") else Layer.LOW_LEVEL
    return Finding(rule, sev, Confidence.HIGH, layer, path, line, col, msg, fix)


FINDINGS = (
    finding(
        "C2R-K101",
        Severity.HIGH,
        "csrc/reduce.cu",
        19,
        20,
        "lane = threadIdx.x & 31 assumes 32 lanes",
        "use threadIdx.x % warpSize",
    ),
    finding("C2R-K101", Severity.HIGH, "csrc/reduce.cu", 44, 8, "lane = threadIdx.x & 31 assumes 32 lanes"),
    finding(
        "C2R-D301", Severity.MEDIUM, "k8s/deploy.yaml", 32, 15, "requests nvidia.com/gpu: 2 | per pod", "amd.com/gpu"
    ),
    finding("C2R-S900", Severity.INFO, "README <notes>.md", 0, 0, 'mentions <CUDA> & "NVIDIA"'),
)


def sample_result() -> ScanResult:
    return ScanResult(
        root="/srv/projects/llm-service",
        target_gpu="gfx942",
        files=(FileInfo("csrc/reduce.cu", "cuda", 80, ("torch-extension",)), FileInfo("k8s/deploy.yaml", "k8s", 40)),
        inventory=(
            Component("cuda", "CUDA", "12.1.1", "Dockerfile", 1, "FROM nvidia/cuda:12.1.1-cudnn8-devel"),
            Component("framework", "torch", "2.1.2+cu121", "requirements.txt", 2),
        ),
        findings=FINDINGS,
        api_usage=(
            ApiUse("cublas", "cublasGemmEx", "hipblasGemmEx", "supported", 3, "libgemm/src/gemm.cu", 12),
            ApiUse("runtime", "cudaFuncSetAttribute", "hipFuncSetAttribute", "supported", 1, "attention.cu", 47),
        ),
        plugins=(
            PluginUse(
                "flash-attention",
                "flash-attn",
                "2.5.6",
                "requirements.txt",
                3,
                "native_upstream",
                "flash-attn (CK backend)",
                ("No FlashAttention-3",),
                "flash-attention README, 2026-08",
            ),
        ),
        binaries=(BinaryArtifact("vendor/libfoo.so", "elf-shared", ("libcudart.so.12",), True, False),),
        deployment=Deployment("kubernetes", ("k8s/deploy.yaml:32 nvidia.com/gpu: 2",)),
        layers=(
            LayerAssessment(Layer.LOW_LEVEL, "high", ("2 warp-size hazards",), 2),
            LayerAssessment(Layer.OPS, "medium", ("Kubernetes GPU requests",), 1),
        ),
        risk=RiskAssessment("high", ("inline PTX", "multi-node NCCL tuning"), (15, 30), "Port the fused RMSNorm"),
        problems=(InputProblem("data/blob.cu", "binary file (NUL bytes); skipped"),),
        baselines={"tests": True, "pinned_versions": True, "benchmarks": False},
        stats={"files": 2.0, "lines": 120.0, "seconds": 0.01},
        tool_version="0.1.0",
    )
