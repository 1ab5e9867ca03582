# The base image comes from a build argument (docker build --build-arg BASE=...)
ARG BASE=rocm/dev-ubuntu-22.04:6.4.1-complete
ARG VERSION=1.4.0
FROM ${BASE}
ARG VERSION
# image manifest (cuda2rocm migrate deploy): build with --build-arg VERSION=<version>
LABEL org.opencontainers.image.base.name="rocm/dev-ubuntu-22.04:6.4.1-complete" \
      org.opencontainers.image.version="${VERSION}" \
      io.cuda2rocm.image.gpu-targets="gfx90a;gfx942" \
      io.cuda2rocm.image.os="ubuntu22.04" \
      io.cuda2rocm.image.rocm="6.4.1" \
      io.cuda2rocm.image.compiler="amdclang++/hipcc (ROCm 6.4.1)"
ENV ROCM_PATH=/opt/rocm LD_LIBRARY_PATH=/opt/rocm/lib
# pin the GPU runtime
RUN apt-get update && apt-get install -y hipcc hipblas-dev && \
    pip3 install torch --extra-index-url https://download.pytorch.org/whl/rocm6.4
RUN --mount=type=cache,target=/root/.cache/pip pip3 install torchvision --index-url https://download.pytorch.org/whl/rocm6.4
HEALTHCHECK CMD ["amd-smi", "list"]

# ---- findings ----
# 2:10 C2R-M101 medium: nvidia/cuda:12.4.1-devel-ubuntu22.04 -> rocm/dev-ubuntu-22.04:6.4.1-complete (the default of the ARG this FROM names): CUDA -devel images carry the toolkit and its math libraries: the -complete tag adds rocm-libs to rocm-dev
# 5:12 C2R-M111 info: image manifest labels added: base rocm/dev-ubuntu-22.04:6.4.1-complete, ROCm 6.4.1, targets gfx90a;gfx942
# 6:5 C2R-M106 low: CUDA_PATH -> ROCM_PATH: ROCm is found through ROCM_PATH (/opt/rocm)
# 6:52 C2R-M106 low: LD_LIBRARY_PATH: CUDA toolkit paths -> /opt/rocm
# 8:1 C2R-M107 low: NVIDIA_REQUIRE_CUDA: read by the NVIDIA container runtime only; removed
# 9:42 C2R-M104 medium: cuda-nvcc-12-4 -> hipcc
# 9:57 C2R-M104 medium: libcublas-dev-12-4 -> hipblas-dev
# 10:75 C2R-M109 medium: PyTorch's CUDA wheel index cu124 -> rocm6.4
# 11:118 C2R-M109 medium: PyTorch's CUDA wheel index cu124 -> rocm6.4
# 12:18 C2R-M110 low: nvidia-smi -> amd-smi list: lists the GPUs and fails when none is reachable
