__device__ int f() { unsigned int active = __activemask(); return active > 0; }
