// Atomics beyond add: atomicCAS float max, atomicMin/atomicMax/atomicExch/atomicInc.
#include "common.cuh"

__device__ float atomic_max_float(float* addr, float value) {
    int* as_int = (int*)addr;
    int old = *as_int, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value) break;
        old = atomicCAS(as_int, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void reduce_all(const float* x, int n, float* fmax, int* imin, int* imax, unsigned* counter, int* last) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomic_max_float(fmax, x[i]);
    atomicMin(imin, (int)x[i]);
    atomicMax(imax, (int)x[i]);
    atomicInc(counter, 1000000u);
    atomicExch(last, 7);
}

int main() {
    const int n = 5000;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = (float)((i * 37) % 1001) - 500.0f;
    float *x, *fmax; int *imin, *imax, *last; unsigned* counter;
    CHECK_CUDA(cudaMalloc(&x, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&fmax, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&imin, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&imax, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&last, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&counter, sizeof(unsigned)));
    float lo = -1e30f; int big = 1 << 30, small = -(1 << 30); unsigned zero = 0;
    CHECK_CUDA(cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(fmax, &lo, sizeof lo, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(imin, &big, sizeof big, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(imax, &small, sizeof small, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(counter, &zero, sizeof zero, cudaMemcpyHostToDevice));
    reduce_all<<<(n + 127) / 128, 128>>>(x, n, fmax, imin, imax, counter, last);
    float gmax; int gmin, gimax, glast; unsigned gcount;
    CHECK_CUDA(cudaMemcpy(&gmax, fmax, sizeof gmax, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&gmin, imin, sizeof gmin, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&gimax, imax, sizeof gimax, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&glast, last, sizeof glast, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&gcount, counter, sizeof gcount, cudaMemcpyDeviceToHost));
    std::printf("max %.1f min %d imax %d count %u last %d\n", gmax, gmin, gimax, gcount, glast);
    bool ok = gmax == 500.0f && gmin == -500 && gimax == 500 && gcount == (unsigned)n && glast == 7;
    return report("atomics_cas", ok);
}
