#!/bin/bash
# GPU health and inventory
nvidia-smi --query-gpu=memory.used,memory.total --format=csv,noheader > mem.csv
nvidia-smi --query-gpu=name,utilization.gpu,compute_mode --format=csv
nvidia-smi topo -m
if ! nvidia-smi -L >/dev/null; then
    echo "no GPU" >&2
    exit 1
fi
timeout 10 nvidia-smi -L
COUNT=$(nvidia-smi -L | wc -l)
nvidia-smi -pm 1
nvidia-smi --query-gpu="$FIELDS" --format=csv
/usr/bin/nvidia-smi
docker run --rm --gpus all --runtime=nvidia -v "$PWD:/w" my/image:latest python /w/t.py
docker run --rm --gpus '"device=0,1"' my/image:latest
command -v nvidia-smi >/dev/null && echo "has a GPU tool"
grep -q nvidia-smi setup.log && echo "mentioned"
