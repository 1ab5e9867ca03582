__device__ int same_key(int key) {
  unsigned grp = __match_any_sync(__activemask(), key);
  return grp != 0;
}
