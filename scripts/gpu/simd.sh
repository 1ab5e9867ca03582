#!/usr/bin/env bash
# Bit-exactness of translate/data/headers/cuda2rocm_simd.h against CUDA's SIMD intrinsics on the GPU.
# Writes "$OUT/simd-exact.txt" (one line per function: name, mismatches, words checked).
# Usage from the repo root: scripts/gpu/simd.sh [random-pairs]   (default 2^24)
set -eu
OUT=${OUT:?set OUT to the result folder}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NVCC" -std=c++17 -O2 -arch=sm_90 -I src/cuda2rocm/translate/data/headers tests/translate/simd/simd_exact.cu \
  -o "$work/simd_exact"
"$work/simd_exact" "${1:-16777216}" | tee "$OUT/simd-exact.txt"
