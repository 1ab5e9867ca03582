struct thread_block { int id; };
__device__ int this_thread_block_id(const thread_block& b) { return b.id; }
__global__ void groups(int* out) { thread_block b{(int)blockIdx.x}; out[0] = this_thread_block_id(b); }
