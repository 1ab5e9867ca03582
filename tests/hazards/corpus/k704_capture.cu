void record(cudaStream_t s, float* p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 0, 64, s);
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
}
