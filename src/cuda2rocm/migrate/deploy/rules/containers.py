"""Rules of ``migrate deploy``: containers (see the package docstring for the id ranges): M1xx Dockerfiles,
M2xx ``docker run`` and compose files, M6xx CI pipelines."""

from __future__ import annotations

from cuda2rocm.migrate.deploy.rules._base import deploy_rule
from cuda2rocm.model import Severity

_DOCKER = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html"
_PACKAGES = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/package-manager-integration.html"
_IMAGES = "https://hub.docker.com/u/rocm"
_OCI = "https://github.com/opencontainers/image-spec/blob/main/annotations.md"
_TORCH = "https://pytorch.org/get-started/locally/"
_HIP_ENV = "https://pytorch.org/docs/stable/notes/hip.html"
_AMDSMI = "https://rocm.docs.amd.com/projects/amdsmi/en/latest/"
_COMPOSE = "https://docs.docker.com/compose/how-tos/gpu-support/"
_GHA = "https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions"
_GITLAB = "https://docs.gitlab.com/ci/yaml/"
_GUIDE = "docs/migrate.md#ci (separate CUDA and ROCm pipelines, each running the unit tests and a minimal model test)"

CUDA_BASE_IMAGE = deploy_rule(
    "C2R-M101", "dockerfile-cuda-base-image", severity=Severity.MEDIUM,
    what="A `FROM` (any stage; `ARG`-templated references resolved) of an NVIDIA CUDA or NGC image: `nvidia/cuda`, "
         "`nvcr.io/nvidia/pytorch`, `pytorch/pytorch:*-cuda*`, `vllm/vllm-openai`, ...",
    why="A CUDA image carries the CUDA runtime, libraries and CUDA builds of the frameworks; nothing in it runs on "
        "an AMD GPU.",
    example="FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04",
    instead="The ROCm image of the target release and OS from the knowledge base (`rocm/dev-ubuntu-22.04:<rocm>"
            "-complete`, `rocm/pytorch:rocm<rocm>_ubuntu<os>_py<py>_pytorch_release_<torch>`, `rocm/vllm`); a "
            "templated `FROM ${BASE}` gets its `ARG` default rewritten.",
    references=(_IMAGES, _DOCKER),
)
BASE_IMAGE_REVIEW = deploy_rule(
    "C2R-M102", "dockerfile-base-image-review", severity=Severity.LOW,
    what="The ROCm image chosen for a CUDA image is the nearest one, not an exact counterpart: a runtime image "
         "became a development image, the OS or the framework version changed, or the tag was built from the "
         "image's tag pattern.",
    why="The new image may be larger, bring another framework version, or (a built tag) not be published.",
    example="FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    instead="Check the tag exists (`docker manifest inspect`), pin its digest, and copy only `/opt/rocm` libraries "
            "into a slim final stage where size matters.",
    references=(_IMAGES,),
)
NO_ROCM_IMAGE = deploy_rule(
    "C2R-M103", "dockerfile-no-rocm-image", severity=Severity.HIGH,
    what="An NVIDIA image with no ROCm counterpart in the knowledge base (`nvcr.io/nvidia/tritonserver`, "
         "`nvcr.io/nvidia/tensorrt`, other NGC images).",
    why="The service the image provides must be rebuilt on another stack; no base-image swap exists.",
    example="FROM nvcr.io/nvidia/tritonserver:24.01-py3",
    instead="Serve with `rocm/vllm` or MIGraphX, or build the service on `rocm/dev-*`.",
    references=(_IMAGES,),
)
CUDA_PACKAGES = deploy_rule(
    "C2R-M104", "dockerfile-cuda-packages", severity=Severity.MEDIUM,
    what="CUDA system packages installed with apt/yum/dnf (`cuda-toolkit-*`, `cuda-*`, `libcublas*`, `libnccl*`, "
         "`libcudnn*`, driver packages).",
    why="They come from NVIDIA's repository and install CUDA libraries; the ROCm libraries have their own packages.",
    example="RUN apt-get update && apt-get install -y cuda-toolkit-12-1 libnccl2 libnccl-dev libcudnn8",
    instead="The ROCm packages (`rocm-hip-sdk`, `hip-runtime-amd`, `hipblas`, `rccl`, `rccl-dev`, `miopen-hip`, "
            "...) from AMD's repository (configured in the rocm/* images); driver packages go: the kernel driver "
            "(amdgpu-dkms) lives on the host.",
    references=(_PACKAGES,),
)
NVIDIA_REPOSITORY = deploy_rule(
    "C2R-M105", "dockerfile-nvidia-repository", severity=Severity.MEDIUM,
    what="Setup of NVIDIA's package repository (`cuda-keyring`, `developer.download.nvidia.com`).",
    why="The repository serves CUDA packages only; on a ROCm image it is dead weight, on another base the ROCm "
        "packages need AMD's repository instead.",
    example="RUN wget https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb",
    instead="Base the stage on a rocm/* image, or add repo.radeon.com as the ROCm installation guide says.",
    references=(_PACKAGES,),
)
CUDA_HOME = deploy_rule(
    "C2R-M106", "dockerfile-cuda-home", severity=Severity.LOW,
    what="`ENV`/`ARG` of `CUDA_HOME`, `CUDA_PATH` (and the other CUDA location variables), and `/usr/local/cuda` "
         "paths or `${CUDA_HOME}` references in `ENV` values (`PATH`, `LD_LIBRARY_PATH`).",
    why="ROCm is installed under `/opt/rocm`; `torch.utils.cpp_extension` and CMake find it through "
        "`ROCM_PATH`/`ROCM_HOME`.",
    example="ENV CUDA_HOME=/usr/local/cuda PATH=/usr/local/cuda/bin:${PATH}",
    instead="`ROCM_PATH=/opt/rocm` and `/opt/rocm` paths.",
    references=(_HIP_ENV,),
)
NVIDIA_RUNTIME_ENV = deploy_rule(
    "C2R-M107", "dockerfile-nvidia-runtime-env", severity=Severity.LOW,
    what="`NVIDIA_VISIBLE_DEVICES`, `NVIDIA_DRIVER_CAPABILITIES`, `NVIDIA_REQUIRE_CUDA`, `NVIDIA_DISABLE_REQUIRE` "
         "set in an image.",
    why="Only the NVIDIA container runtime reads them; a ROCm container sees the GPUs it is given with `--device`.",
    example="ENV NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility",
    instead="Nothing in the image: the run passes `/dev/kfd` and `/dev/dri` (or chosen render nodes).",
    references=(_DOCKER,),
)
TORCH_ARCH_LIST = deploy_rule(
    "C2R-M108", "dockerfile-torch-arch-list", severity=Severity.MEDIUM,
    what="`TORCH_CUDA_ARCH_LIST` (compute capabilities for PyTorch extension builds) in `ENV`/`ARG`.",
    why="ROCm builds of PyTorch extensions read `PYTORCH_ROCM_ARCH`; without it they build for the GPUs found at "
        "build time, usually none in a container build.",
    example='ENV TORCH_CUDA_ARCH_LIST="8.0;9.0"',
    instead='`PYTORCH_ROCM_ARCH="gfx90a;gfx942"` (the `--offload-arch` targets).',
    references=(_HIP_ENV,),
)
CUDA_WHEEL_INDEX = deploy_rule(
    "C2R-M109", "dockerfile-cuda-wheel-index", severity=Severity.MEDIUM,
    what="`pip install` with PyTorch's CUDA wheel index (`download.pytorch.org/whl/cu121`), CUDA local versions "
         "(`torch==2.1.2+cu121`), a CUDA wheel file's URL, or torch from PyPI (no index: a CUDA build on Linux); "
         "`conda install` of PyTorch.",
    why="Those wheels are CUDA builds: `torch.cuda.is_available()` is false on an AMD GPU.",
    example="RUN pip install torch --index-url https://download.pytorch.org/whl/cu121",
    instead="PyTorch's ROCm index of the target stack (`download.pytorch.org/whl/rocm7.1`: rewritten, or added after "
            "`install`), the pins the index carries (as `migrate build` pins requirements files); for conda, pip "
            "from that index.",
    references=(_TORCH,),
)
NVIDIA_SMI = deploy_rule(
    "C2R-M110", "dockerfile-nvidia-smi", severity=Severity.LOW,
    what="`nvidia-smi` in `RUN`, `CMD` or `HEALTHCHECK`.",
    why="nvidia-smi is not in a ROCm image; a health check that runs it always fails.",
    example="HEALTHCHECK CMD nvidia-smi || exit 1",
    instead="`amd-smi list` (lists the GPUs, fails when none is reachable); queries with options are mapped field by "
            "field (docs/migrate.md).",
    references=(_AMDSMI,),
)
IMAGE_MANIFEST = deploy_rule(
    "C2R-M111", "dockerfile-image-manifest", severity=Severity.INFO,
    what="`LABEL`s added to the final stage of a migrated Dockerfile: the base image and application version (OCI "
         "annotation keys) and the GPU targets, OS, ROCm, framework and compiler (`io.cuda2rocm.image.*`).",
    why="A ROCm image is only reproducible with its platform recorded: which gfx targets it was built for, on "
        "which ROCm and framework.",
    example="FROM nvidia/cuda:12.1.1-devel-ubuntu22.04",
    instead="Keep the labels current (`--build-arg APP_VERSION=...`); `cuda2rocm env --labels` records the same "
            "facts from a running machine.",
    references=(_OCI,),
)
STACK_CONFLICT = deploy_rule(
    "C2R-M112", "dockerfile-stack-conflict", severity=Severity.MEDIUM,
    what="A Dockerfile whose ROCm base image names another ROCm release than the run's target stack, or whose "
         "`rocm/pytorch` base carries another PyTorch release than the one the stack's requirements pin, followed "
         "by a `pip install` of requirements or of torch (which replaces the image's PyTorch).",
    why="The image, the wheels and the compiled extensions must come from one ROCm and one PyTorch: a torch wheel "
        "built for another ROCm, or a second PyTorch over the image's, fails at import or at the first kernel.",
    example="FROM pytorch/pytorch:2.1.2-cuda12.1-cudnn8-devel\nCOPY requirements.txt .\n"
            "RUN pip install -r requirements.txt",
    instead="One stack (printed at the start of `migrate`): base on `rocm/dev-*` of the stack's ROCm and install the "
            "pinned torch, or keep `rocm/pytorch` and pin `torch` to the release it carries; or give `--target-rocm` "
            "the release the image has.",
    references=(_IMAGES, _TORCH),
)
CMAKE_COMMAND = deploy_rule(
    "C2R-M113", "cmake-command-cuda", severity=Severity.MEDIUM,
    what="A `cmake` configure command in a Dockerfile `RUN`, a CI step or a script whose `-D` settings keep the "
         "build on CUDA: the project's own option that selects CUDA (declared in its listfiles: `option(PROJ_CUDA "
         "...)`, a cache string listing CUDA and HIP), `CMAKE_CUDA_ARCHITECTURES`, `CMAKE_CUDA_COMPILER`, "
         "`CMAKE_CUDA_FLAGS`, `CUDAToolkit_ROOT`.",
    why="`migrate build` rewrites the listfiles, but the command lines that configure them live elsewhere: left as "
        "they are, they select the CUDA branch again or hand CMake compute capabilities and nvcc.",
    example="FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUN cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=80",
    instead="The project's HIP option (`-DPROJ_CUDA=OFF -DPROJ_HIP=ON`, `-DGPU_BACKEND=HIP`), "
            "`-DCMAKE_HIP_ARCHITECTURES=<the stack's gfx targets>`, `CMAKE_HIP_*` for the other settings; a CUDA "
            "option with no HIP counterpart is reported (C2R-D110 in scan names the same settings).",
    references=("https://cmake.org/cmake/help/latest/variable/CMAKE_HIP_ARCHITECTURES.html",),
)

