// Templates: one kernel template instantiated for int, float and double, plus a functor parameter.
#include "common.cuh"

struct Square { template <typename T> __device__ T operator()(T v) const { return v * v; } };
struct Twice { template <typename T> __device__ T operator()(T v) const { return v + v; } };

template <typename T, typename Op>
__global__ void apply(T* d, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = op(d[i]);
}

template <typename T, typename Op>
double run(Op op, int n) {
    T* h = new T[n];
    for (int i = 0; i < n; ++i) h[i] = (T)(i % 5);
    T* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    apply<<<(n + 63) / 64, 64>>>(d, n, op);
    CHECK_CUDA(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += (double)h[i];
    CHECK_CUDA(cudaFree(d));
    delete[] h;
    return sum;
}

int main() {
    double a = run<int>(Square{}, 1000), b = run<float>(Twice{}, 1000), c = run<double>(Square{}, 1000);
    std::printf("int %.0f float %.0f double %.0f\n", a, b, c);
    return report("templates", a == 6000 && b == 4000 && c == 6000);
}
