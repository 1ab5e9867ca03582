int sms(const cudaDeviceProp& prop) { return prop.multiProcessorCount * prop.warpSize + prop.sharedMemPerBlock; }