# ---- M2xx docker run and compose ----------------------------------------------------------------------------

COMPOSE_RUNTIME = deploy_rule(
    "C2R-M201", "compose-nvidia-runtime", severity=Severity.MEDIUM,
    what="`runtime: nvidia` on a compose service (or a mapping merged into services).",
    why="The NVIDIA container runtime injects NVIDIA devices and libraries; ROCm containers need the kernel "
        "devices instead.",
    example="# file: docker-compose.yml\nservices:\n  app:\n    image: myapp\n    runtime: nvidia",
    instead="`devices: [/dev/kfd, /dev/dri]`, `group_add: [video, render]`, `security_opt: [seccomp=unconfined]`, "
            "`ipc: host`, `shm_size: 8G`.",
    references=(_DOCKER, _COMPOSE),
)
COMPOSE_RESERVATION = deploy_rule(
    "C2R-M202", "compose-gpu-reservation", severity=Severity.MEDIUM,
    what="`deploy.resources.reservations.devices` entries with `driver: nvidia` or `capabilities: [gpu]`.",
    why="Compose hands those reservations to the NVIDIA runtime; there is no AMD driver for them.",
    example="# file: compose.yaml\nservices:\n  app:\n    image: myapp\n    deploy:\n      resources:\n"
            "        reservations:\n          devices:\n            - driver: nvidia\n              count: all\n"
            "              capabilities: [gpu]",
    instead="The ROCm device options as service keys (see C2R-M201); a `count`/`device_ids` selection becomes "
            "chosen `/dev/dri/renderD<N>` nodes (reported).",
    references=(_DOCKER, _COMPOSE),
)
COMPOSE_NVIDIA_ENV = deploy_rule(
    "C2R-M203", "compose-nvidia-env", severity=Severity.LOW,
    what="`NVIDIA_VISIBLE_DEVICES` / `NVIDIA_DRIVER_CAPABILITIES` in a service's `environment`.",
    why="Only the NVIDIA container runtime reads them.",
    example="# file: docker-compose.yml\nservices:\n  app:\n    image: myapp\n    environment:\n"
            "      - NVIDIA_VISIBLE_DEVICES=all\n      - MODEL=llama",
    instead="Removed; a GPU subset is chosen with render nodes in `devices` (or `ROCR_VISIBLE_DEVICES`).",
    references=(_DOCKER,),
)
DOCKER_RUN_GPUS = deploy_rule(
    "C2R-M204", "docker-run-gpus", severity=Severity.MEDIUM,
    what="`docker run --gpus ...`, `--runtime nvidia` and `-e NVIDIA_*` options on a command line (CI steps; launch "
         "scripts through the same mapping).",
    why="`--gpus` needs the NVIDIA container toolkit; it fails on an AMD host.",
    example="# file: .github/workflows/gpu.yml\non: push\njobs:\n  test:\n    runs-on: [self-hosted, gpu]\n"
            "    steps:\n      - run: docker run --gpus all myimage pytest",
    instead="`--device=/dev/kfd --device=/dev/dri --group-add=video --group-add=render "
            "--security-opt=seccomp=unconfined --ipc=host --shm-size=8G`.",
    references=(_DOCKER,),
)
COMPOSE_CUDA_IMAGE = deploy_rule(
    "C2R-M205", "compose-cuda-image", severity=Severity.MEDIUM,
    what="A compose service's `image:` naming a CUDA or NGC image.",
    why="As for a Dockerfile's base image (C2R-M101): nothing in it runs on an AMD GPU.",
    example="# file: docker-compose.yml\nservices:\n  app:\n    image: nvcr.io/nvidia/pytorch:24.01-py3",
    instead="The ROCm image from the knowledge base (images the project builds itself are migrated in their "
            "Dockerfile).",
    references=(_IMAGES,),
)

