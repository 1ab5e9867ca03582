#!/usr/bin/env bash
# Environment for a single-node run; comments must survive.
set -euo pipefail

export HIP_VISIBLE_DEVICES="0,1,2,3"   # the four GPUs of this box
export AMD_SERIALIZE_KERNEL=3 \
       PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'
CUDA_DEVICE_MAX_CONNECTIONS=1 GPU_MAX_HW_QUEUES=1 python -m train \
    --config "configs/a b.yaml" \
    --note 'nvidia-smi is only text here'
env HIP_VISIBLE_DEVICES=0 PYTORCH_ROCM_ARCH='gfx90a;gfx942' python build.py
echo "CUDA_VISIBLE_DEVICES=0 is text"   # a string, not an assignment

cat > job.env <<'END'
export HIP_VISIBLE_DEVICES=0
END

python - <<PY
import os
os.system("nvidia-smi -L")
CUDA_VISIBLE_DEVICES = "0"
PY
