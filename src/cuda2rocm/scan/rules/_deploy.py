"""C2R-D1xx: deployment on NVIDIA infrastructure (images, Kubernetes, CI, launchers, NCCL, nvidia-smi)."""

from __future__ import annotations

from cuda2rocm.model import Confidence as C
from cuda2rocm.model import Layer as L
from cuda2rocm.model import Severity as S
from cuda2rocm.rules import new_rule

F = "deployment"
DOCKER = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html"
K8S = "https://github.com/ROCm/k8s-device-plugin"
RCCL = "https://rocm.docs.amd.com/projects/rccl/en/latest/"

D101 = new_rule(
    "C2R-D101", "nvidia-base-image", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.OPS,
    what="Flags container images built on NVIDIA CUDA images (`nvidia/cuda`, `nvcr.io/nvidia/*`) in "
    "Dockerfiles, compose files, Kubernetes manifests and CI.",
    why="These images carry the CUDA user space and expect the NVIDIA container runtime; nothing in them "
    "runs on an AMD GPU.",
    example="FROM nvcr.io/nvidia/pytorch:24.01-py3",
    instead="Start from `rocm/pytorch:<rocm>_<ubuntu>_<python>_pytorch_<ver>` or `rocm/dev-ubuntu-22.04:<rocm>`.",
    references=(DOCKER,),
)
D102 = new_rule(
    "C2R-D102", "kubernetes-nvidia-gpu", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.OPS,
    what="Flags Kubernetes/Helm resources that request `nvidia.com/gpu`, select NVIDIA nodes or use the "
    "`nvidia` runtime class.",
    why="AMD GPUs are exposed by the ROCm device plugin as `amd.com/gpu`; a pod asking for nvidia.com/gpu "
    "stays Pending on AMD nodes.",
    example="resources:\n  limits:\n    nvidia.com/gpu: 4",
    instead="Request `amd.com/gpu` and select nodes with the AMD node labeller's labels.",
    references=(K8S,),
)
D103 = new_rule(
    "C2R-D103", "nccl-tuning-variable", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.OPS,
    what="Flags NCCL_* environment variables set in images, manifests, scripts or code, each described by the "
    "class `migrate deploy` acts on (project/data/nccl_classes.csv): no effect on RCCL (removed), tuning to "
    "redo, the cluster's network, or read with the same meaning. A read in Python (`os.environ.get(\"NCCL_DEBUG\")`) "
    "is not a setting and is not reported.",
    why="RCCL reads most NCCL_* names, but values tuned for NVLink/InfiniBand topologies (algorithms, "
    "channels, NVLS, P2P levels) are wrong for XGMI and must be re-tuned; some names do nothing on ROCm.",
    example="ENV NCCL_P2P_LEVEL=NVL NCCL_ALGO=Tree",
    instead="Start from RCCL defaults, then tune with `cuda2rocm comm` on the target nodes.",
    references=(RCCL,),
)
D104 = new_rule(
    "C2R-D104", "nvidia-smi-use", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.OPS,
    what="Flags calls of `nvidia-smi` in scripts, health checks, CI and code, and reads of the NVIDIA driver's "
    "`/proc/driver/nvidia/...` entries.",
    why="nvidia-smi does not exist on AMD nodes: health checks fail and GPU discovery returns nothing.",
    example="HEALTHCHECK CMD nvidia-smi || exit 1",
    instead="Use `amd-smi` (or `rocm-smi`) on ROCm.",
    references=("https://rocm.docs.amd.com/projects/amdsmi/en/latest/",),
)
D105 = new_rule(
    "C2R-D105", "nvidia-container-runtime", family=F, severity=S.HIGH, confidence=C.HIGH, layer=L.OPS,
    what="Flags NVIDIA container runtime settings: compose `driver: nvidia` device reservations, "
    "`runtime: nvidia`, `NVIDIA_VISIBLE_DEVICES`, `docker run --gpus`.",
    why="AMD GPUs are passed into containers as `/dev/kfd` and `/dev/dri` devices (or through the AMD "
    "container toolkit); NVIDIA runtime settings give the container no GPU.",
    example="deploy:\n  resources:\n    reservations:\n      devices:\n"
    "        - {driver: nvidia, count: all, capabilities: [gpu]}",
    instead="Add `devices: [/dev/kfd, /dev/dri]` and `group_add: [video]`, or use the AMD container toolkit.",
    references=(DOCKER,),
)
D106 = new_rule(
    "C2R-D106", "gpu-launcher", family=F, severity=S.LOW, confidence=C.HIGH, layer=L.OPS,
    what="Records distributed launchers and schedulers: torchrun, deepspeed, mpirun, srun/sbatch "
    "`--gres=gpu`, with their GPU and node counts.",
    why="Launch topology decides the porting effort: multi-node jobs need RCCL, network and scheduler "
    "changes (GPU resource names, binding) on the AMD cluster.",
    example="torchrun --nnodes 2 --nproc_per_node 8 train.py",
    instead="Keep the launcher; replace GPU resource names and re-validate collectives with `cuda2rocm comm`.",
    references=(RCCL,),
)
D107 = new_rule(
    "C2R-D107", "nvidia-ci-runner", family=F, severity=S.LOW, confidence=C.MEDIUM, layer=L.OPS,
    what="Flags CI jobs that need NVIDIA GPUs or toolkits (GPU runner labels, CUDA toolkit setup actions, "
    "CUDA images).",
    why="Without an AMD runner the ported code is never built or tested in CI.",
    example="runs-on: [self-hosted, gpu, a100]",
    instead="Add a ROCm job (self-hosted AMD runner or a hipcc compile-only job) next to the CUDA one.",
    references=("https://docs.github.com/en/actions/hosting-your-own-runners",),
)
D108 = new_rule(
    "C2R-D108", "cuda-runtime-env-variable", family=F, severity=S.LOW, confidence=C.MEDIUM, layer=L.OPS,
    what="Flags CUDA runtime/library environment variables (`CUDA_DEVICE_MAX_CONNECTIONS`, "
    "`CUDA_LAUNCH_BLOCKING`, `PYTORCH_CUDA_ALLOC_CONF`, `CUBLAS_WORKSPACE_CONFIG`, ...) whose ROCm "
    "counterpart has another name or no effect, per the bundled knowledge base.",
    why="The HIP runtime ignores most CUDA_* knobs; the behaviour they tuned (queue count, serialisation, "
    "allocator) silently falls back to defaults on AMD.",
    example="export CUDA_DEVICE_MAX_CONNECTIONS=1",
    instead="Set the ROCm analogue named in the message (for example `GPU_MAX_HW_QUEUES`).",
    references=("https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html",),
)
D109 = new_rule(
    "C2R-D109", "nvidia-system-software", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.OPS,
    what="Flags installs of NVIDIA-only system software in images and setup scripts: GPUDirect RDMA's peer-memory "
    "module (`nv_peer_mem`, `nvidia-peermem`), CUPTI (`libcupti-dev`), the container toolkit, Fabric Manager, DCGM.",
    why="None of them exists for AMD GPUs: the install step fails or installs nothing useful. ROCm's peer-to-peer "
    "RDMA support is part of the amdgpu driver, profiling goes through rocprofiler, monitoring through amd-smi, "
    "and containers need only /dev/kfd and /dev/dri.",
    example="RUN apt-get install -y libcupti-dev nv_peer_mem",
    instead="Drop the package from the ROCm image; install rocprofiler / amd-smi where the feature is needed.",
    references=("https://rocm.docs.amd.com/en/latest/how-to/gpu-enabled-mpi.html",),
)
D110 = new_rule(
    "C2R-D110", "cmake-command-cuda", family=F, severity=S.MEDIUM, confidence=C.HIGH, layer=L.OPS,
    what="Flags `cmake` configure commands in Dockerfiles, CI steps and scripts whose `-D` settings select or "
    "configure CUDA: the project's own GPU option (declared in its listfiles: `option(PROJ_USE_CUDA ...)`, a cache "
    "string listing CUDA), `CMAKE_CUDA_ARCHITECTURES`, `CMAKE_CUDA_COMPILER`, `CMAKE_CUDA_FLAGS`, `CUDAToolkit_ROOT`.",
    why="The command line decides the build as much as the listfiles do: migrated listfiles configured with "
    "`-DPROJ_USE_CUDA=ON` and compute capabilities build the CUDA branch again, or fail to find nvcc.",
    example="RUN cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=80",
    instead="`cuda2rocm migrate deploy` rewrites them (C2R-M113): the project's HIP option, "
    "`-DCMAKE_HIP_ARCHITECTURES=<gfx targets>`, `CMAKE_HIP_*`.",
    references=("https://cmake.org/cmake/help/latest/variable/CMAKE_HIP_ARCHITECTURES.html",),
)
