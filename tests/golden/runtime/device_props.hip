// Host-only file that includes the runtime explicitly.
#include <hip/hip_runtime_api.h>
#include <iostream>
int report() {
    int count = 0;
    hipGetDeviceCount(&count);
    for (int d = 0; d < count; ++d) {
        hipDeviceProp_t prop;
        hipGetDeviceProperties(&prop, d);
        std::cout << prop.name << " sm " << prop.major << "." << prop.minor
                  << " cudaDeviceProp.warpSize=" << prop.warpSize << "\n";
    }
    return hipSetDevice(0) == hipSuccess ? 0 : 1;
}
