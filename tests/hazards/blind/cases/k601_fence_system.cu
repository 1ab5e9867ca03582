__global__ void publish(volatile int* ready, float* data) {
  data[threadIdx.x] = 1.0f;
  __threadfence_system();
  if (threadIdx.x == 0) *ready = 1;
}
