FROM nvcr.io/nvidia/pytorch:24.01-py3
ARG TORCH_CUDA_ARCH_LIST
# NVIDIA's repository for extra libraries
RUN wget -q https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb \
    && dpkg -i cuda-keyring_1.1-1_all.deb
RUN <<EOS
set -e
apt-get install -y libnccl2 libnccl-dev
nvidia-smi --query-gpu=name,memory.total --format=csv
EOS
COPY serve.py /serve.py
ENTRYPOINT ["python", "/serve.py"]
