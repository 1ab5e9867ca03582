#!/bin/sh
# OpenMPI launch with the environment forwarded to every rank
mpirun -np 16 --hostfile hosts \
  -x CUDA_VISIBLE_DEVICES -x NCCL_DEBUG=WARN -x NCCL_IB_GID_INDEX=3 \
  -x NCCL_NVLS_ENABLE=0 \
  python train.py
deepspeed --num_gpus 8 train.py --deepspeed_config ds.json
NCCL_NVLS_ENABLE=0 NCCL_MIN_NCHANNELS=16 deepspeed --num_gpus 8 train.py
