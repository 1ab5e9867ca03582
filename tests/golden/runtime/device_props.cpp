// Host-only file that includes the runtime explicitly.
#include <cuda_runtime_api.h>
#include <iostream>
int report() {
    int count = 0;
    cudaGetDeviceCount(&count);
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, d);
        std::cout << prop.name << " sm " << prop.major << "." << prop.minor
                  << " cudaDeviceProp.warpSize=" << prop.warpSize << "\n";
    }
    return cudaSetDevice(0) == cudaSuccess ? 0 : 1;
}
