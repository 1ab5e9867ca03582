__device__ unsigned hash(unsigned x) { return (x * 2654435761u) & 0xffffffff; }
