__device__ void wait_for(volatile int* f) { int ns = 8; while (*f == 0) { __nanosleep(ns); if (ns < 256) ns *= 2; } }
