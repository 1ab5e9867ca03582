#include <cuda/atomic>
__global__ void ref_sys(int* counter) {
  cuda::atomic_ref<int, cuda::thread_scope_system> c(*counter);
  c.fetch_add(1);
}
