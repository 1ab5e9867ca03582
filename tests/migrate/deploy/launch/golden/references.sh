#!/bin/bash
# Variables the script reads itself keep their CUDA name (HIP honours CUDA_VISIBLE_DEVICES).
unset CUDA_LAUNCH_BLOCKING
CUDA_VISIBLE_DEVICES=$SLURM_LOCALID
export CUDA_VISIBLE_DEVICES
echo "rank $SLURM_PROCID on GPU ${CUDA_VISIBLE_DEVICES}"
export CUDA_LAUNCH_BLOCKING=1
echo 'literal $CUDA_LAUNCH_BLOCKING is not a use'
export CUDA_HOME=/usr/local/cuda-12.4
export PATH="$CUDA_HOME/bin:$PATH"
