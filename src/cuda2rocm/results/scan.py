"""The value ``cuda2rocm.scan()`` returns: scan fills it, ``assess`` grades it, formatters (``cuda2rocm.report``)
read only this. It sits below all three (it needs only ``model``), so none of them imports another for it.
Imported as ``cuda2rocm.results`` (the package re-exports these names on first use).

Contract between the scanner and the formatters: fields may be added, never renamed or removed without
bumping ``SCHEMA_VERSION`` (the JSON schema in docs/ is generated from/validated against this shape).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cuda2rocm.model import OMIT_NONE, Component, Finding, InputProblem, Layer

SCHEMA_VERSION = "1.0"


@dataclass(frozen=True)
class FileInfo:
    path: str  # relative to the scan root, '/' separated
    language: str  # cuda, cpp, c, python, cmake, make, bazel, dockerfile, compose, k8s, helm, ci, shell, ...
    lines: int
    tags: tuple[str, ...] = ()  # e.g. ("cuda-in-cpp", "torch-extension", "cupy-rawkernel", "triton")


@dataclass(frozen=True)
class ApiUse:
    """References to one CUDA API name across the project."""

    library: str  # runtime, driver, cublas, cublaslt, cudnn, cufft, cusparse, cusolver, curand, cub, thrust, ...
    name: str  # the CUDA identifier
    hip_name: str  # its HIP/ROCm counterpart ("" if none)
    support: str  # supported | unsupported | experimental | deprecated | removed | unknown
    count: int
    first_path: str
    first_line: int


@dataclass(frozen=True)
class PluginUse:
    name: str  # knowledge-base key, e.g. "flash-attention"
    package: str  # as written in the project, e.g. "flash-attn"
    version: str
    path: str
    line: int
    rocm_support: str  # native_upstream | amd_fork | upstream_partial | alternative | none | deprecated_project
    replacement: str
    caveats: tuple[str, ...]
    source: str  # where the knowledge-base fact comes from, with its date


@dataclass(frozen=True)
class BinaryArtifact:
    path: str
    kind: str  # elf-shared, elf-static, elf-object, elf-exec, wheel, cubin, fatbin, ptx
    cuda_libraries: tuple[str, ...]  # DT_NEEDED entries naming CUDA libraries
    has_fatbin: bool
    has_source: bool  # a source for it was found in the repository


@dataclass(frozen=True)
class Deployment:
    scale: str  # none | single-gpu | multi-gpu | multi-node | kubernetes
    evidence: tuple[str, ...]  # "k8s/deploy.yaml:12 nvidia.com/gpu: 4", ...


@dataclass(frozen=True)
class LayerAssessment:
    layer: Layer
    difficulty: str  # low | medium | high
    reasons: tuple[str, ...]
    finding_count: int


@dataclass(frozen=True)
class RiskAssessment:
    level: str  # none (nothing to port) | low | medium | high
    signals: tuple[str, ...]  # the high-risk signals present
    effort_person_days: tuple[int, int]  # low and high estimate
    poc_recommendation: str


@dataclass(frozen=True)
class ScanResult:
    root: str
    target_gpu: str
    files: tuple[FileInfo, ...] = ()
    inventory: tuple[Component, ...] = ()
    findings: tuple[Finding, ...] = ()
    api_usage: tuple[ApiUse, ...] = ()
    plugins: tuple[PluginUse, ...] = ()
    binaries: tuple[BinaryArtifact, ...] = ()
    deployment: Deployment = Deployment("none", ())
    layers: tuple[LayerAssessment, ...] = ()
    risk: RiskAssessment = RiskAssessment("low", (), (0, 0), "")
    problems: tuple[InputProblem, ...] = ()
    baselines: dict[str, bool] = field(default_factory=dict)  # tests, pinned_versions, benchmarks, ...
    stats: dict[str, float] = field(default_factory=dict)  # files, lines, seconds, lines_per_second
    schema_version: str = SCHEMA_VERSION
    tool_version: str = ""
    #: the scanned directory's own name (``llm-service`` for a scan of ``.`` inside it); reports title with it
    project: str | None = field(default=None, metadata={OMIT_NONE: True})
