struct DeviceLog {
  __device__ void printf(const char* fmt, int v);
};
__global__ void k(DeviceLog* log, int* p) {
  log->printf("value %d", p[threadIdx.x]);
  int printf_count = p[0];
  p[1] = printf_count;
}
