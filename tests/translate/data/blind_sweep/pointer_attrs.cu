// Pattern: checking where a pointer lives with cudaPointerGetAttributes (attributes.type), mapped
// pinned memory via cudaHostAlloc(cudaHostAllocMapped) + cudaHostGetDevicePointer, cudaHostRegister.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

static const char* where(const void* p) {
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) { cudaGetLastError(); return "unknown"; }
    switch (a.type) {
        case cudaMemoryTypeDevice: return "device";
        case cudaMemoryTypeHost: return "host";
        case cudaMemoryTypeManaged: return "managed";
        default: return "unregistered";
    }
}

int main() {
    cudaSetDeviceFlags(cudaDeviceMapHost);
    float *hm = nullptr, *dm = nullptr, *d = nullptr;
    cudaHostAlloc(&hm, 4096, cudaHostAllocMapped | cudaHostAllocPortable);
    cudaHostGetDevicePointer(&dm, hm, 0);
    cudaMalloc(&d, 4096);
    float* plain = (float*)malloc(4096);
    cudaHostRegister(plain, 4096, cudaHostRegisterDefault);
    printf("%s %s %s %s\n", where(hm), where(dm), where(d), where(plain));
    cudaPointerAttributes a;
    cudaPointerGetAttributes(&a, d);
    printf("dev %d ptr %p\n", a.device, a.devicePointer);
    cudaHostUnregister(plain);
    free(plain);
    cudaFreeHost(hm);
    cudaFree(d);
    return 0;
}
