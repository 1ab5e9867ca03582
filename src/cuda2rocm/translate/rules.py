"""Rules the translation engine emits (ids ``C2R-A1xx``); documentation only, the engine decides when."""

from __future__ import annotations

from functools import partial

from cuda2rocm.model import Confidence, Layer, Severity
from cuda2rocm.rules import new_rule

_HIPIFY = "https://rocm.docs.amd.com/projects/HIPIFY/en/latest/"
_PORTING = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html"

api_rule = partial(new_rule, family="api", confidence=Confidence.HIGH, layer=Layer.LOW_LEVEL)

UNSUPPORTED = api_rule(
    "C2R-A101", "CUDA identifier has no HIP equivalent", severity=Severity.HIGH,
    what="A CUDA API, type or constant that the mapping tables list as having no HIP/ROCm counterpart.",
    why="hipcc will not know the name, so the translation unit fails to compile on AMD until the code is "
        "rewritten around the missing feature.",
    example="cudaArrayGetMemoryRequirements(&req, array, device);  // no HIP counterpart",
    instead="Rewrite the code path with APIs HIP supports, or guard it with #ifdef __HIP_PLATFORM_AMD__.",
    references=(_HIPIFY, _PORTING),
)

DEPRECATED = api_rule(
    "C2R-A102", "Translated to a deprecated HIP API", severity=Severity.LOW,
    what="The HIP counterpart exists in the target ROCm release but is marked deprecated there.",
    why="Deprecated HIP APIs are removed in later ROCm releases; code that uses them breaks on upgrade.",
    example="cudaBindTexture(0, tex_ref, d_data, bytes);  // -> hipBindTexture, deprecated since HIP 3.8",
    instead="Use the replacement named in the message before the next ROCm upgrade.",
    references=(_HIPIFY,),
)

NOT_AVAILABLE = api_rule(
    "C2R-A103", "HIP API not available in the target ROCm", severity=Severity.HIGH,
    what="The HIP counterpart was added after, or removed before, the ROCm release chosen with --target-rocm.",
    why="The translated code would not compile against that ROCm release's headers.",
    example="cudaMallocAsync(&p, bytes, stream);  // convert --target-rocm 5.1: hipMallocAsync arrived in 5.2",
    instead="Raise --target-rocm to a release that has the API, or rewrite the call.",
    references=(_HIPIFY,),
)

EXPERIMENTAL = api_rule(
    "C2R-A104", "Experimental HIP API not translated", severity=Severity.MEDIUM,
    what="The HIP counterpart is marked experimental, so the identifier was kept unless --experimental was given.",
    why="Experimental HIP APIs may change or be missing in other releases; opting in should be deliberate.",
    example="cudaGraphExecNodeSetParams(exec, node, &params);  // kept as is without --experimental",
    instead="Re-run with --experimental to translate it, and pin the ROCm release.",
    references=(_HIPIFY,),
)

FALLBACK = api_rule(
    "C2R-A105", "Version-gated fallback used", severity=Severity.MEDIUM,
    what="The exact HIP counterpart is missing in the target ROCm, so an older equivalent was emitted.",
    why="The fallback can differ in semantics: __shfl_down ignores the CUDA lane mask, and on AMD a wavefront "
        "has 64 lanes, so masks written for 32-lane warps need review.",
    example="v += __shfl_down_sync(0xffffffff, v, 16);  // convert --target-rocm 5.2: __shfl_down(v, 16)",
    instead="Check that every lane named in the mask participates, or target a ROCm release with the _sync API.",
    references=(_PORTING,),
)

UNKNOWN = api_rule(
    "C2R-A106", "Unknown CUDA-looking identifier", severity=Severity.LOW, confidence=Confidence.LOW,
    what="An identifier with a CUDA prefix (cuda*, cu*, CUDA_*, ...) that is neither in the mapping tables nor "
         "declared by the file or by the local headers it includes (`#include \"x.cuh\"`, transitively).",
    why="It may be a CUDA API newer than the tables, which hipcc will reject, or a project helper defined "
        "elsewhere.",
    example="cudaSomethingNew(&x);",
    instead="Check whether it is a CUDA API; if so, find its HIP counterpart or report it to the tables.",
    references=(_HIPIFY,),
)

