#!/usr/bin/env bash
# Kernel-level profiler output for `bench --kernels` parser fixtures (issue 20): ncu (CSV, raw metrics) and
# nsys (cuda_gpu_kern_sum CSV, where nsys is installed) on tests/perf/kernels/two_kernels.cu (normal and "slow") and two corpus programs.
# Packs everything into "$OUT/kernels.tar.gz" (kernels/, with the exact commands in commands.txt).
set -u
OUT=${OUT:?set OUT}
dir="$OUT/kernels"; mkdir -p "$dir"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "ncu=$NCU nsys=$NSYS nvcc=$NVCC" | tee "$dir/tools.txt"
"$NCU" --version >> "$dir/tools.txt" 2>&1; "$NSYS" --version >> "$dir/tools.txt" 2>&1
work=$(mktemp -d)
"$NVCC" -arch=sm_90 -O2 -o "$work/two_kernels" tests/perf/kernels/two_kernels.cu || exit 1
"$NVCC" -arch=sm_90 -O2 -std=c++17 -o "$work/matmul_tiled" tests/corpus/cuda/matmul_tiled.cu || true
"$NVCC" -arch=sm_90 -O2 -std=c++17 -o "$work/shared_reduction" tests/corpus/cuda/shared_reduction.cu || true
METRICS=gpu__time_duration.sum,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__block_size,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers
ncu_run() {  # name args...
  local name=$1; shift
  echo "ncu --csv --print-units base --metrics $METRICS $*" >> "$dir/commands.txt"
  "$NCU" --csv --print-units base --metrics "$METRICS" "$@" > "$dir/$name.ncu.csv" 2> "$dir/$name.ncu.stderr"
  echo "$name ncu rc=$?" | tee -a "$dir/commands.txt"
}
nsys_run() {
  local name=$1; shift
  echo "nsys profile -o $name --force-overwrite true $*; nsys stats --report cuda_gpu_kern_sum --format csv $name.nsys-rep" >> "$dir/commands.txt"
  (cd "$work" && "$NSYS" profile -o "$name" --force-overwrite true "$@" > "$dir/$name.nsys.stdout" 2>&1 &&
   "$NSYS" stats --report cuda_gpu_kern_sum --format csv --output "$dir/$name" "$name.nsys-rep" > "$dir/$name.stats.stdout" 2>&1)
  echo "$name nsys rc=$?" | tee -a "$dir/commands.txt"
}
ncu_run two_kernels "$work/two_kernels"
ncu_run two_kernels_run2 "$work/two_kernels"
ncu_run two_kernels_slow "$work/two_kernels" slow
[ -x "$work/matmul_tiled" ] && ncu_run matmul_tiled "$work/matmul_tiled"
[ -x "$work/shared_reduction" ] && ncu_run shared_reduction "$work/shared_reduction"
for i in 1 2 3; do nsys_run "two_kernels_run$i" "$work/two_kernels"; done
nsys_run two_kernels_slow "$work/two_kernels" slow
ls -la "$dir"
tar czf "$OUT/kernels.tar.gz" -C "$OUT" kernels && rm -rf "$dir"
