size_t l2(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  return prop.persistingL2CacheMaxSize;
}
