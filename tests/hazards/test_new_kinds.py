"""Issue 32's hazard kinds without a rule before: dynamic parallelism (C2R-K706), NVRTC for NVIDIA targets
(C2R-K304), PTX/cubin through the driver API (C2R-K305), cuFFT callbacks (C2R-K510), CUTLASS FP8 (C2R-K505) and
clock-tick waits (C2R-K806). Each case is written here: hazards that must be found on the line marked ``// <-``,
and look-alikes that must stay quiet."""

from __future__ import annotations

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.source.tokens import tokenize

MARK = "// <-"


def _lines(code: str, rule: str, target: str = "MI300X") -> set[int]:
    return {f.line for f in analyze(tokenize(code), code, "case.cu", target_gpu=target) if f.rule == rule}


def _marked(code: str) -> set[int]:
    return {n for n, line in enumerate(code.splitlines(), 1) if MARK in line}


POSITIVE = [
    # dynamic parallelism: a launch and a device-side synchronisation in a kernel
    ("C2R-K706", """__global__ void child(float* p) { p[threadIdx.x] += 1.0f; }
__global__ void parent(float* p, int n) {
  if (threadIdx.x == 0) {
    child<<<n / 64, 64>>>(p);  // <-
    cudaDeviceSynchronize();  // <-
  }
}
"""),
    # a launch from a __device__ helper, a device-side stream, the launch ABI
    ("C2R-K706", """__global__ void leaf(int* p) { p[0] = 1; }
__device__ void spawn(int* p) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);  // <-
  leaf<<<1, 1, 0, s>>>(p);  // <-
}
__global__ void root(int* p) {
  void* buf = cudaGetParameterBuffer(64, 16);  // <-
  cudaLaunchDevice((void*)leaf, buf, dim3(1), dim3(1), 0, 0);  // <-
}
"""),
    # a launch inside a lambda inside a kernel; a tail launch into the named stream
    ("C2R-K706", """__global__ void leaf(int* p) { p[0] = 1; }
__global__ void root(int* p) {
  auto go = [&]() { leaf<<<1, 32>>>(p); };  // <-
  go();
  leaf<<<1, 32, 0, cudaStreamTailLaunch>>>(p);  // <-
}
"""),
    # NVRTC: architecture options in an array, split over two elements, and built at run time
    ("C2R-K304", """#include <nvrtc.h>
#include <string>
void build(nvrtcProgram prog, int major, int minor) {
  const char* opts[] = {"--gpu-architecture=compute_80", "-default-device"};  // <-
  const char* two[] = {"-arch", "sm_75"};  // <-
  std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);  // <-
  const char* o = arch.c_str();
  nvrtcCompileProgram(prog, 1, &o);
}
"""),
    # NVRTC: PTX and cubin out
    ("C2R-K304", """#include <nvrtc.h>
#include <vector>
std::vector<char> get(nvrtcProgram prog) {
  size_t n;
  nvrtcGetPTXSize(prog, &n);  // <-
  std::vector<char> ptx(n);
  nvrtcGetPTX(prog, ptx.data());  // <-
  nvrtcGetCUBIN(prog, ptx.data());  // <-
  return ptx;
}
"""),
    # the driver API: a .ptx file, a cubin path built in a variable, NVRTC's PTX, PTX text, JIT inputs
    ("C2R-K305", """#include <cuda.h>
#include <string>
#include <vector>
static const char* kPtx = ".version 7.0\\n.target sm_80\\n.visible .entry k() { ret; }";
void load(CUmodule* m, const std::string& dir, nvrtcProgram prog, CUlinkState link, std::vector<char>& code) {
  cuModuleLoad(m, "kernels/gemm.ptx");  // <-
  std::string path = dir + "/attention_sm90.cubin";
  cuModuleLoad(m, path.c_str());  // <-
  nvrtcGetPTX(prog, code.data());
  cuModuleLoadDataEx(m, code.data(), 0, nullptr, nullptr);  // <-
  cuModuleLoadData(m, kPtx);  // <-
  cuLinkAddData(link, CU_JIT_INPUT_PTX, (void*)kPtx, 10, "k.ptx", 0, nullptr, nullptr);  // <-
  cuLinkAddFile(link, CU_JIT_INPUT_CUBIN, "lib.cubin", 0, nullptr, nullptr);  // <-
}
"""),
    # cuFFT callbacks
    ("C2R-K510", """#include <cufftXt.h>
__device__ cufftComplex load_cb(void* in, size_t off, void* data, void* shared) { return ((cufftComplex*)in)[off]; }
__device__ cufftCallbackLoadC d_load = load_cb;
void plan(cufftHandle p) {
  cufftCallbackLoadC h_load;
  cudaMemcpyFromSymbol(&h_load, d_load, sizeof(h_load));
  cufftXtSetCallback(p, (void**)&h_load, CUFFT_CB_LD_COMPLEX, nullptr);  // <-
  cufftXtSetCallbackSharedSize(p, CUFFT_CB_LD_COMPLEX, 1024);  // <-
}
"""),
    # CUTLASS FP8 spellings
    ("C2R-K505", """#include <cutlass/numeric_types.h>
using ElementA = cutlass::float_e4m3_t;  // <-
using ElementB = cutlass::float_e5m2_t;  // <-
__global__ void k(cute::float_e4m3_t* q) { q[0] = cute::float_e4m3_t(1.0f); }  // <-
"""),
    # clock waits: a while on clock64, a do-while on a variable, a timeout break, a conversion with the SM clock
    ("C2R-K806", """__global__ void sleep_cycles(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) { }  // <-
}
__device__ void wait_ns(long long n) {
  long long start = clock64(), now;
  do {
    now = clock64();
  } while (now - start < n);  // <-
}
__global__ void watchdog(volatile int* flag, long long limit) {
  long long t0 = clock64();
  for (;;) {
    if (*flag) break;
    if (clock64() - t0 > limit) return;  // <-
  }
}
void launch(int dev, float ms) {
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);  // <-
  sleep_cycles<<<1, 1>>>((long long)(ms * khz));
}
"""),
]

