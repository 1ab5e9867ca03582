#!/usr/bin/env bash
# Collective bandwidth on this machine's GPUs (issue 7): cuda2rocm comm all-reduce and all-to-all,
# 1 MB .. 8 GB, timed three ways (CUDA graph, eager events loop, plain Python loop with wall clock),
# plus every other collective at 1 MB .. 1 GB (the N-GPU code paths), plus the GPU-marked perf tests.
# Run from the repo root:  OUT=/some/dir PYTHONPATH=$PWD/src:/tmp/site bash scripts/gpu/comm.sh
# Writes $OUT/comm.tar.gz (raw JSONL + logs) and $OUT/comm.log. NVLink multicast stays off.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
OUT=${OUT:?set OUT to a folder for the results}
NGPU=${NGPU:-$(python3 -c 'import torch; print(torch.cuda.device_count())')}
RES=$(mktemp -d)/comm-results; mkdir -p "$RES"
exec > >(tee "$OUT/comm.log") 2>&1
echo "== $(date -u +%FT%TZ) GPUs: $NGPU"; nvidia-smi -L; nvidia-smi topo -m
python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'
run() {  # run NAME ARGS...: one torchrun job of cuda2rocm comm
  local name=$1; shift
  echo "== comm $name: $*"
  python3 -m torch.distributed.run --nproc-per-node="$NGPU" --master-port=29511 -m cuda2rocm comm \
    --backend nccl --label "run=$name" -o "$RES/$name.jsonl" --force "$@"
  echo "== exit $?"
  tar -czf "$OUT/comm.tar.gz" -C "$(dirname "$RES")" comm-results  # keep what is done if cut short
}
export COLUMNS=140
run allreduce --ops all_reduce -b 1M -e 8G -f 2 --timing graph,events,wall --reps 7
run alltoall --ops all_to_all -b 1M -e 8G -f 2 --timing graph,events,wall --reps 7
run allops --ops all_gather,reduce_scatter,broadcast,sendrecv -b 1M -e 1G -f 4 --placement both \
  --dtypes float32,bfloat16 --timing graph --reps 5
# graph capture with NCCL's user-buffer registration for graphs off (is registration the graph-mode cost?)
NCCL_GRAPH_REGISTER=0 run allreduce-graph-noreg --ops all_reduce -b 1M -e 256M -f 2 --timing graph --reps 7
echo "== pytest gpu"
python3 -m pytest -q -p no:cacheprovider -m gpu tests/perf 2>&1 | tail -n 30
tar -czf "$OUT/comm.tar.gz" -C "$(dirname "$RES")" comm-results
echo "== done $(date -u +%FT%TZ)"
