# syntax=docker/dockerfile:1
# Build stage: compiles the extension against CUDA
ARG CUDA_VERSION=12.1.1
FROM nvidia/cuda:${CUDA_VERSION}-cudnn8-devel-ubuntu22.04 AS builder
ENV CUDA_HOME=/usr/local/cuda \
    PATH=/usr/local/cuda/bin:${PATH} \
    TORCH_CUDA_ARCH_LIST="8.0;8.6;9.0+PTX"
# toolchain and libraries
RUN apt-get update && apt-get install -y --no-install-recommends \
      git cuda-toolkit-12-1 libnccl2=2.18.3-1+cuda12.1 libnccl-dev=2.18.3-1+cuda12.1 \
      libcudnn8 libcudnn8-dev cuda-drivers \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir torch==2.1.2+cu121 --index-url https://download.pytorch.org/whl/cu121
WORKDIR /src
COPY . .
RUN nvidia-smi -L && pip install --no-cache-dir --no-build-isolation .

# Runtime stage
FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04 AS runtime
ENV NVIDIA_VISIBLE_DEVICES=all
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility LANG=C.UTF-8
COPY --from=builder /src/dist /app
HEALTHCHECK --interval=30s CMD nvidia-smi || exit 1
CMD ["python3", "-m", "app"]
