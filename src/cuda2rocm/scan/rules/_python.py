"""C2R-P1xx: Python-level risks (found with the ``tokenize`` module, never by running the code)."""

from __future__ import annotations

from cuda2rocm.model import Confidence as C
from cuda2rocm.model import Layer as L
from cuda2rocm.model import Severity as S
from cuda2rocm.rules import new_rule

F = "python"
PT_HIP = "https://pytorch.org/docs/stable/notes/hip.html"

P101 = new_rule(
    "C2R-P101", "device-capability-comparison", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.MODEL,
    what="Flags comparisons of `torch.cuda.get_device_capability()` (directly or through the names it is "
    "assigned to), e.g. `>= (8, 0)` to enable bf16 or FlashAttention.",
    why="On ROCm the capability is the gfx version (MI300X reports (9, 4)), so NVIDIA thresholds pick the "
    "wrong code path: features get disabled on a capable GPU or enabled on an unsuitable one.",
    example="if torch.cuda.get_device_capability() >= (8, 0):\n    use_bf16 = True",
    instead="Test the feature itself: `torch.cuda.is_bf16_supported()`, `torch.version.hip`, or a "
    "try/except around the kernel.",
    references=(PT_HIP,),
)
P102 = new_rule(
    "C2R-P102", "device-name-matching", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.MODEL,
    what="Flags matching on `torch.cuda.get_device_name()` (comparisons, `in`, `startswith`, regexes).",
    why="AMD devices report names such as 'AMD Instinct MI300X'; code that looks for 'A100' or 'H100' picks "
    "a fallback path or a wrong tuning table.",
    example="if 'A100' in torch.cuda.get_device_name(): batch = 64",
    instead="Key tuning on measured properties (`get_device_properties().total_memory`, multiprocessor "
    "count) or on an explicit configuration value.",
    references=(PT_HIP,),
)
P103 = new_rule(
    "C2R-P103", "nvml-use", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.OPS,
    what="Flags imports of `pynvml` / `nvidia_smi` (NVML bindings).",
    why="NVML talks to the NVIDIA driver only; on AMD GPUs it fails to initialise. The AMD counterparts are "
    "amdsmi (Python bindings of AMD SMI) and rocm-smi.",
    example="import pynvml\npynvml.nvmlInit()",
    instead="Use `amdsmi` on ROCm (or `torch.cuda.mem_get_info()`/`torch.cuda.utilization()` which work on "
    "both).",
    references=("https://rocm.docs.amd.com/projects/amdsmi/en/latest/",),
)
P104 = new_rule(
    "C2R-P104", "cudnn-backend-flags", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.MODEL,
    what="Flags settings of `torch.backends.cudnn.*` (benchmark, deterministic, allow_tf32, enabled).",
    why="On ROCm these flags steer MIOpen, not cuDNN: `benchmark=True` triggers MIOpen kernel tuning (slow "
    "first iterations), determinism guarantees differ, and TF32 has no exact equivalent.",
    example="torch.backends.cudnn.benchmark = True",
    instead="Keep the flag but measure the warm-up cost with MIOpen, and document the determinism "
    "expectations you rely on.",
    references=(PT_HIP,),
)
P105 = new_rule(
    "C2R-P105", "torch-cuda-arch-list", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.EXTENSION,
    what="Flags `TORCH_CUDA_ARCH_LIST` in code, Dockerfiles and launch scripts.",
    why="Extensions built on ROCm read `PYTORCH_ROCM_ARCH`; a CUDA arch list is ignored, so the extension is "
    "built for default targets that may not include the deployment GPU.",
    example='os.environ["TORCH_CUDA_ARCH_LIST"] = "8.0;9.0"',
    instead='Set `PYTORCH_ROCM_ARCH="gfx942"` (MI300X) for ROCm builds.',
    references=("https://pytorch.org/docs/stable/cpp_extension.html",),
)
P106 = new_rule(
    "C2R-P106", "cuda-python-package-import", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.MODEL,
    what="Flags imports of CUDA-specific Python GPU packages: CuPy, PyCUDA, `numba.cuda`, cuda-python.",
    why="Each needs a ROCm build (CuPy) or has none (PyCUDA, Numba CUDA, cuda-python), so the code around "
    "the import must be ported.",
    example="from numba import cuda",
    instead="Use PyTorch ops, Triton, or CuPy's ROCm build; `hip-python` replaces cuda-python.",
    references=("https://rocm.docs.amd.com/projects/hip-python/en/latest/",),
)
P107 = new_rule(
    "C2R-P107", "cuda-graphs-python", family=F, severity=S.MEDIUM, confidence=C.MEDIUM, layer=L.MODEL,
    what="Flags every CUDA Graph site in Python: `torch.cuda.CUDAGraph()`, `torch.cuda.graph(...)`, "
    "`torch.cuda.make_graphed_callables` (also imported from `torch.cuda`, under an alias), and `g.replay()` / "
    "`capture_begin()` / `capture_end()` / `reset()` where `g` is known to hold a CUDAGraph (assigned from "
    "`CUDAGraph()` or captured with `torch.cuda.graph(g)`); a project's own `graph` objects are not reported. The "
    "message quotes the knowledge base's ROCm facts (`cuda2rocm kb show library 'CUDA Graphs'`).",
    why="HIP graphs exist but coverage and performance differ; captured code that relies on NCCL inside "
    "graphs or on CUDA-only allocator behaviour needs validation on ROCm.",
    example="g = torch.cuda.CUDAGraph()\nwith torch.cuda.graph(g): out = model(x)",
    instead="Keep an eager fallback behind a flag and benchmark both on the target GPU.",
    references=(PT_HIP,),
)
P108 = new_rule(
    "C2R-P108", "tensorrt-dependence", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.MODEL,
    what="Flags imports of TensorRT (`tensorrt`, `torch_tensorrt`, `tensorrt_llm`).",
    why="TensorRT is NVIDIA-only; engines and plugins must be replaced (MIGraphX, torch.compile, "
    "ONNX Runtime with the ROCm/MIGraphX execution provider, vLLM on ROCm).",
    example="import tensorrt as trt",
    instead="Use MIGraphX or torch.compile on ROCm, and compare accuracy with `cuda2rocm compare`.",
    references=("https://rocm.docs.amd.com/projects/AMDMIGraphX/en/latest/",),
)
P109 = new_rule(
    "C2R-P109", "onnxruntime-cuda-provider", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.MODEL,
    what="Flags ONNX Runtime sessions that ask for the CUDA or TensorRT execution provider by name "
    "(`providers=[\"CUDAExecutionProvider\", ...]`).",
    why="Those providers exist only in NVIDIA builds of ONNX Runtime; on AMD the session silently falls back to "
    "the CPU provider (or fails when the provider list has no CPU entry).",
    example='ort.InferenceSession("m.onnx", providers=["CUDAExecutionProvider"])',
    instead="Use `MIGraphXExecutionProvider` (or `ROCMExecutionProvider` on older builds) with the AMD-built "
    "onnxruntime-migraphx wheel, and check `ort.get_available_providers()`.",
    references=("https://onnxruntime.ai/docs/execution-providers/MIGraphX-ExecutionProvider.html",),
)
P110 = new_rule(
    "C2R-P110", "triton-num-warps-wave64", family=F, severity=S.HIGH, confidence=C.MEDIUM, layer=L.MODEL,
    what="Flags Triton launch settings `num_warps=N` (keyword or assignment) with N above 16, warp counts computed "
    "with a warp of 32 threads (`num_warps = BLOCK // 32`, `num_warps=max(1, BLOCK // WARP_SIZE)` with "
    "`WARP_SIZE = 32`, any name that counts warps) and lane ranges of 32 (`lanes = tl.arange(0, 32)`).",
    why="Triton's num_warps counts wavefronts; on CDNA a wavefront is 64 lanes, so num_warps=32 asks for 2048 "
    "threads per program, above the 1024 a workgroup may have: the launch fails or the autotuner drops the config.",
    example="triton.Config({'BLOCK': 128}, num_warps=32)",
    instead="Cap num_warps at 16 on AMD (`16 if torch.version.hip else 32`), or derive it from the warp size.",
    references=("https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/optimization/optimize-triton-kernels.html",),
)
P111 = new_rule(
    "C2R-P111", "torch-profiler-portable", family=F, severity=S.INFO, confidence=C.HIGH, layer=L.MODEL,
    what="Notes `torch.cuda.nvtx` ranges and `torch.profiler` CUDA activity (`ProfilerActivity.CUDA`).",
    why="Nothing to change: PyTorch's ROCm builds keep the `torch.cuda` names, record HIP kernels under the CUDA "
    "activity and emit NVTX ranges as roctx markers, which rocprofv3 --marker-trace shows.",
    example="torch.cuda.nvtx.range_push(\"step\")",
    instead="Keep the calls; profile on AMD with `rocprofv3 --marker-trace --kernel-trace -- python app.py` "
    "(`migrate deploy` rewrites nsys/ncu command lines) or with torch.profiler as on NVIDIA.",
    references=("https://pytorch.org/docs/stable/notes/hip.html",),
)
P112 = new_rule(
    "C2R-P112", "cuda-version-required", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.MODEL,
    what="Flags code that takes `torch.version.cuda` (directly or through a name assigned from it) to be a string: "
    "`.split()`, `.startswith()`, `float()`/`int()`/`Version()` of it, indexing, ordering comparisons and "
    "concatenation, and `raise`/`assert` when it is None. Uses inside `if torch.version.cuda:` (or after `if "
    "torch.version.cuda is None: return`), on a line that tests it first, or beside `torch.version.hip` are not "
    "reported.",
    why="ROCm builds of PyTorch set `torch.version.cuda` to None (and `torch.version.hip` to the HIP version): a "
    "version parse raises AttributeError/TypeError at import or start-up, and a `raise` on None refuses to run "
    "on an AMD GPU that PyTorch supports.",
    example='major = int(torch.version.cuda.split(".")[0])',
    instead="Ask which platform it is (`torch.version.hip is not None`), or parse the version only when it is set: "
    "`major = int(torch.version.cuda.split('.')[0]) if torch.version.cuda else 0`.",
    references=(PT_HIP,),
)
P113 = new_rule(
    "C2R-P113", "cudnn-version-comparison", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.MODEL,
    what="Flags `torch.backends.cudnn.version()` (directly or through a name assigned from it) compared with a "
    "number, e.g. `>= 8900` to enable a fused attention path.",
    why="On ROCm the call reports MIOpen's version, not cuDNN's: a cuDNN threshold then switches features on or "
    "off by accident.",
    example="if torch.backends.cudnn.version() >= 8900:\n    use_fused = True",
    instead="Test the feature (try the op, `torch.backends.cudnn.is_available()`), or compare only when "
    "`torch.version.cuda` is set.",
    references=(PT_HIP,),
)
P114 = new_rule(
    "C2R-P114", "triton-inline-ptx", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.MODEL,
    what="Flags `tl.inline_asm_elementwise(...)` whose assembly is PTX (a PTX instruction such as "
    "`cvt.rn.f16x2.f32`, `prmt.b32`, `.reg` declarations; in the call or in a name assigned earlier in the file). "
    "AMDGCN assembly (`v_cvt_...`) and lines that test `is_hip()`/`torch.version.hip` are not reported.",
    why="Triton on AMD compiles to AMDGCN: PTX in inline assembly does not assemble, so the kernel fails to "
    "compile on ROCm.",
    example='y = tl.inline_asm_elementwise(asm="cvt.rn.f16x2.f32 $0, $2, $1;", constraints="=r,r,r", '
    "args=[a, b], dtype=tl.int32, is_pure=True, pack=1)",
    instead="Use a `tl`/libdevice operation, or give AMDGCN assembly under `torch.version.hip`.",
    references=("https://triton-lang.org/main/python-api/generated/triton.language.inline_asm_elementwise.html",),
)