UNSUPPORTED_HEADER = api_rule(
    "C2R-A107", "CUDA header has no HIP equivalent", severity=Severity.HIGH,
    what="An #include of a CUDA header the header table does not know, or lists without a HIP counterpart in the "
         "target release where the file uses a name the header declares (else the include is dropped: C2R-A117).",
    why="The header does not exist in a ROCm install, so the translation unit fails to compile.",
    example="#include <cuda_egl_interop.h>\ncudaEglFrame frame;",
    instead="Remove the include and the code depending on it, or guard it for the NVIDIA platform.",
    references=(_HIPIFY,),
)

NO_ROC = api_rule(
    "C2R-A108", "No roc* equivalent; hip* name used", severity=Severity.LOW, layer=Layer.LIBRARY,
    what="With --roc, an identifier whose library has no rocBLAS/rocSPARSE/... counterpart was mapped to the "
         "hip* marshalling library instead.",
    why="Mixing hipBLAS and rocBLAS handles in one file needs care: their handles and enums differ.",
    example="cublasDgelsBatched(h, op, m, n, nrhs, A, lda, C, ldc, info, dev_info, batch);\n"
            "// convert --roc: rocBLAS has no such name, so hipblasDgelsBatched is used",
    instead="Use one library consistently per file; prefer the hip* libraries unless you need roc* features.",
    references=(_HIPIFY,),
)

VERSION_COMPARED = api_rule(
    "C2R-A110", "CUDA version or architecture number compared", severity=Severity.MEDIUM,
    what="`__CUDA_ARCH__`, `CUDA_VERSION`, `CUDART_VERSION` or `__CUDACC_VER_MAJOR__`/`_MINOR__` compared or computed "
         "with (`#if __CUDA_ARCH__ >= 800`, `#if CUDA_VERSION < 11000`). Tests of whether they are defined "
         "(`defined(__CUDA_ARCH__)`, `#ifdef CUDA_VERSION`) are translated. A version macro compared in a directive "
         "is written as a macro of ours (`CUDA2ROCM_CUDART_VERSION`) that a block inserted once near the top of the "
         "file defines: the CUDA macro where it is defined (nvcc), and under hip-clang the number of the CUDA release "
         "the mapping tables reach (12060), so the branch the project wrote for a modern CUDA is taken. "
         "`__CUDA_ARCH__`, and version macros in code or defined by the file itself, are kept.",
    why="HIP's counterparts count differently (`__HIP_DEVICE_COMPILE__` is 1, `HIP_VERSION` is 60200000 for ROCm "
        "6.2), so a renamed comparison silently picks the wrong branch. Left undefined, a CUDA name evaluates to 0 "
        "under hipcc: the branch for old CUDA versions is taken (`#error \"need CUDA 9\"`), and for `__CUDA_ARCH__` "
        "the branch for old architectures still is.",
    example="#if __CUDA_ARCH__ >= 800\n  use_bf16_path();\n#endif",
    instead="For architectures, test the platform and the AMD architecture: `#if defined(__HIP_PLATFORM_AMD__) && "
            "defined(__gfx90a__)` or the `__HIP_ARCH_HAS_*__` feature macros, and keep the CUDA test for the NVIDIA "
            "build. For versions, check that the modern-CUDA branch suits HIP, or test `HIP_VERSION` there.",
    references=(_PORTING,),
)

OVERLOAD_COLLISION = api_rule(
    "C2R-A111", "Overloads become identical after translation", severity=Severity.HIGH, confidence=Confidence.MEDIUM,
    what="Two definitions of a function whose parameter types differ in CUDA but map to the same HIP type: "
         "`const char* name(cudaError_t)` and `const char* name(CUresult)` both become `name(hipError_t)`.",
    why="HIP uses one error type (`hipError_t`) for the runtime and driver APIs, and one stream, event and "
        "module type for both, so overload sets written for the two CUDA APIs collapse; hipcc reports a "
        "redefinition.",
    example="const char* name(cudaError_t e) { return \"runtime\"; }  // becomes name(hipError_t)\n"
            "const char* name(CUresult e) { return \"driver\"; }      // also name(hipError_t)",
    instead="Keep one of the two (the runtime one covers both on HIP), or guard the driver-API overload with "
            "`#if !defined(__HIP_PLATFORM_AMD__)`.",
    references=(_PORTING,),
)

