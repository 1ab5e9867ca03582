int smem(const cudaDeviceProp* p) { return p->sharedMemPerBlockOptin; }
