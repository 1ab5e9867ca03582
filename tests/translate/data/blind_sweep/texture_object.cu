// Pattern: 2D texture object over a cudaArray: cudaCreateChannelDesc<float>, cudaMallocArray,
// cudaMemcpy2DToArray, cudaResourceDesc/cudaTextureDesc setup, tex2D<float> sampling, cleanup.
#include <cuda_runtime.h>
#include <cstring>

__global__ void sample(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

int main() {
    const int w = 64, h = 64;
    float host[w * h] = {};
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &ch, w, h);
    cudaMemcpy2DToArray(arr, 0, 0, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);
    float* out;
    cudaMalloc(&out, w * h * sizeof(float));
    dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
    sample<<<g, b>>>(tex, out, w, h);
    cudaDeviceSynchronize();
    cudaDestroyTextureObject(tex);
    cudaFreeArray(arr);
    cudaFree(out);
    return 0;
}