CASE_COLLISION = api_rule(
    "C2R-A112", "Case labels become identical after translation", severity=Severity.HIGH,
    what="Two `case` labels of one `switch` whose CUDA names differ but map to the same HIP name "
         "(`case CUBLAS_STATUS_LICENSE_ERROR:` becomes `case HIPBLAS_STATUS_UNKNOWN:`, next to an existing one).",
    why="Several CUDA status and error codes have no HIP code of their own and map to a catch-all; a switch "
        "that names both then has a duplicate case value, which hipcc rejects.",
    example="switch (s) {\n  case CUDA_ERROR_UNKNOWN: return 1;\n  case cudaErrorUnknown: return 2;\n}",
    instead="Delete one label (the code can no longer tell them apart on HIP), or guard the CUDA-only label with "
            "`#if !defined(__HIP_PLATFORM_AMD__)`.",
    references=(_PORTING,),
)

STRING_SYMBOL = api_rule(
    "C2R-A113", "Device symbol named by a string", severity=Severity.HIGH,
    what="`cudaMemcpyToSymbol(\"c_table\", ...)` and the other symbol calls with the symbol given as a string "
         "literal (the CUDA < 5.0 form). When the file declares a variable of that name, the string becomes "
         "`HIP_SYMBOL(c_table)`; otherwise it is kept and reported.",
    why="A string converts to `const void*`, so the HIP call compiles, but it is not the symbol: the copy fails at "
        "run time (hipErrorInvalidSymbol) and the kernel reads stale constant memory.",
    example='__constant__ float c_table[16];\ncudaMemcpyToSymbol("c_table", h, sizeof(float) * 16);',
    instead="Pass the variable: `hipMemcpyToSymbol(HIP_SYMBOL(c_table), h, sizeof(float) * 16)`.",
    references=(_PORTING,),
)

ROC_SIGNATURE = api_rule(
    "C2R-A120", "roc* function takes other arguments: hip* call kept", severity=Severity.HIGH, layer=Layer.LIBRARY,
    what="With --roc, a call whose roc* counterpart has a different argument list (`cublasGemmEx` -> "
         "`rocblas_gemm_ex` needs an output matrix D, a solution index and flags; `cusolverDnSpotrf` -> "
         "`rocsolver_spotrf` takes no workspace) and for which no argument rewrite is implemented: the hip* "
         "name is kept instead (`translate/data/roc_signatures.csv` lists these mappings). cuDNN, which always maps "
         "to MIOpen, has no hip* library: there the cuDNN call is kept (`cudnnConvolutionForward` -> "
         "`miopenConvolutionForward` takes the workspace last, `cudnnSoftmaxForward` -> `miopenSoftmaxForward_V2` "
         "takes algorithm and mode last, `cudnnSetPooling2dDescriptor` has a NaN option MIOpen lacks).",
    why="Renaming the function but keeping CUDA's arguments emits a call that cannot compile. The hip* call "
        "keeps CUDA's argument list, but in --roc mode the handle and enums around it are rocBLAS's/rocSPARSE's, "
        "so the call still needs a hand edit.",
    example="cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A, CUDA_R_32F, m, B, CUDA_R_32F, k, &b, C, "
            "CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);",
    instead="Write the roc* call with its own arguments (for rocblas_gemm_ex: pass C again as D, "
            "`rocblas_datatype_f32_r`, `rocblas_gemm_algo_standard`, 0, 0), or convert the file without --roc "
            "(hipBLAS takes CUDA's arguments).",
    references=(_HIPIFY,),
)

