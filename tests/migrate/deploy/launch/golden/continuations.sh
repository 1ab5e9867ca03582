#!/usr/bin/env bash
# Environment for a single-node run; comments must survive.
set -euo pipefail

export CUDA_VISIBLE_DEVICES="0,1,2,3"   # the four GPUs of this box
export CUDA_LAUNCH_BLOCKING=1 \
       PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'
export CUDA_MODULE_LOADING=LAZY
CUDA_DEVICE_MAX_CONNECTIONS=1 python -m train \
    --config "configs/a b.yaml" \
    --note 'nvidia-smi is only text here'
env CUDA_VISIBLE_DEVICES=0 TORCH_CUDA_ARCH_LIST="8.0;9.0" python build.py
echo "CUDA_VISIBLE_DEVICES=0 is text"   # a string, not an assignment

cat > job.env <<'END'
export CUDA_VISIBLE_DEVICES=0
export NCCL_NVLS_ENABLE=0
END

python - <<PY
import os
os.system("nvidia-smi -L")
CUDA_VISIBLE_DEVICES = "0"
PY
