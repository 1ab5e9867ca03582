__global__ void bypass(int* o, const int* i) {
  int v = __ldcg(i + threadIdx.x);
  __stwt(o + threadIdx.x, v + __ldlu(i));
}
