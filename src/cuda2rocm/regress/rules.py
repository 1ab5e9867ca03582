"""Rules for numerical regression (C2R-R): capture/compare (R1xx), smoke (R2xx), curves/metrics (R3xx).

The engines in this package decide; these definitions carry the stable ids and the documentation.
"""

from __future__ import annotations

from functools import partial

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import new_rule

_DOCS = "docs/regress.md"

regress_rule = partial(new_rule, family="regress", confidence=Confidence.HIGH, references=(_DOCS,))


OUT_OF_TOLERANCE = regress_rule(
    "C2R-R101", "tensor outside its dtype tolerance", severity=Severity.HIGH, layer=Layer.MODEL,
    what="A captured tensor differs from the baseline by more than its dtype policy allows (element "
    "tolerance, mismatch fraction, relative L2 error or cosine similarity).",
    why="Kernels on AMD GPUs (rocBLAS/hipBLASLt, MIOpen, composable_kernel) accumulate in a different order "
    "and may pick other algorithms than cuBLAS/cuDNN; beyond rounding noise that points at a real bug "
    "such as a wave64 lane-mask error or a wrongly mapped library call.",
    example="act/layer3.0.conv1: relative L2 error 0.021 > 0.0001 (fp32 policy)",
    instead="Look at the first diverging layer only (later layers inherit its error); check its kernel for "
    "warp-size assumptions, or loosen that layer's tolerance in the config if the math is expected to differ.",
)
NONFINITE = regress_rule(
    "C2R-R102", "NaN/Inf appear or vanish", severity=Severity.CRITICAL, layer=Layer.MODEL,
    what="NaN or Inf values sit at different positions in the candidate than in the baseline.",
    why="FP16 overflow thresholds, denormal flushing and fast-math intrinsics differ between vendors; a NaN "
    "that only one platform produces usually poisons training.",
    example="act/attn.softmax: 12 NaN/Inf positions differ (NaN 0->12)",
    instead="Find the first layer with new NaN/Inf; compute it in FP32 or check overflow-prone ops (exp, "
    "division, large reductions) for different rounding or flushing.",
)
MISMATCH = regress_rule(
    "C2R-R103", "tensor shape or dtype differs", severity=Severity.HIGH, layer=Layer.MODEL,
    what="The same tensor has another shape or dtype on the candidate side.",
    why="A different code path ran (for example a fallback kernel or another attention backend on ROCm), so "
    "values are not comparable at all.",
    example="output: dtype F32 in base, BF16 in candidate",
    instead="Capture both sides with the same --dtype and model code; check AMP/autocast settings.",
)
MISSING = regress_rule(
    "C2R-R104", "tensor captured on one side only", severity=Severity.MEDIUM, layer=Layer.MODEL,
    what="A tensor (layer output, gradient) exists in one capture but not in the other.",
    why="Modules that run only on one platform (vendor-specific fused kernels, fallbacks) change the graph "
    "and therefore the numerics.",
    example="act/flash_attn.core: missing in candidate",
    instead="Use the same module filters on both sides; make sure the same model code path runs on ROCm.",
)
NOT_COMPARABLE = regress_rule(
    "C2R-R105", "captures are not comparable", severity=Severity.HIGH, layer=Layer.MODEL,
    what="The two captures were made from different inputs, seeds or math modes (manifest mismatch).",
    why="A difference caused by other inputs would be blamed on the port.",
    example="inputs differ (sha256 3f2a... vs 9bc1...)",
    instead="Re-capture with the same target, --seed and input spec on both platforms.",
)
CPU_FALLBACK = regress_rule(
    "C2R-R201", "operator ran on the CPU", severity=Severity.MEDIUM, layer=Layer.FRAMEWORK,
    what="During the smoke run an operator received or returned CPU tensors while the model runs on the GPU.",
    why="Ops without a ROCm kernel, or code that calls .cpu()/.numpy() in the forward pass, stall the GPU and "
    "copy data every step.",
    example="aten::nonzero fell back to the CPU (3 calls)",
    instead="Keep the computation on the device; replace the operator or upgrade to a PyTorch with ROCm support.",
)
NOT_IMPLEMENTED = regress_rule(
    "C2R-R202", "operator not implemented for this device or dtype", severity=Severity.HIGH, layer=Layer.FRAMEWORK,
    what="The model raised NotImplementedError (or 'not implemented for') for an operator on this device/dtype.",
    why="ROCm builds of PyTorch and third-party extensions miss some kernels (notably FP8 and some BF16 ops).",
    example="\"addmm_impl_cpu_\" not implemented for 'Half'",
    instead="Run that op in another dtype, or install the extension's ROCm build.",
)
SDPA_MATH = regress_rule(
    "C2R-R203", "attention ran on the slow math path", severity=Severity.LOW, layer=Layer.FRAMEWORK,
    what="scaled_dot_product_attention used the unfused math implementation on the GPU.",
    why="Flash/efficient attention on ROCm depends on the GPU architecture and PyTorch build; the math path is "
    "far slower and uses much more memory.",
    example="sdpa backend: math",
    instead="Check the GPU architecture support of the flash/memory-efficient backends in this PyTorch build.",
)
AMP_BROKEN = regress_rule(
    "C2R-R204", "autocast dtype does not work", severity=Severity.MEDIUM, layer=Layer.FRAMEWORK,
    what="Running the model under torch.autocast with this dtype raised an error or produced NaN/Inf.",
    why="BF16/FP16 support differs between GPU generations (e.g. no BF16 matrix cores on older AMD GPUs).",
    example="autocast bfloat16: RuntimeError ...",
    instead="Use the dtype that works on the target GPU, or keep those layers in FP32.",
)
ABNORMAL_INPUT = regress_rule(
    "C2R-R205", "abnormal input not handled cleanly", severity=Severity.MEDIUM, layer=Layer.FRAMEWORK,
    what="A NaN input, an empty batch or an out-of-memory condition crashed the run or left it unusable.",
    why="Serving code must survive bad requests and memory pressure the same way on both platforms.",
    example="empty batch: RuntimeError: cannot reshape tensor of 0 elements",
    instead="Guard the input path; catch torch.OutOfMemoryError and free cached memory.",
)
CURVE_BAND = regress_rule(
    "C2R-R301", "training curve leaves the tolerance band", severity=Severity.HIGH, layer=Layer.MODEL,
    what="The candidate's loss (or metric) curve leaves the band around the baseline's curve.",
    why="Small per-step differences are normal; a curve that drifts away signals a numerical problem that "
    "per-tensor checks of one step cannot show.",
    example="loss: 37 of 200 steps outside the band (first at step 120)",
    instead="Compare captures at the first step outside the band.",
)
NO_CONVERGENCE = regress_rule(
    "C2R-R302", "candidate does not converge like the baseline", severity=Severity.HIGH, layer=Layer.MODEL,
    what="The candidate's final value is worse than the baseline's beyond tolerance, or it did not improve.",
    why="Training that silently converges worse is the most expensive migration bug.",
    example="loss: final 2.31 vs baseline 1.12",
    instead="Check the first diverging layer of a training-step capture; check loss scaling for FP16.",
)
METRIC = regress_rule(
    "C2R-R303", "metric outside its threshold", severity=Severity.HIGH, layer=Layer.BUSINESS,
    what="A scalar metric (accuracy, perplexity, BLEU, a business KPI) moved beyond its threshold.",
    why="This is what users notice; numeric noise should not move it.",
    example="accuracy: 0.912 -> 0.871 (allowed drop 0.005)",
    instead="Investigate with capture/compare on the evaluation batch.",
)
NOT_REPRODUCIBLE = regress_rule(
    "C2R-R304", "same seed, different results", severity=Severity.MEDIUM, layer=Layer.MODEL,
    what="Two runs with the same seed on the same machine gave different tensors.",
    why="Without run-to-run reproducibility no cross-platform comparison can be trusted; atomics and "
    "non-deterministic kernels (e.g. index_add, scatter on GPUs) are the usual cause.",
    example="act/embedding: differs between two runs with seed 0",
    instead="Enable deterministic algorithms, set CUBLAS_WORKSPACE_CONFIG, or exclude that layer.",
)
