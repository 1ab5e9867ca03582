#!/bin/bash
set -euo pipefail
export HIP_VISIBLE_DEVICES=0,1
export NCCL_P2P_DISABLE=1
nvidia-smi --query-gpu=name,memory.used --format=csv
docker run --rm --gpus all -e CUDA_VISIBLE_DEVICES=0,1 -e TORCH_CUDA_ARCH_LIST=9.0 myorg/serve:latest
torchrun --nproc_per_node=2 train.py
