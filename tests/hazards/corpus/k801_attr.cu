int rdma(int dev) {
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrGPUDirectRDMASupported, dev);
  return v;
}
