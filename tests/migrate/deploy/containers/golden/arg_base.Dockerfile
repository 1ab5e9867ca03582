# The base image comes from a build argument (docker build --build-arg BASE=...)
ARG BASE=nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG VERSION=1.4.0
FROM ${BASE}
ARG VERSION
ENV CUDA_PATH=/usr/local/cuda-12.4 LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
# pin the GPU runtime
ENV NVIDIA_REQUIRE_CUDA="cuda>=12.4"
RUN apt-get update && apt-get install -y cuda-nvcc-12-4 libcublas-dev-12-4 && \
    pip3 install torch --extra-index-url https://download.pytorch.org/whl/cu124
RUN --mount=type=cache,target=/root/.cache/pip pip3 install torchvision --index-url https://download.pytorch.org/whl/cu124
HEALTHCHECK CMD ["nvidia-smi"]
