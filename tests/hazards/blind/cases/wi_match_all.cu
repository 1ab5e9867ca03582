__device__ bool uniform(int key) {
  int pred;
  unsigned long long m = __match_all_sync(__activemask(), key, &pred);
  return pred && m;
}
