"""Rules for numerical regression (C2R-R): capture/compare (R1xx), smoke (R2xx), curves/metrics (R3xx).

The engines in this package decide; these definitions carry the stable ids and the documentation.
"""

from __future__ import annotations

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import Rule, define

_DOCS = "docs/regress.md"


def _r(id: str, title: str, sev: Severity, layer: Layer, what: str, why: str, example: str, instead: str) -> Rule:
    return define(Rule(id, title, "regress", sev, Confidence.HIGH, layer, what, why, example, instead, (_DOCS,)))


OUT_OF_TOLERANCE = _r(
    "C2R-R101", "tensor outside its dtype tolerance", Severity.HIGH, Layer.MODEL,
    "A captured tensor differs from the baseline by more than its dtype policy allows (element "
    "tolerance, mismatch fraction, relative L2 error or cosine similarity).",
    "Kernels on AMD GPUs (rocBLAS/hipBLASLt, MIOpen, composable_kernel) accumulate in a different order "
    "and may pick other algorithms than cuBLAS/cuDNN; beyond rounding noise that points at a real bug "
    "such as a wave64 lane-mask error or a wrongly mapped library call.",
    "act/layer3.0.conv1: relative L2 error 0.021 > 0.0001 (fp32 policy)",
    "Look at the first diverging layer only (later layers inherit its error); check its kernel for "
    "warp-size assumptions, or loosen that layer's tolerance in the config if the math is expected to differ.",
)
NONFINITE = _r(
    "C2R-R102", "NaN/Inf appear or vanish", Severity.CRITICAL, Layer.MODEL,
    "NaN or Inf values sit at different positions in the candidate than in the baseline.",
    "FP16 overflow thresholds, denormal flushing and fast-math intrinsics differ between vendors; a NaN "
    "that only one platform produces usually poisons training.",
    "act/attn.softmax: 12 NaN/Inf positions differ (NaN 0->12)",
    "Find the first layer with new NaN/Inf; compute it in FP32 or check overflow-prone ops (exp, "
    "division, large reductions) for different rounding or flushing.",
)
MISMATCH = _r(
    "C2R-R103", "tensor shape or dtype differs", Severity.HIGH, Layer.MODEL,
    "The same tensor has another shape or dtype on the candidate side.",
    "A different code path ran (for example a fallback kernel or another attention backend on ROCm), so "
    "values are not comparable at all.",
    "output: dtype F32 in base, BF16 in candidate",
    "Capture both sides with the same --dtype and model code; check AMP/autocast settings.",
)
MISSING = _r(
    "C2R-R104", "tensor captured on one side only", Severity.MEDIUM, Layer.MODEL,
    "A tensor (layer output, gradient) exists in one capture but not in the other.",
    "Modules that run only on one platform (vendor-specific fused kernels, fallbacks) change the graph "
    "and therefore the numerics.",
    "act/flash_attn.core: missing in candidate",
    "Use the same module filters on both sides; make sure the same model code path runs on ROCm.",
)
NOT_COMPARABLE = _r(
    "C2R-R105", "captures are not comparable", Severity.HIGH, Layer.MODEL,
    "The two captures were made from different inputs, seeds or math modes (manifest mismatch).",
    "A difference caused by other inputs would be blamed on the port.",
    "inputs differ (sha256 3f2a... vs 9bc1...)",
    "Re-capture with the same target, --seed and input spec on both platforms.",
)
CPU_FALLBACK = _r(
    "C2R-R201", "operator ran on the CPU", Severity.MEDIUM, Layer.FRAMEWORK,
    "During the smoke run an operator received or returned CPU tensors while the model runs on the GPU.",
    "Ops without a ROCm kernel, or code that calls .cpu()/.numpy() in the forward pass, stall the GPU and "
    "copy data every step.",
    "aten::nonzero fell back to the CPU (3 calls)",
    "Keep the computation on the device; replace the operator or upgrade to a PyTorch with ROCm support.",
)
NOT_IMPLEMENTED = _r(
    "C2R-R202", "operator not implemented for this device or dtype", Severity.HIGH, Layer.FRAMEWORK,
    "The model raised NotImplementedError (or 'not implemented for') for an operator on this device/dtype.",
    "ROCm builds of PyTorch and third-party extensions miss some kernels (notably FP8 and some BF16 ops).",
    "\"addmm_impl_cpu_\" not implemented for 'Half'",
    "Run that op in another dtype, or install the extension's ROCm build.",
)
SDPA_MATH = _r(
    "C2R-R203", "attention ran on the slow math path", Severity.LOW, Layer.FRAMEWORK,
    "scaled_dot_product_attention used the unfused math implementation on the GPU.",
    "Flash/efficient attention on ROCm depends on the GPU architecture and PyTorch build; the math path is "
    "far slower and uses much more memory.",
    "sdpa backend: math",
    "Check the GPU architecture support of the flash/memory-efficient backends in this PyTorch build.",
)
AMP_BROKEN = _r(
    "C2R-R204", "autocast dtype does not work", Severity.MEDIUM, Layer.FRAMEWORK,
    "Running the model under torch.autocast with this dtype raised an error or produced NaN/Inf.",
    "BF16/FP16 support differs between GPU generations (e.g. no BF16 matrix cores on older AMD GPUs).",
    "autocast bfloat16: RuntimeError ...",
    "Use the dtype that works on the target GPU, or keep those layers in FP32.",
)
ABNORMAL_INPUT = _r(
    "C2R-R205", "abnormal input not handled cleanly", Severity.MEDIUM, Layer.FRAMEWORK,
    "A NaN input, an empty batch or an out-of-memory condition crashed the run or left it unusable.",
    "Serving code must survive bad requests and memory pressure the same way on both platforms.",
    "empty batch: RuntimeError: cannot reshape tensor of 0 elements",
    "Guard the input path; catch torch.OutOfMemoryError and free cached memory.",
)
CURVE_BAND = _r(
    "C2R-R301", "training curve leaves the tolerance band", Severity.HIGH, Layer.MODEL,
    "The candidate's loss (or metric) curve leaves the band around the baseline's curve.",
    "Small per-step differences are normal; a curve that drifts away signals a numerical problem that "
    "per-tensor checks of one step cannot show.",
    "loss: 37 of 200 steps outside the band (first at step 120)",
    "Compare captures at the first step outside the band.",
)
NO_CONVERGENCE = _r(
    "C2R-R302", "candidate does not converge like the baseline", Severity.HIGH, Layer.MODEL,
    "The candidate's final value is worse than the baseline's beyond tolerance, or it did not improve.",
    "Training that silently converges worse is the most expensive migration bug.",
    "loss: final 2.31 vs baseline 1.12",
    "Check the first diverging layer of a training-step capture; check loss scaling for FP16.",
)
METRIC = _r(
    "C2R-R303", "metric outside its threshold", Severity.HIGH, Layer.BUSINESS,
    "A scalar metric (accuracy, perplexity, BLEU, a business KPI) moved beyond its threshold.",
    "This is what users notice; numeric noise should not move it.",
    "accuracy: 0.912 -> 0.871 (allowed drop 0.005)",
    "Investigate with capture/compare on the evaluation batch.",
)
NOT_REPRODUCIBLE = _r(
    "C2R-R304", "same seed, different results", Severity.MEDIUM, Layer.MODEL,
    "Two runs with the same seed on the same machine gave different tensors.",
    "Without run-to-run reproducibility no cross-platform comparison can be trusted; atomics and "
    "non-deterministic kernels (e.g. index_add, scatter on GPUs) are the usual cause.",
    "act/embedding: differs between two runs with seed 0",
    "Enable deterministic algorithms, set CUBLAS_WORKSPACE_CONFIG, or exclude that layer.",
)
