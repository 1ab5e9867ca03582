bool big(const cudaDeviceProp& prop) { return prop.multiProcessorCount >= 80; }
