// Tiled matrix transpose through padded shared memory (avoids bank conflicts).
#include "common.cuh"

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose(float* out, const float* in, int w, int h) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
    const int w = 200, h = 130;
    float* a = new float[w * h];
    float* b = new float[w * h];
    for (int i = 0; i < w * h; ++i) a[i] = (float)i;
    float *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, w * h * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dout, w * h * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(din, a, w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, ROWS);
    transpose<<<grid, block>>>(dout, din, w, h);
    CHECK_CUDA(cudaMemcpy(b, dout, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) ok = ok && b[c * h + r] == a[r * w + c];
    std::printf("b[1] = %.0f\n", b[1]);
    delete[] a; delete[] b; cudaFree(din); cudaFree(dout);
    return report("transpose", ok);
}
