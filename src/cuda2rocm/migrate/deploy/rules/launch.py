"""Rules of ``migrate deploy``: launch scripts and environment variables (M4xx), NCCL -> RCCL (M5xx).

Every environment variable assignment any deploy file makes is decided in one place,
:func:`cuda2rocm.migrate.deploy.environment.env_change`; these are the rules its decisions carry.
"""

from __future__ import annotations

from cuda2rocm.migrate.deploy.rules._base import deploy_rule
from cuda2rocm.model import Severity

_HIP_ENV = "https://rocm.docs.amd.com/projects/HIP/en/latest/reference/env_variables.html"
_ISOLATION = "https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html"
_RCCL_ENV = "https://rocm.docs.amd.com/projects/rccl/en/latest/api-reference/env-variables.html"
_RCCL_TIPS = "https://rocm.docs.amd.com/projects/rccl/en/latest/how-to/rccl-usage-tips.html"
_AMDSMI = "https://rocm.docs.amd.com/projects/amdsmi/en/latest/how-to/amdsmi-cli-tool.html"
_TORCH_HIP = "https://pytorch.org/docs/stable/notes/hip.html"
_SLURM_GRES = "https://slurm.schedmd.com/gres.html"
_ROCM_DOCKER = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html"

VISIBLE_DEVICES = deploy_rule(
    "C2R-M401", "env-visible-devices", severity=Severity.LOW,
    what="`CUDA_VISIBLE_DEVICES` set in a launch script, a job file or a container environment.",
    why="The HIP runtime also reads CUDA_VISIBLE_DEVICES, but ROCm's own selectors are HIP_VISIBLE_DEVICES (HIP "
        "runtime level) and ROCR_VISIBLE_DEVICES (ROCr level, below every ROCm runtime); setting the CUDA name "
        "hides which level restricts the devices, and UUID or MIG values mean nothing on AMD.",
    example="# file: run.sh\nexport CUDA_VISIBLE_DEVICES=0,1\npython train.py",
    instead="`HIP_VISIBLE_DEVICES` with the same indices (or `ROCR_VISIBLE_DEVICES` to restrict every ROCm runtime); "
            "keep CUDA_VISIBLE_DEVICES where the application reads it itself.",
    references=(_ISOLATION, _HIP_ENV),
)
RUNTIME_VARIABLE = deploy_rule(
    "C2R-M402", "env-cuda-runtime-variable", severity=Severity.LOW,
    what="CUDA runtime or toolkit variables with a ROCm counterpart of another name: `CUDA_LAUNCH_BLOCKING`, "
         "`CUDA_DEVICE_MAX_CONNECTIONS`, `CUDA_HOME`/`CUDA_PATH`, `TORCH_CUDA_ARCH_LIST`, `CUDA_MODULE_LOADING`.",
    why="The HIP runtime and PyTorch's ROCm build read other names (AMD_SERIALIZE_KERNEL, GPU_MAX_HW_QUEUES, "
        "ROCM_PATH, PYTORCH_ROCM_ARCH); the CUDA names silently do nothing there.",
    example="# file: run.sh\nexport CUDA_LAUNCH_BLOCKING=1\npython train.py",
    instead="The ROCm variable (rewritten), or the CUDA one kept beside it where applications read it themselves.",
    references=(_HIP_ENV, _TORCH_HIP),
)
HONOURED = deploy_rule(
    "C2R-M403", "env-honoured-on-rocm", severity=Severity.INFO,
    what="CUDA-named variables that ROCm builds read under the same name (`PYTORCH_CUDA_ALLOC_CONF`, "
         "`PYTORCH_NO_CUDA_MEMORY_CACHING`, `CUBLAS_WORKSPACE_CONFIG`).",
    why="They keep working; the finding records it and names the ROCm-specific spelling where one exists.",
    example="# file: run.sh\nexport PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\npython train.py",
    instead="Nothing to change; the ROCm spelling (e.g. PYTORCH_HIP_ALLOC_CONF) is optional.",
    references=(_TORCH_HIP,),
)
NO_COUNTERPART = deploy_rule(
    "C2R-M404", "env-no-rocm-counterpart", severity=Severity.MEDIUM,
    what="CUDA or NVIDIA-runtime variables with no known ROCm counterpart (`CUDA_DEVICE_ORDER`, "
         "`NVIDIA_VISIBLE_DEVICES`, unknown `CUDA_*`), and values that cannot be carried over (GPU UUIDs).",
    why="On AMD they have no effect, so whatever they arranged (device order, visibility, a workaround) is lost.",
    example="# file: run.sh\nexport CUDA_DEVICE_ORDER=PCI_BUS_ID\npython train.py",
    instead="Decide what the setting was for and arrange it the ROCm way (device isolation, ROCR_VISIBLE_DEVICES).",
    references=(_HIP_ENV, _ISOLATION),
)
MODULE_LOAD = deploy_rule(
    "C2R-M405", "module-load-cuda", severity=Severity.LOW,
    what="Environment modules of the CUDA stack: `module load cuda/12.1 nccl/2.18 cudnn/...`.",
    why="An AMD node needs the ROCm stack's modules; their names are the site's choice (`rocm/6.2.0` is common).",
    example="# file: job.sh\nmodule load cuda/12.1\npython train.py",
    instead="`module load rocm/<version>` (RCCL and MIOpen ship inside ROCm); check `module avail rocm` on the site.",
    references=("https://lmod.readthedocs.io/en/latest/010_user.html",),
)
SLURM_GPUS = deploy_rule(
    "C2R-M406", "slurm-gpu-request", severity=Severity.INFO,
    what="Slurm GPU requests: `#SBATCH --gres=gpu[:type]:N`, `--gpus-per-node`, `--gpus`, `--gpus-per-task`.",
    why="Counts carry over; a GPU type in the request (`gpu:a100:4`) names NVIDIA hardware, and the gres and "
        "partition names are defined by each site's gres.conf.",
    example="# file: job.sbatch\n#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun python train.py",
    instead="Keep the count; replace an NVIDIA GPU type by the AMD partition's (e.g. `gpu:mi250:4`) and check the "
            "partition name with the site.",
    references=(_SLURM_GRES,),
)
SMI = deploy_rule(
    "C2R-M407", "nvidia-smi-command", severity=Severity.MEDIUM,
    what="`nvidia-smi` invocations (`-L`, `--query-gpu=... --format=csv`, `topo -m`, plain).",
    why="nvidia-smi is not installed on AMD nodes; `amd-smi` (ROCm >= 6) reports the same facts under its own "
        "subcommands and column names, so scripts that parse the output must be checked.",
    example="# file: run.sh\nnvidia-smi --query-gpu=name,memory.used --format=csv",
    instead="The amd-smi subcommand with the mapped options (`amd-smi list`, `amd-smi metric --mem-usage --csv`, "
            "`amd-smi topology`); re-check anything that parses its output.",
    references=(_AMDSMI,),
)
SMI_FIELD = deploy_rule(
    "C2R-M408", "nvidia-smi-field-unmapped", severity=Severity.MEDIUM,
    what="nvidia-smi options or query fields with no amd-smi counterpart (`compute_mode`, `mig.mode.current`, "
         "`persistence_mode`, `-pm`, ...), or an invocation too dynamic to map.",
    why="The command is left as it is (it fails on an AMD node) because no faithful translation exists.",
    example="# file: run.sh\nnvidia-smi --query-gpu=compute_mode --format=csv",
    instead="Drop the field or read the fact another way (amd-smi static, sysfs).",
    references=(_AMDSMI,),
)
DOCKER_GPUS = deploy_rule(
    "C2R-M409", "shell-docker-run-gpus", severity=Severity.MEDIUM,
    what="`docker run --gpus ...` (and `--runtime=nvidia`) in a shell script.",
    why="`--gpus` goes through the NVIDIA container toolkit; ROCm containers get the GPUs as the /dev/kfd and "
        "/dev/dri devices with the video group.",
    example="# file: run.sh\ndocker run --rm --gpus all my/image:latest",
    instead="`--device=/dev/kfd --device=/dev/dri --group-add video --security-opt seccomp=unconfined --ipc=host`.",
    references=(_ROCM_DOCKER,),
)
PROFILER = deploy_rule(
    "C2R-M411", "profiler-command", severity=Severity.MEDIUM,
    what="`nsys profile`, `ncu` and `nvprof` command lines in scripts: NVIDIA's profilers.",
    why="They do not run on AMD GPUs. rocprofv3 (ROCm 6.2 and later) traces HIP calls, kernels, copies and roctx "
        "markers and collects counters; its analysis flow and metric names differ (the guide's Nsight -> "
        "rocprofiler mapping).",
    example="# file: prof.sh\nnsys profile -t cuda,nvtx -o report python train.py",
    instead="`rocprofv3 --hip-trace --kernel-trace --memory-copy-trace --marker-trace --output-format pftrace -o "
            "report -- python train.py` (a Perfetto timeline); `ncu` -> `rocprofv3 --kernel-trace --stats --`; "
            "full counter sets with `rocprof-compute profile`. Marked unsafe: check the output location your "
            "tooling reads.",
    references=("https://rocm.docs.amd.com/projects/rocprofiler-sdk/en/latest/how-to/using-rocprofv3.html",),
)
PROFILER_OPTION = deploy_rule(
    "C2R-M412", "profiler-option-unmapped", severity=Severity.LOW,
    what="An nsys/ncu/nvprof option with no rocprofv3 counterpart (OS-runtime traces, capture ranges, ncu "
         "`--set`/`--metrics`, nvprof metrics and events).",
    why="Nsight metric and section names have no one-to-one rocprof counter; kernel times come from the kernel "
        "trace, counters must be chosen for the AMD GPU.",
    example="# file: prof.sh\nncu --set full -o out ./app",
    instead="Counters from `rocprofv3 --list-avail` with `--pmc`, or `rocprof-compute profile -n NAME -- CMD`; "
            "`cuda2rocm bench kernels` for kernel times on both platforms.",
    references=("https://rocm.docs.amd.com/projects/rocprofiler-compute/en/latest/",),
)
WHEEL_INDEX = deploy_rule(
    "C2R-M413", "shell-cuda-wheel-index", severity=Severity.MEDIUM,
    what="`pip install` from PyTorch's CUDA wheel index (`download.pytorch.org/whl/cu121`) in a script.",
    why="Those wheels are CUDA builds: `torch.cuda.is_available()` is false on an AMD GPU (as for a Dockerfile, "
        "C2R-M109).",
    example="# file: setup.sh\npip install torch --index-url https://download.pytorch.org/whl/cu121",
    instead="PyTorch's ROCm index for the target release (`download.pytorch.org/whl/rocm6.4`).",
    references=("https://pytorch.org/get-started/locally/",),
)
LAUNCHER_ENV = deploy_rule(
    "C2R-M410", "launcher-env-passing", severity=Severity.LOW,
    what="Environment passed through a launcher (`mpirun -x CUDA_VISIBLE_DEVICES`, `srun --export=...`).",
    why="The names passed must be the ones the ROCm stack reads; the launcher forwards whatever it is told.",
    example="# file: run.sh\nmpirun -np 8 -x CUDA_VISIBLE_DEVICES python train.py",
    instead="Pass the ROCm name (HIP_VISIBLE_DEVICES); NCCL_* names stay (RCCL reads them).",
    references=(_ISOLATION,),
)
VALIDATION_SCRIPT = deploy_rule(
    "C2R-M420", "slurm-validation-script", severity=Severity.INFO,
    what="With `--validation-job`: `cuda2rocm-validation/validate.slurm`, a Slurm job that runs `cuda2rocm comm` "
         "and the project's smoke test with torchrun across the requested nodes.",
    why="A migrated job should be proven on the AMD partition (collectives across nodes, then the model) before "
        "production moves.",
    example="# file: job.sbatch\n# options: validation_job=true\n#SBATCH --gres=gpu:8\nsrun python train.py",
    instead="Submit it with `sbatch cuda2rocm-validation/validate.slurm` on the AMD partition.",
    references=(_SLURM_GRES, _RCCL_TIPS),
)

