__global__ void k(float* p);
void run(float* p, int blocks) {
  void* args[] = {&p};
  cudaLaunchCooperativeKernel((void*)k, blocks, 256, args, 0, 0);
}
