#!/bin/bash
# GPU health and inventory
amd-smi metric --mem-usage --csv > mem.csv
{ amd-smi static --asic --csv; amd-smi metric --usage --csv; }
amd-smi topology
if ! amd-smi list --csv >/dev/null; then
    echo "no GPU" >&2
    exit 1
fi
timeout 10 amd-smi list --csv
COUNT=$(amd-smi list --csv | tail -n +2 | wc -l)
nvidia-smi -pm 1
nvidia-smi --query-gpu="$FIELDS" --format=csv
amd-smi
docker run --rm --device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render --security-opt=seccomp=unconfined --ipc=host --shm-size=8G -v "$PWD:/w" my/image:latest python /w/t.py
docker run --rm --device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render --security-opt=seccomp=unconfined --ipc=host --shm-size=8G --env=ROCR_VISIBLE_DEVICES=0,1 my/image:latest
command -v amd-smi >/dev/null && echo "has a GPU tool"
grep -q nvidia-smi setup.log && echo "mentioned"
