__device__ int nactive() {
  return __popc(__activemask());
}
