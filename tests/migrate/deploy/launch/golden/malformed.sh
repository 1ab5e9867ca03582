#!/bin/bash
export CUDA_VISIBLE_DEVICES=0
echo "unterminated
export NCCL_ALGO=Tree