HIP_SIGNATURE = api_rule(
    "C2R-A121", "HIP function takes other arguments in the target ROCm: call kept", severity=Severity.HIGH,
    layer=Layer.LIBRARY,
    what="A call whose HIP counterpart has another argument list in the --target-rocm release and for which no "
         "rewrite is implemented (`translate/data/hip_signatures.csv`): before ROCm 6.0 `hipsparseSpSV_solve` and "
         "`hipsparseSpSM_solve` take the analysis buffer as one more argument; CUDA 12's three-argument "
         "`cudaGraphExecUpdate` has no HIP form. The CUDA call is kept. Forms that can be rewritten are: CUDA 12's "
         "`cudaGraphInstantiate(exec, graph, flags)` becomes `hipGraphInstantiateWithFlags`, and from ROCm 6.0 "
         "`hipsparseSpSM_solve` gets its unused extra buffer argument as `nullptr`.",
    why="Renaming the function but keeping CUDA's arguments emits a call that cannot compile against that "
        "release's headers, or, where the types happen to convert, passes the wrong values.",
    example="cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x, y, CUDA_R_32F, "
            "CUSPARSE_SPSV_ALG_DEFAULT, d);",
    instead="Write the HIP call with the argument the release needs (`hipsparseSpSV_solve(..., d, buffer)` with the "
            "buffer given to `hipsparseSpSV_analysis`), or translate for a release whose HIP takes CUDA's "
            "arguments (`--target-rocm 6.0`).",
    references=(_HIPIFY,),
)

HAZARD_FIX_CONFLICT = api_rule(
    "C2R-A109", "Hazard fix skipped: it overlaps a translation edit", severity=Severity.MEDIUM,
    what="--fix-hazards proposed an edit that overlaps an identifier or launch rewrite, so it was not applied.",
    why="Applying both would corrupt the source; the hazard is still present in the output.",
    example="__global__ void k(float v) { v += __shfl_down_sync(0xffffffff, v, 16); }\n"
            "// convert --fix-hazards --target-rocm 5.2: the mask fix (C2R-K201) lies inside the __shfl_down "
            "fallback's edit",
    instead="Fix the hazard by hand; the hazard finding names the place.",
)

HELPER_HEADER = api_rule(
    "C2R-A130", "CUDA function or constant provided by a cuda2rocm helper header", severity=Severity.INFO,
    what="A CUDA device function HIP lacks (the per-byte/per-halfword SIMD intrinsics `__vadd2`, `__vmaxs4`, "
         "`__vabsdiffu4`, ...; `__syncwarp` before ROCm 7.0) that convert defines itself: the header "
         "`cuda2rocm_simd.h` (`cuda2rocm_warp.h`) is inserted into the translated file, once, and the calls keep "
         "their CUDA names. Likewise CUDA's math constants (`CUDART_PI_F`, ...) for a release without their `HIP_*` "
         "counterparts (before ROCm 5.3, 5.7 for the double ones): `cuda2rocm_math_constants.h` defines the ones "
         "the file uses.",
    why="hipcc does not declare these functions; without definitions the file does not compile. The header's "
        "lane-by-lane implementations are bit-exact against CUDA's intrinsics (checked on an NVIDIA H200 over "
        "every byte pair, lane edge values and 16M random words); each constant is its exact value rounded to "
        "its type.",
    example="unsigned d = __vabsdiffu4(a, b);  // compiles on HIP with the inserted cuda2rocm_simd.h",
    instead="Nothing to do; to share one copy, move the inserted block into a header of the project's own.",
)

HEADER_DROPPED = api_rule(
    "C2R-A117", "CUDA header without a HIP counterpart dropped: nothing it declares is used", severity=Severity.LOW,
    what="An `#include` of a CUDA header that the target ROCm release has no counterpart for "
         "(`cuda_device_runtime_api.h`, `nvml.h`, `math_constants.h` before ROCm 5.3, ...) in a file that uses none "
         "of the names the header declares (`translate/data/header_names.csv`), or only names a helper header of ours "
         "defines (C2R-A130). convert empties the include's line. A file that uses one of them keeps the "
         "include (C2R-A107).",
    why="hipcc stops at an include it cannot find (`fatal error: 'cuda_device_runtime_api.h' file not found`) "
        "although nothing in the file needs the header.",
    example="#include <cuda_device_runtime_api.h>\n__global__ void k(float* p) { p[0] = 1.0f; }",
    instead="Nothing to do; check that no other file relied on this one including the header.",
    references=(_HIPIFY,),
)

