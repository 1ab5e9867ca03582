__global__ void local_atomics(int* c, float* f) {
  atomicAdd(c, 1);
  atomicAdd_block(c + 1, 1);
  __threadfence();
  __threadfence_block();
  atomicExch(f, 0.0f);
}
