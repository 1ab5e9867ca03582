"""The ``requires`` strings of the K3xx, K5xx, K6xx, K7xx and K8xx rules on triggers that arrive in unusual ways
(split string literals, namespace aliases, ``using`` declarations, member accesses, macros, host-side API values):
the rule fires, and skipping the rules that lack their strings changes no hit. The name tables the checks match
hold one of their rule's strings each, so a name added to a table without its string fails here."""

from __future__ import annotations

import pytest

from cuda2rocm.hazards import atomics, clocks, cufft, dynamic, hardware, launch, props, runtimecode, textures
from cuda2rocm.hazards.engine import device_rules, hits
from cuda2rocm.rules import RULES
from cuda2rocm.source.tokens import tokenize

CASES = [
    # inline PTX: the other spellings of asm, templates split over several literals
    ("C2R-K301", '__device__ unsigned l() { unsigned r; __asm__ __volatile__("mov.u32 %0, %%la" "neid;" : "=r"(r));'
                 " return r; }\n"),
    ("C2R-K302", '__device__ void f(float* p) { __asm volatile("discard" ".global.L2 [%0], 128;" :: "l"(p)); }\n'),
    ("C2R-K303", '__device__ void f() { __asm("wgm" "ma.fence.sync.aligned;"); }\n'),
    # WMMA through a namespace alias, a using-declaration, and tensor-core PTX alone (no wmma name in the file)
    ("C2R-K501", "namespace w = nvcuda::wmma;\n"
                 "__global__ void k() { w::fragment<w::accumulator, 16, 16, 16, float> c; }\n"),
    ("C2R-K501", "using nvcuda::wmma::mma_sync;\n__global__ void k(F a, F b, F c) { mma_sync(c, a, b, c); }\n"),
    ("C2R-K501", '__device__ void f(unsigned* r, unsigned a) {\n'
                 '  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"\n'
                 '               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));\n}\n'),
    # async copies: libcu++ pipelines, and cp.async PTX with no API name
    ("C2R-K502", "__global__ void k() { auto pipe = cuda::make_pipeline(); }\n"),
    ("C2R-K502", '__device__ void f(unsigned s, const void* g) { asm volatile("cp.async.ca.shared.global [%0], [%1],'
                 ' 16;" :: "r"(s), "l"(g)); }\n'),
    # clusters through a member access of a cluster group
    ("C2R-K503", "__global__ void k(float* p) { auto c = cg::this_cluster(); float* q = c.map_shared_rank(p, 1); }\n"),
    # __nanosleep qualified with the global namespace
    ("C2R-K504", "__device__ void backoff(unsigned ns) { ::__nanosleep(ns); }\n"),
    # FP8 through PyTorch's scalar type, a member of at::
    ("C2R-K505", "bool fp8(const at::Tensor& t) { return t.scalar_type() == at::kFloat8_e4m3fn; }\n"),
    # cache hints nested in each other
    ("C2R-K506", "__global__ void k(float4* o, const float4* i) { __stwt(&o[0], __ldlu(&i[0])); }\n"),
    # HIP's own handle type, shifted
    ("C2R-K507", "__host__ __device__ unsigned hi(hipSurfaceObject_t s) { return (unsigned)(s >> 32); }\n"),
    # textures: a descriptor member, a surface reference template, a layered fetch
    ("C2R-K508", "void set(cudaTextureDesc* d) { d->normalizedCoords = 1; }\n"),
    ("C2R-K508", "surface<void, 2> out_surf;\n"),
    ("C2R-K508", "__global__ void k(T t, float* o) { o[0] = tex2DLayered<float>(t, 0.5f, 0.5f, 1); }\n"),
    # a system scope as a template argument of libcu++
    ("C2R-K601", "__global__ void k(int* p) { cuda::atomic_ref<int, cuda::thread_scope_system> r(*p); }\n"),
    # a half2 target reached through pointer arithmetic
    ("C2R-K602", "__global__ void k(__half2* acc, __half2 v) { atomicAdd(acc + 1, v); }\n"),
    # a do-while lock taken with atomicExch
    ("C2R-K603", "__device__ void lock(int* m) { int old; do { old = atomicExch(m, 1); } while (old != 0); }\n"),
    # a flag declared volatile at file scope, polled inside a kernel
    ("C2R-K604", "__device__ volatile int done;\n__global__ void k() { while (!done) { } }\n"),
    # HIP's managed allocation, and a __managed__ array
    ("C2R-K605", "void run(float** p) { hipMallocManaged(p, 64); }\n"),
    ("C2R-K605", "__managed__ float buf[4];\n"),
    # a block too large as a dim3 of the launch (no __launch_bounds__), and a bound given by a macro
    ("C2R-K701", "__global__ void k(float* p) { }\nvoid run(float* p) { k<<<dim3(4), dim3(32, 64)>>>(p); }\n"),
    ("C2R-K701", "#define THREADS (1024 * 2)\n__global__ void __launch_bounds__(THREADS) k(float* p) { }\n"),
    ("C2R-K702", "#define MINB 2\n__global__ void __launch_bounds__(256, MINB) k(float* p) { }\n"),
    # a grid group through a namespace alias, synchronised through a member call; a host cooperative launch
    ("C2R-K703", "namespace cg = cooperative_groups;\n__global__ void k() { auto g = cg::this_grid(); g.sync(); }\n"),
    ("C2R-K703", "void run(void** a) { cudaLaunchCooperativeKernel((void*)k, 1, 1, a, 0, 0); }\n"),
    # graphs: a capture query and an exec update on the host
    ("C2R-K704", "bool busy(cudaStream_t s) { cudaStreamCaptureStatus st; cudaStreamIsCapturing(s, &st);"
                 " return st; }\n"),
    ("C2R-K704", "void upd(cudaGraphExec_t e, cudaGraph_t g) { cudaGraphExecUpdate(e, g, nullptr); }\n"),
    # cooperative groups opened with using namespace, used unqualified, then through a member call
    ("C2R-K705", "using namespace cooperative_groups;\n__global__ void k(float* p) {\n"
                 "  auto t = tiled_partition<16>(this_thread_block());\n  p[0] = t.shfl_down(p[0], 1);\n}\n"),
    # a device property read through a pointer, and an attribute value
    ("C2R-K801", "int f(const cudaDeviceProp* prop) { return prop->sharedMemPerBlockOptin; }\n"),
    ("C2R-K801", "int f(int d) { int v; cudaDeviceGetAttribute(&v, cudaDevAttrMpsEnabled, d); return v; }\n"),
    # __CUDA_ARCH__ on the right of an #elif comparison; its absence tested with #if !defined
    ("C2R-K802", "#if defined(FOO)\nint a;\n#elif 800 <= __CUDA_ARCH__\nint b;\n#endif\n"),
    ("C2R-K803", "#if !defined(__CUDA_ARCH__)\nint host_only;\n#endif\n"),
    # a compute capability read into a variable not named major
    ("C2R-K804", "bool new_gpu(int d) { int m = 0;\n"
                 "  cudaDeviceGetAttribute(&m, cudaDevAttrComputeCapabilityMajor, d); return m >= 8; }\n"),
    # feature and version macros in #ifdef / #elif defined(...)
    ("C2R-K805", "#ifdef __CUDA_BF16_TYPES_EXIST__\nint bf16;\n#endif\n"),
    ("C2R-K805", "#if defined(FOO)\n#elif defined(__CUDACC_VER_MAJOR__)\nint v;\n#endif\n"),
    # NVRTC: the architecture as a separate array element; PTX out through a qualified call
    ("C2R-K304", 'void f(nvrtcProgram p) { const char* o[] = {"-arch", "sm_90a"}; nvrtcCompileProgram(p, 2, o); }\n'),
    ("C2R-K304", "void f(nvrtcProgram p, char* out) { ::nvrtcGetCUBIN(p, out); }\n"),
    # PTX text loaded from a raw string with no file name; a fatbin JIT input on its own
    ("C2R-K305", 'void f(CUmodule* m) { cuModuleLoadData(m, R"(.version 8.0\n.target sm_90\n)"); }\n'),
    ("C2R-K305", "int kind() { return CU_JIT_INPUT_FATBINARY; }\n"),
    # cuFFT callbacks: the shared-size call alone, through a function pointer
    ("C2R-K510", "auto* set_size = &cufftXtSetCallbackSharedSize;\n"),
    # dynamic parallelism: a runtime call in a lambda in a kernel, the launch ABI in host code
    ("C2R-K706", "__global__ void k() { auto w = [] { cudaDeviceSynchronize(); }; w(); }\n"),
    ("C2R-K706", "void* f() { return cudaGetParameterBufferV2(nullptr, dim3(1), dim3(1), 0); }\n"),
    # clocks: the old clock() in a for condition, the tick rate from the driver API beside a device clock
    ("C2R-K806", "__device__ void w(clock_t n) { for (clock_t t = clock(); clock() - t < n;) { } }\n"),
    ("C2R-K806", "__device__ long long now() { return clock64(); }\n"
                 "int khz(CUdevice d) { int r; cuDeviceGetAttribute(&r, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d); "
                 "return r; }\n"),
]


