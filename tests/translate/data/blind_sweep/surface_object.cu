// Pattern: surface object writes with surf2Dwrite (byte x offset) on a cudaArray created with
// cudaArraySurfaceLoadStore, read back with surf2Dread; uchar4 channel format.
#include <cuda_runtime.h>
#include <cstring>

__global__ void fill(cudaSurfaceObject_t surf, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 v = make_uchar4(x & 255, y & 255, 0, 255);
    surf2Dwrite(v, surf, x * sizeof(uchar4), y);
    uchar4 r;
    surf2Dread(&r, surf, x * sizeof(uchar4), y);
}

int main() {
    const int w = 128, h = 64;
    cudaChannelFormatDesc ch = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t arr;
    cudaMallocArray(&arr, &ch, w, h, cudaArraySurfaceLoadStore);
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaSurfaceObject_t surf = 0;
    cudaCreateSurfaceObject(&surf, &res);
    dim3 b(16, 16), g(w / 16, h / 16);
    fill<<<g, b>>>(surf, w, h);
    cudaDeviceSynchronize();
    cudaDestroySurfaceObject(surf);
    cudaFreeArray(arr);
    return 0;
}
