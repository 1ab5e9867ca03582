// Pattern: templated kernels launched through a host wrapper and a LAUNCH macro, with explicit template
// arguments containing commas, dim3 grids, dynamic shared memory and a stream (good for --launch-syntax ggl).
#include <cuda_runtime.h>

#define COMMA ,
#define LAUNCH(kernel, grid, block, smem, stream, ...) kernel<<<grid, block, smem, stream>>>(__VA_ARGS__)

template <typename T, int BS>
__global__ void __launch_bounds__(BS) scaleK(T* p, T a, int n) {
    int i = blockIdx.x * BS + threadIdx.x;
    if (i < n) p[i] *= a;
}

template <typename T, typename U>
__global__ void castK(const T* in, U* out, int n) {
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n) out[i] = static_cast<U>(tile[threadIdx.x]);
}

template <typename T>
void scale(T* p, T a, int n, cudaStream_t s) {
    constexpr int BS = 128;
    scaleK<T, BS><<<(n + BS - 1) / BS, BS, 0, s>>>(p, a, n);
}

int main() {
    float* f; double* d;
    cudaMalloc(&f, 1024 * sizeof(float));
    cudaMalloc(&d, 1024 * sizeof(double));
    cudaStream_t s;
    cudaStreamCreate(&s);
    scale<float>(f, 2.f, 1024, s);
    dim3 grid(8), block(128);
    castK<float, double><<<grid, block, block.x * sizeof(float), s>>>(f, d, 1024);
    auto back = castK<double, float>;  // a template-id with a comma cannot be a macro argument
    LAUNCH(back, grid, block, 128 * sizeof(double), s, d, f, 1024);
    LAUNCH(scaleK<float COMMA 128>, 8, 128, 0, s, f, 3.f, 1024);
    cudaStreamSynchronize(s);
    return 0;
}