# ---- M6xx CI ------------------------------------------------------------------------------------------------

GITHUB_ROCM_JOB = deploy_rule(
    "C2R-M601", "ci-github-rocm-job", severity=Severity.LOW,
    what="A GitHub Actions job that runs on a GPU runner, in a CUDA container or after a CUDA-toolkit install step "
         "(`Jimver/cuda-toolkit`): a parallel ROCm job is added beside it (same steps; a ROCm container; the AMD "
         "runner labels and the device options only when the job runs GPU tests, a compile-only job keeps its "
         "hosted runner; the toolkit step left out; its own cache key); the CUDA job stays.",
    why="The migration guide asks for separate CUDA and ROCm images and pipelines, each running the unit tests and "
        "a minimal model test, so both platforms stay green while production moves.",
    example="# file: .github/workflows/ci.yml\non: push\njobs:\n  gpu-tests:\n    runs-on: [self-hosted, gpu]\n"
            "    container: nvidia/cuda:12.1.1-devel-ubuntu22.04\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: pytest tests",
    instead="`<job>-rocm` with `runs-on: [self-hosted, linux, rocm]` (`--runner-label`), `container: {image: "
            "rocm/..., options: --device=/dev/kfd --device=/dev/dri ...}` and the same steps; for a compile-only "
            "job the same runner and `container: {image: rocm/...}` without devices.",
    references=(_GHA, _GUIDE),
)
GITLAB_ROCM_JOB = deploy_rule(
    "C2R-M602", "ci-gitlab-rocm-job", severity=Severity.LOW,
    what="A GitLab CI job whose image (its own, or merged with `<<:`/`extends`) is a CUDA image or whose tags name a "
         "GPU runner: a parallel `<job>-rocm` job is added (ROCm image, the AMD runner tags, the same script).",
    why="As for GitHub Actions (C2R-M601): separate pipelines per platform.",
    example="# file: .gitlab-ci.yml\ntest-gpu:\n  image: nvidia/cuda:12.1.1-devel-ubuntu22.04\n  tags: [gpu]\n"
            "  script:\n    - pytest tests",
    instead="`<job>-rocm` with `image: rocm/...` and `tags: [self-hosted, linux, rocm]`; the runner passes the "
            "devices (`devices = [\"/dev/kfd\", \"/dev/dri\"]` and `group_add = [\"video\", \"render\"]` in its "
            "`[runners.docker]` configuration).",
    references=(_GITLAB, _GUIDE),
)
CI_ROCM_JOB_REVIEW = deploy_rule(
    "C2R-M603", "ci-rocm-job-review", severity=Severity.LOW,
    what="Something in a copied ROCm job that still names CUDA and was not rewritten: a build matrix over CUDA "
         "versions, `nvidia-smi` queries, `CUDA_*` variables, NVIDIA images of `services`.",
    why="The copy runs the same steps; CUDA-specific ones fail or test nothing on the AMD runner.",
    example="# file: .github/workflows/ci.yml\non: push\njobs:\n  gpu:\n    runs-on: [self-hosted, gpu]\n"
            "    strategy:\n      matrix:\n        cuda: ['12.1', '12.4']\n    steps:\n      - run: pytest",
    instead="Give the ROCm job its own matrix (ROCm releases) and ROCm spellings of the commands.",
    references=(_GHA, _GITLAB),
)