NEGATIVE = [
    # host launches and a host cudaDeviceSynchronize; a member named like the runtime call
    ("C2R-K706", """__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }
void run(float* p) {
  k<<<1, 64>>>(p);
  cudaDeviceSynchronize();
}
struct Q { __device__ void cudaDeviceSynchronize() {} };
__global__ void g(Q* q) { q->cudaDeviceSynchronize(); }
"""),
    # a kernel that only mentions a launch in a comment or a string
    ("C2R-K706", """__global__ void k(const char** s) {
  // child<<<1, 1>>>(p); cudaDeviceSynchronize();
  s[0] = "cudaDeviceSynchronize()";
}
"""),
    # NVRTC for AMD, and an sm_ string in a file that never compiles with NVRTC
    ("C2R-K304", """#include <hiprtc.h>
void build(hiprtcProgram prog) {
  const char* opts[] = {"--offload-arch=gfx942"};
  hiprtcCompileProgram(prog, 1, opts);
}
const char* label = "--gpu-architecture=sm_80";
"""),
    ("C2R-K304", """#include <nvrtc.h>
void build(nvrtcProgram prog) {
  const char* opts[] = {"-default-device", "--std=c++17"};
  nvrtcCompileProgram(prog, 2, opts);
}
"""),
    # code objects, an image of unknown kind, and a comment naming a .ptx file
    ("C2R-K305", """#include <cuda.h>
void load(CUmodule* m, const void* image) {
  cuModuleLoad(m, "kernels.hsaco");  // was kernels.ptx
  cuModuleLoadData(m, image);
  cuLinkAddData(nullptr, CU_JIT_INPUT_LIBRARY, nullptr, 0, "x.a", 0, nullptr, nullptr);
}
"""),
    # a plain cuFFT plan; a project's own callback type
    ("C2R-K510", """#include <cufft.h>
typedef void (*myCallbackLoad)(void*);
void run(cufftHandle p, cufftComplex* d) { cufftExecC2C(p, d, d, CUFFT_FORWARD); }
"""),
    # FNUZ spellings and a project's own float_e4m3 struct name are not OCP FP8
    ("C2R-K505", """__global__ void k(__hip_fp8_e4m3_fnuz* q) { q[0] = __hip_fp8_e4m3_fnuz(1.0f); }
struct float_e4m3_box { int v; };
"""),
    # clock64 for profiling only; a host clock() loop; wall_clock64 waits; clockRate without a device clock
    ("C2R-K806", """#include <ctime>
__global__ void timed(float* p, long long* out) {
  long long t0 = clock64();
  for (int i = 0; i < 100; ++i) p[i] *= 2.0f;
  out[0] = clock64() - t0;
}
__global__ void spin(long long ticks) {
  long long t0 = wall_clock64();
  while (wall_clock64() - t0 < ticks) { }
}
void host_wait() { clock_t t = clock(); while (clock() - t < 1000) { } }
"""),
    ("C2R-K806", """int peak_flops(const cudaDeviceProp& prop) { return prop.clockRate * prop.multiProcessorCount; }
"""),
]


@pytest.mark.parametrize(("rule", "code"), POSITIVE, ids=[f"{r}-{n}" for n, (r, _) in enumerate(POSITIVE)])
def test_hazard_found_on_its_line(rule: str, code: str) -> None:
    assert _lines(code, rule) == _marked(code)


@pytest.mark.parametrize(("rule", "code"), NEGATIVE, ids=[f"{r}-{n}" for n, (r, _) in enumerate(NEGATIVE)])
def test_look_alike_stays_quiet(rule: str, code: str) -> None:
    assert _lines(code, rule) == set()


def test_cutlass_fp8_is_fine_where_the_target_uses_ocp() -> None:
    code = POSITIVE[7][1]
    assert _lines(code, "C2R-K505", target="MI355X") == set()
