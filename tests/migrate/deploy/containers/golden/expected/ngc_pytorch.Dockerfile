FROM rocm/pytorch:rocm6.4.1_ubuntu22.04_py3.10_pytorch_release_2.6.0
# image manifest (cuda2rocm migrate deploy): build with --build-arg APP_VERSION=<version>
ARG APP_VERSION=unknown
LABEL org.opencontainers.image.base.name="rocm/pytorch:rocm6.4.1_ubuntu22.04_py3.10_pytorch_release_2.6.0" \
      org.opencontainers.image.version="${APP_VERSION}" \
      io.cuda2rocm.image.gpu-targets="gfx90a;gfx942" \
      io.cuda2rocm.image.os="ubuntu22.04" \
      io.cuda2rocm.image.rocm="6.4.1" \
      io.cuda2rocm.image.framework="PyTorch 2.6.0" \
      io.cuda2rocm.image.compiler="amdclang++/hipcc (ROCm 6.4.1)"
ARG PYTORCH_ROCM_ARCH
# NVIDIA's repository for extra libraries
RUN wget -q https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb \
    && dpkg -i cuda-keyring_1.1-1_all.deb
RUN <<EOS
set -e
apt-get install -y rccl rccl-dev
nvidia-smi --query-gpu=name,memory.total --format=csv
EOS
COPY serve.py /serve.py
ENTRYPOINT ["python", "/serve.py"]

# ---- findings ----
# 1:6 C2R-M101 medium: nvcr.io/nvidia/pytorch:24.01-py3 -> rocm/pytorch:rocm6.4.1_ubuntu22.04_py3.10_pytorch_release_2.6.0: NGC PyTorch bundles Apex, Transformer Engine and NVIDIA tools; rocm/pytorch includes ROCm/apex, the rest needs checking
# 1:6 C2R-M102 low: rocm/pytorch:rocm6.4.1_ubuntu22.04_py3.10_pytorch_release_2.6.0 for nvcr.io/nvidia/pytorch:24.01-py3: tag built from rocm/pytorch's tag pattern: check it exists (docker manifest inspect) and pin its digest
# 1:38 C2R-M111 info: image manifest labels added: base rocm/pytorch:rocm6.4.1_ubuntu22.04_py3.10_pytorch_release_2.6.0, ROCm 6.4.1, targets gfx90a;gfx942
# 2:5 C2R-M108 medium: TORCH_CUDA_ARCH_LIST -> PYTORCH_ROCM_ARCH=gfx90a;gfx942: ROCm extension builds read the gfx targets from PYTORCH_ROCM_ARCH
# 4:5 C2R-M105 medium: NVIDIA's package repository is set up here: on a rocm/* base it is not needed (AMD's repository is configured)
# 8:20 C2R-M104 medium: libnccl2 -> rccl
# 8:29 C2R-M104 medium: libnccl-dev -> rccl-dev
# 9:1 C2R-M110 low: nvidia-smi --query-gpu -> amd-smi static --asic --csv ; amd-smi metric --mem-usage --csv (columns: name -> market_name, memory.total -> total_vram); amd-smi prints its own column names and units: re-check what parses the output (docs/migrate.md)
