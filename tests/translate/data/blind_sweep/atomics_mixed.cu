// Pattern: atomics of many types: atomicAdd on double and unsigned long long, atomicMax/atomicMin,
// atomicCAS loop implementing a float atomicMax, atomicExch, atomicInc wraparound, atomicAdd_block.
#include <cuda_runtime.h>

__device__ float atomicMaxFloat(float* addr, float v) {
    int* a = (int*)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void stats(const double* x, int n, double* sum, unsigned long long* cnt, int* mx, int* mn,
                      float* fmx, unsigned int* ring, int* flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(sum, x[i]);
    atomicAdd(cnt, 1ULL);
    atomicMax(mx, (int)x[i]);
    atomicMin(mn, (int)x[i]);
    atomicMaxFloat(fmx, (float)x[i]);
    atomicInc(ring, 15u);
    atomicExch(flag, 1);
    atomicAdd_block(mx, 0);
    atomicOr((unsigned int*)flag, 2u);
}

int main() {
    double *x, *sum;
    unsigned long long* cnt;
    int *mx, *mn, *flag;
    float* fmx;
    unsigned int* ring;
    cudaMalloc(&x, 8192); cudaMalloc(&sum, 8); cudaMalloc(&cnt, 8); cudaMalloc(&mx, 4);
    cudaMalloc(&mn, 4); cudaMalloc(&fmx, 4); cudaMalloc(&ring, 4); cudaMalloc(&flag, 4);
    stats<<<4, 256>>>(x, 1024, sum, cnt, mx, mn, fmx, ring, flag);
    cudaDeviceSynchronize();
    return 0;
}
