#!/usr/bin/env bash
# Starts one server process per GPU; ranks split the model tensor-parallel.
set -euo pipefail

NUM_GPUS="${NUM_GPUS:-$(nvidia-smi --list-gpus | wc -l)}"
export NCCL_ASYNC_ERROR_HANDLING=1
export CUDA_DEVICE_MAX_CONNECTIONS=1

exec torchrun --standalone --nproc_per_node="${NUM_GPUS}" -m service.app --port 8000
