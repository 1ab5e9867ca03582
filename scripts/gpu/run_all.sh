#!/usr/bin/env bash
# Runs the GPU evidence scripts in one device call (see docs/gpu-evidence.md).
# Usage on the lent machine, from the repo root: scripts/gpu/run_all.sh topic1 topic2 ...
set -u
export PYTHONUNBUFFERED=1
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    || echo "warning: wheel install failed"
fi
export PYTHONPATH="$PWD/src:/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
status=0
for topic in "$@"; do
  echo "=== $topic ==="
  start=$(date +%s)
  bash "scripts/gpu/$topic.sh" || { echo "=== $topic FAILED ($?)"; status=1; }
  echo "=== $topic took $(( $(date +%s) - start ))s"
done
exit $status
