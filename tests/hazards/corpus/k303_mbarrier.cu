__device__ void arrive(unsigned addr) { asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(addr)); }
