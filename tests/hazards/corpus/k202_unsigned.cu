__device__ int leader(bool p) {
  unsigned votes = __ballot_sync(__activemask(), p);
  return votes != 0;
}