NCCL_HONOURED = deploy_rule(
    "C2R-M501", "nccl-honoured", severity=Severity.INFO,
    what="NCCL_* (and PyTorch's TORCH_NCCL_*) variables RCCL or PyTorch's c10d read under the same name with the "
         "same meaning (NCCL_DEBUG, NCCL_DEBUG_SUBSYS, NCCL_COMM_ID, TORCH_NCCL_ASYNC_ERROR_HANDLING, ...).",
    why="They keep working; the finding records the classification.",
    example="# file: run.sh\nexport NCCL_DEBUG=INFO\ntorchrun --nproc_per_node=8 train.py",
    instead="Nothing to change.",
    references=(_RCCL_ENV,),
)
NCCL_RETUNE = deploy_rule(
    "C2R-M502", "nccl-needs-retuning", severity=Severity.MEDIUM,
    what="NCCL tuning knobs (NCCL_ALGO, NCCL_PROTO, channel counts, buffer sizes, thread counts, P2P/GDR levels, "
         "topology files).",
    why="RCCL reads the names, but values tuned for an NVIDIA topology (NVLink, NVSwitch) do not carry over to "
        "XGMI/Infinity Fabric: NCCL tuning cannot be applied to RCCL as is.",
    example="# file: run.sh\nexport NCCL_ALGO=Tree\ntorchrun --nproc_per_node=8 train.py",
    instead="Remove the value and measure with `cuda2rocm comm`; then try RCCL's own knobs (NCCL_MIN_NCHANNELS, "
            "RCCL_MSCCL_ENABLE, HSA_FORCE_FINE_GRAIN_PCIE for PCIe peer-to-peer).",
    references=(_RCCL_ENV, _RCCL_TIPS),
)
NCCL_NVLINK = deploy_rule(
    "C2R-M503", "nccl-nvlink-only", severity=Severity.LOW,
    what="NCCL variables for NVIDIA-only hardware paths: NVLink SHARP (NCCL_NVLS_*), multi-node NVLink "
         "(NCCL_MNNVL_ENABLE), NVLink bridges (NCCL_NVB_DISABLE), Hopper CGA clusters and memory sync domains.",
    why="RCCL does not act on them on AMD GPUs (the paths do not exist); keeping them only misleads.",
    example="# file: run.sh\nexport NCCL_NVLS_ENABLE=0\ntorchrun --nproc_per_node=8 train.py",
    instead="The assignment is removed.",
    references=(_RCCL_ENV,),
)
NCCL_FABRIC = deploy_rule(
    "C2R-M504", "nccl-fabric-specific", severity=Severity.LOW,
    what="NCCL network variables that name the cluster's fabric: NCCL_IB_* (HCAs, GID index, traffic class), "
         "NCCL_SOCKET_IFNAME, NCCL_NET, NCCL_NET_PLUGIN.",
    why="RCCL reads them, but their values (mlx5_0, ib0, a GID index) describe the NVIDIA cluster's NICs; the AMD "
        "nodes' NICs and RoCE settings may differ.",
    example="# file: run.sh\nexport NCCL_IB_HCA=mlx5_0,mlx5_1\ntorchrun --nproc_per_node=8 train.py",
    instead="Check the values against the AMD nodes (`ibv_devices`, `ip link`).",
    references=(_RCCL_ENV,),
)
NCCL_UNKNOWN = deploy_rule(
    "C2R-M505", "nccl-unknown", severity=Severity.LOW,
    what="NCCL_* variables neither RCCL's documentation nor the knowledge base lists.",
    why="RCCL follows NCCL with a lag and has its own set; an unknown name may do nothing on AMD.",
    example="# file: run.sh\nexport NCCL_SOME_NEW_KNOB=1\ntorchrun --nproc_per_node=8 train.py",
    instead="Check the RCCL version's environment-variable list; remove the variable if RCCL does not read it.",
    references=(_RCCL_ENV,),
)
