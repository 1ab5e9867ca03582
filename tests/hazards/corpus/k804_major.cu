bool ampere(const cudaDeviceProp& prop) { return prop.major >= 8; }
