// Bit-exactness of cuda2rocm_simd.h against CUDA's own SIMD intrinsics, on an NVIDIA GPU.
// Build: nvcc -std=c++17 -I src/cuda2rocm/translate/data/headers tests/translate/simd/simd_exact.cu -o simd_exact
// Prints one line per function: "<name> <mismatches> <checked>"; exits 1 on any mismatch.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "cuda2rocm_simd.h"

#define BIN(X) X(vadd2) X(vadd4) X(vaddss2) X(vaddss4) X(vaddus2) X(vaddus4) X(vsub2) X(vsub4) \
  X(vsubss2) X(vsubss4) X(vsubus2) X(vsubus4) X(vavgs2) X(vavgs4) X(vavgu2) X(vavgu4) X(vhaddu2) X(vhaddu4) \
  X(vabsdiffs2) X(vabsdiffs4) X(vabsdiffu2) X(vabsdiffu4) X(vmaxs2) X(vmaxs4) X(vmaxu2) X(vmaxu4) \
  X(vmins2) X(vmins4) X(vminu2) X(vminu4) X(vseteq2) X(vseteq4) X(vsetne2) X(vsetne4) X(vsetges2) X(vsetges4) \
  X(vsetgeu2) X(vsetgeu4) X(vsetgts2) X(vsetgts4) X(vsetgtu2) X(vsetgtu4) X(vsetles2) X(vsetles4) \
  X(vsetleu2) X(vsetleu4) X(vsetlts2) X(vsetlts4) X(vsetltu2) X(vsetltu4) X(vcmpeq2) X(vcmpeq4) \
  X(vcmpne2) X(vcmpne4) X(vcmpges2) X(vcmpges4) X(vcmpgeu2) X(vcmpgeu4) X(vcmpgts2) X(vcmpgts4) \
  X(vcmpgtu2) X(vcmpgtu4) X(vcmples2) X(vcmples4) X(vcmpleu2) X(vcmpleu4) X(vcmplts2) X(vcmplts4) \
  X(vcmpltu2) X(vcmpltu4) X(vsads2) X(vsads4) X(vsadu2) X(vsadu4)
#define UN(X) X(vabs2) X(vabs4) X(vabsss2) X(vabsss4) X(vneg2) X(vneg4) X(vnegss2) X(vnegss4)

#define COUNT(name) +1
constexpr int kBin = 0 BIN(COUNT);
constexpr int kUn = 0 UN(COUNT);

__global__ void check(const unsigned* a, const unsigned* b, int n, unsigned long long* bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = 0;
#define CHECK_BIN(name) if (__##name(a[i], b[i]) != c2r_simd::name(a[i], b[i])) atomicAdd(&bad[f], 1ull); ++f;
#define CHECK_UN(name) if (__##name(a[i]) != c2r_simd::name(a[i])) atomicAdd(&bad[f], 1ull); ++f;
  BIN(CHECK_BIN)
  UN(CHECK_UN)
}

static unsigned next(unsigned long long* s) {  // splitmix64
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<unsigned>(z ^ (z >> 31));
}

int main(int argc, char** argv) {
  const int random_pairs = argc > 1 ? atoi(argv[1]) : (1 << 24);
  // Edge lane values, combined exhaustively over pairs for both lane widths, then random words.
  const unsigned edges16[] = {0x0000, 0x0001, 0x0002, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF, 0x00FF, 0xFF00};
  const unsigned edges8[] = {0x00, 0x01, 0x02, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
  const int n16 = sizeof(edges16) / sizeof(edges16[0]), n8 = sizeof(edges8) / sizeof(edges8[0]);
  // All 256x256 byte pairs replicated in every lane, plus edge halfwords.
  const int n = 65536 + n16 * n16 * n16 + n8 * n8 * n8 + random_pairs;
  unsigned* ha = (unsigned*)malloc(n * sizeof(unsigned));
  unsigned* hb = (unsigned*)malloc(n * sizeof(unsigned));
  int k = 0;
  for (unsigned x = 0; x < 256; ++x)
    for (unsigned y = 0; y < 256; ++y) { ha[k] = x * 0x01010101u; hb[k] = (y * 0x01010101u) ^ 0x00FF0000u; ++k; }
  for (int i = 0; i < n16; ++i) for (int j = 0; j < n16; ++j) for (int l = 0; l < n16; ++l) {
    ha[k] = edges16[i] | (edges16[j] << 16); hb[k] = edges16[l] | (edges16[i] << 16); ++k; }
  for (int i = 0; i < n8; ++i) for (int j = 0; j < n8; ++j) for (int l = 0; l < n8; ++l) {
    ha[k] = edges8[i] | (edges8[j] << 8) | (edges8[l] << 16) | (edges8[i] << 24);
    hb[k] = edges8[l] | (edges8[i] << 8) | (edges8[j] << 16) | (edges8[l] << 24); ++k; }
  unsigned long long seed = 20261201ull;
  for (int i = 0; i < random_pairs; ++i) { ha[k] = next(&seed); hb[k] = next(&seed); ++k; }
  unsigned *da, *db; unsigned long long* dbad;
  cudaMalloc(&da, n * sizeof(unsigned)); cudaMalloc(&db, n * sizeof(unsigned));
  cudaMalloc(&dbad, (kBin + kUn) * sizeof(unsigned long long));
  cudaMemset(dbad, 0, (kBin + kUn) * sizeof(unsigned long long));
  cudaMemcpy(da, ha, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  check<<<(n + 255) / 256, 256>>>(da, db, n, dbad);
  unsigned long long hbad[kBin + kUn];
  cudaError_t err = cudaMemcpy(hbad, dbad, sizeof(hbad), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) { printf("cuda error: %s\n", cudaGetErrorString(err)); return 2; }
  const char* names[] = {
#define NAME(name) #name,
    BIN(NAME) UN(NAME)
  };
  int failed = 0;
  for (int f = 0; f < kBin + kUn; ++f) { printf("%s %llu %d\n", names[f], hbad[f], n); failed |= hbad[f] != 0; }
  return failed;
}
