__device__ void backoff(int attempt) {
  __nanosleep(100 << attempt);
}
