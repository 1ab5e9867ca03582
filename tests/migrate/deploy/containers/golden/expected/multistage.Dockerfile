# syntax=docker/dockerfile:1
# Build stage: compiles the extension against CUDA
ARG CUDA_VERSION=12.1.1
FROM rocm/dev-ubuntu-22.04:6.4.1-complete AS builder
ENV ROCM_PATH=/opt/rocm \
    PATH=/opt/rocm/bin:${PATH} \
    PYTORCH_ROCM_ARCH="gfx90a;gfx942"
# toolchain and libraries
RUN apt-get update && apt-get install -y --no-install-recommends \
      git rocm-hip-sdk rccl rccl-dev \
      miopen-hip miopen-hip-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir torch==2.8.0+rocm6.4 --index-url https://download.pytorch.org/whl/rocm6.4
WORKDIR /src
COPY . .
RUN amd-smi list && pip install --no-cache-dir --no-build-isolation .

# Runtime stage
FROM rocm/dev-ubuntu-22.04:6.4.1-complete AS runtime
# image manifest (cuda2rocm migrate deploy): build with --build-arg APP_VERSION=<version>
ARG APP_VERSION=unknown
LABEL org.opencontainers.image.base.name="rocm/dev-ubuntu-22.04:6.4.1-complete" \
      org.opencontainers.image.version="${APP_VERSION}" \
      io.cuda2rocm.image.gpu-targets="gfx90a;gfx942" \
      io.cuda2rocm.image.os="ubuntu22.04" \
      io.cuda2rocm.image.rocm="6.4.1" \
      io.cuda2rocm.image.compiler="amdclang++/hipcc (ROCm 6.4.1)"
ENV LANG=C.UTF-8
COPY --from=builder /src/dist /app
HEALTHCHECK --interval=30s CMD amd-smi list || exit 1
CMD ["python3", "-m", "app"]

# ---- findings ----
# 4:6 C2R-M101 medium: nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 -> rocm/dev-ubuntu-22.04:6.4.1-complete: CUDA -devel images carry the toolkit and its math libraries: the -complete tag adds rocm-libs to rocm-dev
# 5:5 C2R-M106 low: CUDA_HOME -> ROCM_PATH: ROCm is found through ROCM_PATH (/opt/rocm)
# 6:10 C2R-M106 low: PATH: CUDA toolkit paths -> /opt/rocm
# 7:5 C2R-M108 medium: TORCH_CUDA_ARCH_LIST -> PYTORCH_ROCM_ARCH=gfx90a;gfx942: ROCm extension builds read the gfx targets from PYTORCH_ROCM_ARCH
# 10:11 C2R-M104 medium: cuda-toolkit-12-1 -> rocm-hip-sdk
# 10:29 C2R-M104 medium: libnccl2 -> rccl (its CUDA version pin dropped)
# 10:56 C2R-M104 medium: libnccl-dev -> rccl-dev (its CUDA version pin dropped)
# 11:7 C2R-M104 medium: libcudnn8 -> miopen-hip
# 11:17 C2R-M104 medium: libcudnn8-dev -> miopen-hip-dev
# 11:30 C2R-M104 medium: cuda-drivers removed: the kernel driver lives on the host (amdgpu-dkms); containers never install it
# 13:39 C2R-B601 medium: torch 2.1.2+cu121: the ROCm 6.4 index has no build of torch 2.1.2 (it carries 2.9.1, 2.9.0, 2.8.0); pinned to 2.8.0+rocm6.4, the nearest: check what changed between the releases
# 13:96 C2R-M109 medium: PyTorch's CUDA wheel index cu121 -> rocm6.4
# 16:5 C2R-M110 low: nvidia-smi -L -> amd-smi list: lists the GPUs and fails when none is reachable
# 19:6 C2R-M101 medium: nvidia/cuda:12.1.1-runtime-ubuntu22.04 -> rocm/dev-ubuntu-22.04:6.4.1-complete: rocm/dev-* has no slim runtime image: -complete carries the compiler and headers too (a multi-stage build can copy only /opt/rocm libraries)
# 19:6 C2R-M102 low: rocm/dev-ubuntu-22.04:6.4.1-complete for nvidia/cuda:12.1.1-runtime-ubuntu22.04: rocm/dev-* has no slim runtime image: -complete carries the compiler and headers too (a multi-stage build can copy only /opt/rocm libraries)
# 19:55 C2R-M111 info: image manifest labels added: base rocm/dev-ubuntu-22.04:6.4.1-complete, ROCm 6.4.1, targets gfx90a;gfx942
# 20:1 C2R-M107 low: NVIDIA_VISIBLE_DEVICES: read by the NVIDIA container runtime only; removed
# 21:4 C2R-M107 low: NVIDIA_DRIVER_CAPABILITIES is read by the NVIDIA container runtime only; removed
# 23:32 C2R-M110 low: nvidia-smi -> amd-smi list: lists the GPUs and fails when none is reachable