def _run(text: str, *, prefilter: bool) -> list[tuple[str, int, str]]:
    return [(h.rule, h.index, h.message) for h in hits(tokenize(text), text, "case.cu", rocm="5.2",
                                                         prefilter=prefilter)]


@pytest.mark.parametrize(("rule_id", "text"), CASES, ids=[f"{r}-{n}" for n, (r, _) in enumerate(CASES)])
def test_the_rule_fires_and_the_prefilter_changes_nothing(rule_id: str, text: str) -> None:
    filtered = _run(text, prefilter=True)
    assert filtered == _run(text, prefilter=False)
    assert any(rule == rule_id for rule, _, _ in filtered), filtered
    assert any(s in text for s in RULES[rule_id].requires)


def test_every_rule_of_this_file_has_requires_and_a_case() -> None:
    ids = {r.id for r in device_rules() if r.id[5] in "35678" and r.id != "C2R-K509"}
    assert ids == {r for r, _ in CASES}
    assert all(RULES[r].requires for r in ids)


#: (rule, names its check matches as whole identifiers or headers, or as prefixes)
TABLES = [
    ("C2R-K502", hardware._ASYNC | {"pipeline", "make_pipeline"}),
    ("C2R-K503", hardware._CLUSTER),
    ("C2R-K505", hardware._FP8 | {"cuda_fp8.h"}),
    ("C2R-K506", hardware._HINT_LOADS | hardware._HINT_STORES),
    ("C2R-K507", hardware._HANDLE_TYPES),
    ("C2R-K508", textures._OBJECT_CALLS | textures._REFERENCE_CALLS | textures._FETCHES | textures._SURFACES
     | textures._DESCRIPTORS | textures._SAMPLING | textures._TEMPLATES),
    ("C2R-K601", atomics._SYSTEM),
    ("C2R-K602", atomics._ATOMICS),
    ("C2R-K605", atomics._MANAGED_ALLOC | {"__managed__"}),
    ("C2R-K703", launch._COOP),
    ("C2R-K704", frozenset(launch._GRAPH_PREFIXES)),
    ("C2R-K801", frozenset(props.unsupported())),
    ("C2R-K804", props._CC_ATTR | {"major"}),
    ("C2R-K304", runtimecode._NVRTC_OUTPUTS | frozenset(runtimecode._NVRTC)),
    ("C2R-K305", frozenset(runtimecode._LOADS) | runtimecode._JIT_INPUTS),
    ("C2R-K510", cufft._CALLBACK_API),
    ("C2R-K706", dynamic._DEVICE_RUNTIME | dynamic._DEVICE_SIDE),
    ("C2R-K806", clocks._CLOCKS),
]


@pytest.mark.parametrize(("rule_id", "names"), TABLES, ids=[r for r, _ in TABLES])
def test_every_name_a_check_matches_holds_one_of_its_strings(rule_id: str, names: frozenset[str]) -> None:
    requires = RULES[rule_id].requires
    assert [n for n in sorted(names) if not any(s in n for s in requires)] == []
