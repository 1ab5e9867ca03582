#!/usr/bin/env bash
# Issue 8: collectives on 2, 4 and 8 GPUs of one node (needs device kind nvidia-h200-x8).
# Run from the repo root:  OUT=/some/dir PYTHONPATH=$PWD/src:/tmp/site bash scripts/gpu/comm8.sh
# For each GPU count: all_reduce, all_gather, reduce_scatter, all_to_all, sendrecv at 1 MB .. 8 GB
# (timing auto = faster of CUDA-graph replay and eager events loop), plus the plain dist.all_reduce
# loop (timing wall) as the in-run reference. Writes $OUT/comm8.tar.gz (JSONL per GPU count + log)
# and $OUT/comm8.log; then `python benchmarks/comm.py --scaling <unpacked folder>` prints the table of
# busbw per size and GPU count, % of NVLink peak and scaling efficiency 2 -> 8.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
OUT=${OUT:?set OUT to a folder for the results}
RES=$(mktemp -d)/comm8-results; mkdir -p "$RES"
exec > >(tee "$OUT/comm8.log") 2>&1
echo "== $(date -u +%FT%TZ)"; nvidia-smi -L; nvidia-smi topo -m
for n in 2 4 8; do
  echo "== $n GPUs"
  python3 -m torch.distributed.run --nproc-per-node="$n" --master-port=29512 -m cuda2rocm comm --backend nccl \
    --ops all_reduce,all_gather,reduce_scatter,all_to_all,sendrecv -b 1M -e 8G -f 4 --timing auto --reps 5 \
    --label "gpus=$n" -o "$RES/comm-w$n.jsonl" --force
  python3 -m torch.distributed.run --nproc-per-node="$n" --master-port=29513 -m cuda2rocm comm --backend nccl \
    --ops all_reduce -b 1M -e 8G -f 4 --timing wall --reps 5 --label "gpus=$n" -o "$RES/plainloop-w$n.jsonl" --force
  tar -czf "$OUT/comm8.tar.gz" -C "$(dirname "$RES")" comm8-results
done
python3 benchmarks/comm.py --scaling "$RES" || true
echo "== done $(date -u +%FT%TZ)"
