__global__ void publish(int* data, int* flag) {
  data[0] = 42;
  __threadfence_system();
  flag[0] = 1;
}
