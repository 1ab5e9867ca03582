// Texture objects: a 2D cudaArray read through tex2D with linear filtering and normalised reads, and a
// linear-memory texture read with tex1Dfetch; results checked against the host.
#include "common.cuh"
#include <cmath>

__global__ void sample2d(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w - 1 && y < h) out[y * (w - 1) + x] = tex2D<float>(tex, x + 1.0f, y + 0.5f);  // halfway between texels
}

__global__ void fetch1d(cudaTextureObject_t tex, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(tex, n - 1 - i);
}

int main() {
    const int w = 16, h = 8, n = 64;
    float img[w * h];
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img[y * w + x] = 10.0f * y + x;
    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    CHECK_CUDA(cudaMallocArray(&array, &fdesc, w, h));
    CHECK_CUDA(cudaMemcpy2DToArray(array, 0, 0, img, w * sizeof(float), w * sizeof(float), h,
                                   cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex2;
    CHECK_CUDA(cudaCreateTextureObject(&tex2, &res, &td, nullptr));

    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = i * i;
    int *din, *dout;
    float* dimg;
    CHECK_CUDA(cudaMalloc(&din, sizeof hin));
    CHECK_CUDA(cudaMalloc(&dout, sizeof hout));
    CHECK_CUDA(cudaMalloc(&dimg, (w - 1) * h * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    cudaResourceDesc lin = {};
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = din;
    lin.res.linear.desc = cudaCreateChannelDesc<int>();
    lin.res.linear.sizeInBytes = sizeof hin;
    cudaTextureDesc ltd = {};
    ltd.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex1;
    CHECK_CUDA(cudaCreateTextureObject(&tex1, &lin, &ltd, nullptr));

    sample2d<<<dim3(1, 1), dim3(w, h)>>>(tex2, dimg, w, h);
    fetch1d<<<1, n>>>(tex1, dout, n);
    CHECK_CUDA(cudaGetLastError());
    float himg[(w - 1) * h];
    CHECK_CUDA(cudaMemcpy(himg, dimg, sizeof himg, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < h; ++y)  // x + 1.0 with texel centres at +0.5: halfway between texels x and x + 1
        for (int x = 0; x < w - 1; ++x) ok = ok && std::fabs(himg[y * (w - 1) + x] - (10.0f * y + x + 0.5f)) < 0.01f;
    for (int i = 0; i < n; ++i) ok = ok && hout[i] == (n - 1 - i) * (n - 1 - i);
    std::printf("tex2D(1, 0.5) = %.2f, tex2D(15, 7.5) = %.2f, tex1Dfetch(0) = %d\n", himg[0],
                himg[(w - 1) * h - 1], hout[n - 1]);
    CHECK_CUDA(cudaDestroyTextureObject(tex1));
    CHECK_CUDA(cudaDestroyTextureObject(tex2));
    CHECK_CUDA(cudaFreeArray(array));
    cudaFree(din); cudaFree(dout); cudaFree(dimg);
    return report("texture_object", ok);
}
