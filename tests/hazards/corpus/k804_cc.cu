bool hopper(const cudaDeviceProp* p) { return p->major * 10 + p->minor >= 90; }