VECTOR_OPERATOR = api_rule(
    "C2R-A114", "Operator on a CUDA vector type that HIP's vector type already defines: guarded",
    severity=Severity.MEDIUM,
    what="A free `operator+=`, `-=`, `*=` or `/=` the project defines for two CUDA vector types "
         "(`void operator+=(float4& a, float4 b)`, as in cuda-samples' helper_math.h). convert puts the definition "
         "behind `#if !defined(__HIP_PLATFORM_AMD__)`, so NVIDIA builds keep it and HIP uses its own.",
    why="HIP's `float4` is `HIP_vector_type<float, 4>`, whose member `operator+=(const HIP_vector_type&)` takes the "
        "same operands: the two are equally good matches and hipcc rejects every `a += b` as ambiguous. HIP's "
        "member adds component-wise; a project operator that does something else needs a named function.",
    example="inline __host__ __device__ void operator+=(float4& a, float4 b) { a.x += b.x; a.y += b.y; "
            "a.z += b.z; a.w += b.w; }\n__global__ void k(float4* o, float4 v) { o[0] += v; }",
    instead="Nothing, when the operator works component by component (HIP's does the same); otherwise rename it "
            "to a function (`add_inplace(a, b)`).",
    references=(_PORTING,),
)

WEAK_ALIAS = api_rule(
    "C2R-A115", "#pragma weak alias of a host entity: kept for the host pass", severity=Severity.LOW,
    what="`#pragma weak alias = target` in a file hipcc compiles for the device (a CUDA source, or one with "
         "`__global__`/`__device__` code), where `target` is a host variable or function of the file. convert puts "
         "the pragma behind `#if !defined(__HIP_DEVICE_COMPILE__)`.",
    why="hipcc compiles each such file twice. The device pass emits no host globals or host functions, so the "
        "alias points at nothing (`error: alias must point to a defined variable or function`) and the unit does "
        "not compile; nvcc hands host code to the host compiler only. Device code cannot use host entities, so "
        "leaving the alias out of the device pass changes nothing; the host object keeps it.",
    example="int real_counter = 0;\n#pragma weak counter_alias = real_counter\n"
            "__global__ void k(int* p) { p[0] = 1; }",
    instead="Nothing; to write it by hand:\n#if !defined(__HIP_DEVICE_COMPILE__)\n"
            "#pragma weak counter_alias = real_counter\n#endif",
    references=(_PORTING,),
)

LAUNCH_KEPT = api_rule(
    "C2R-A116", "Kernel launch kept in <<<...>>> form", severity=Severity.INFO,
    what="With `--launch-syntax ggl`, a launch whose configuration is not 2 to 4 parameters convert can count: a "
         "macro defined elsewhere (`k<<<LAUNCH_CFG>>>(...)` with `LAUNCH_CFG` from another header), or a "
         "configuration of another size; or a launch through something that is no kernel name (a function pointer "
         "`(*fp)<<<...>>>`, `table[i]<<<...>>>`, a member `obj.k<<<...>>>`). The launch keeps its `<<<...>>>` form. "
         "A macro the file defines itself (`#define CFG grid, block`) is counted and rewritten.",
    why="hipcc accepts `<<<...>>>` launches, so the file still compiles; only the requested style is not applied. "
        "Rewriting without knowing where the grid ends would pass the block size as the grid.",
    example="#include \"launch_cfg.h\"\n__global__ void k(float* p) {}\nvoid f(float* p) { k<<<LAUNCH_CFG>>>(p); }",
    instead="Write the launch as `hipLaunchKernelGGL(k, dim3(grid), dim3(block), shared_bytes, stream, args...)`, "
            "or leave the `<<<...>>>` form.",
    references=(_PORTING,),
)
