// Pattern: pitched 2D allocations (cudaMallocPitch + cudaMemcpy2D + cudaMemset2D), 3D extents
// (cudaMalloc3D, make_cudaPitchedPtr, cudaMemcpy3DParms), peer copies and cudaMemcpyDefault.
#include <cuda_runtime.h>
#include <cstring>

__global__ void touch(cudaPitchedPtr p, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) ((float*)((char*)p.ptr + y * p.pitch))[x] += 1.f;
}

int main() {
    const int w = 100, h = 50, d = 4;
    float host[w * h] = {};
    float* dp; size_t pitch;
    cudaMallocPitch((void**)&dp, &pitch, w * sizeof(float), h);
    cudaMemset2D(dp, pitch, 0, w * sizeof(float), h);
    cudaMemcpy2D(dp, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    cudaMemcpy2DAsync(host, w * sizeof(float), dp, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost, 0);
    cudaExtent ext = make_cudaExtent(w * sizeof(float), h, d);
    cudaPitchedPtr vol;
    cudaMalloc3D(&vol, ext);
    cudaMemset3D(vol, 0, ext);
    cudaMemcpy3DParms parms;
    memset(&parms, 0, sizeof(parms));
    parms.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, h);
    parms.dstPtr = vol;
    parms.extent = make_cudaExtent(w * sizeof(float), h, 1);
    parms.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&parms);
    touch<<<h, 128>>>(vol, w, h);
    int n = 0, access = 0;
    cudaGetDeviceCount(&n);
    if (n > 1) {
        cudaDeviceCanAccessPeer(&access, 0, 1);
        if (access) cudaDeviceEnablePeerAccess(1, 0);
        float* other;
        cudaSetDevice(1); cudaMalloc(&other, 1024); cudaSetDevice(0);
        cudaMemcpyPeer(other, 1, dp, 0, 1024);
        cudaMemcpy(other, dp, 1024, cudaMemcpyDefault);
    }
    cudaFree(vol.ptr);
    cudaFree(dp);
    return 0;
}
