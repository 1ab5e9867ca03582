"""Shell-like command lines (scripts, Dockerfile RUN/CMD, CI `run:` blocks, k8s commands, Makefile recipes)."""

from __future__ import annotations

import re

from cuda2rocm.scan import rocm_path
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.filefacts import FileFacts

_NVSMI = re.compile(r"(?<![\w./-])nvidia-smi(?![\w-])")
_NV_PROC = re.compile(r"/proc/driver/nvidia\b[\w/.-]*")
#: NVIDIA-only system packages: GPUDirect RDMA's peer-memory module, CUPTI, the container toolkit
_NV_SYSTEM_PKG = re.compile(r"(?<![\w-])(nv_peer_mem(?:ory)?|nvidia-peermem|libcupti-dev|nvidia-container-toolkit"
                            r"|nvidia-fabricmanager(?:-\d+)?|datacenter-gpu-manager)(?![\w-])")
_ASSIGN = re.compile(r"(?:^|[\s;&|(`\"'])(?:export\s+|ENV\s+)?([A-Z][A-Z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|]*)")
_LAUNCHER = re.compile(r"(?<![\w-])(torchrun|torch\.distributed\.(?:run|launch)|mpirun|mpiexec"
                       r"|srun|sbatch|accelerate\s+launch)(?![\w-])"
                       # deepspeed is also a package name (pip install deepspeed, import deepspeed): the command only
                       r"|(?:^|[;&|]\s*|\bexec\s+)(deepspeed)(?=\s+(?:-|\S+\.py\b))")
_GRES = re.compile(r"--gres[= ]gpu(?::[A-Za-z][\w-]*)?(?::(\d+))?")
_OPT = r"(?:\s*=\s*|\s+)(\"?\$?\{?[\w:-]+\}?\"?)"
_DOCKER_GPUS = re.compile(r"\bdocker\s+run\b.*--gpus")
_PIP = re.compile(r"\bpip3?\s+install\s+(.*)")
_CONDA = re.compile(r"\b(?:conda|mamba|micromamba)\s+(?:install|create)\s+(.*)")


def scan_text(report: FileFacts, text: str, first_line: int = 1) -> None:
    """Scan every logical line of ``text`` (physical lines ending in ``\\`` continue on the next one; a command
    is reported at its first line); ``first_line`` is the file line of the text's first line."""
    start, parts = 0, list[str]()
    sbatch: list[tuple[int, str]] = []  # a job's #SBATCH directives describe one launch together
    for i, raw in enumerate(text.splitlines()):
        if not parts and raw.lstrip().startswith("#SBATCH"):
            sbatch.append((first_line + i, raw.lstrip()[len("#SBATCH"):]))
            continue
        if not parts:
            start = i
        stripped = raw.rstrip()
        if stripped.endswith("\\") and not stripped.lstrip().startswith("#"):
            parts.append(stripped[:-1])
            continue
        parts.append(raw)
        scan_line(report, " ".join(parts), first_line + start)
        parts = []
    if parts:
        scan_line(report, " ".join(parts), first_line + start)
    if sbatch:
        _launcher(report, " ".join(code for _, code in sbatch), sbatch[0][0], "Slurm batch job")


def scan_line(report: FileFacts, raw: str, line: int) -> None:
    code = _strip_comment(raw)
    if not code.strip():
        return
    for m in _NVSMI.finditer(code):
        report.add("C2R-D104", line, m.start() + 1, "nvidia-smi is not available on AMD nodes (use amd-smi)")
    for m in _NV_PROC.finditer(code):
        report.add("C2R-D104", line, m.start() + 1, f"reads {m.group(0)}, which only the NVIDIA driver provides "
                   "(use amd-smi, or /sys/module/amdgpu/version)")
    for m in _NV_SYSTEM_PKG.finditer(code):
        report.add("C2R-D109", line, m.start() + 1, f"{m.group(1)} is NVIDIA-only system software (AMD: ROCm's "
                   "peer-memory support is in amdgpu, profiling in rocprofiler, containers need only /dev/kfd and "
                   "/dev/dri)")
    for m in _ASSIGN.finditer(code):
        check_env(report, m.group(1), line, m.start(1) + 1, m.group(2))
    launcher = _LAUNCHER.search(code)
    if launcher or _GRES.search(code):
        _launcher(report, code, line, (launcher.group(1) or launcher.group(2)) if launcher else "slurm")
    if _DOCKER_GPUS.search(code):
        report.add("C2R-D105", line, code.index("--gpus") + 1, "docker run --gpus uses the NVIDIA container runtime")
    _cuda_install(report, code, line)
    for m in _GIT_CLONE.finditer(code):  # git clone https://github.com/NVIDIA/apex.git && pip install ./apex
        from cuda2rocm.scan.analyzers.packages import git_repository_requirement

        git_repository_requirement(report, m.group(1), line)
    rocm_path.command(report, code, line)
    pip = _PIP.search(code)
    if pip:
        from cuda2rocm.scan.analyzers.packages import scan_pip_args

        scan_pip_args(report, pip.group(1), line)
    conda = _CONDA.search(code)
    if conda:
        from cuda2rocm.scan.analyzers.packages import scan_conda_args

        scan_conda_args(report, conda.group(1), line)


#: CUDA installed from NVIDIA's packages or installers: apt/dnf names (cuda-toolkit-12-4, cuda-nvcc-12-0), the
#: local repository .deb (cuda-repo-ubuntu2204-12-0-local_12.0.0-525.60.13-1_amd64.deb) and the runfile
#: (cuda_12.4.1_550.54.15_linux.run); the last two also name the driver they bundle.
_CUDA_PKG = re.compile(
    r"\bcuda-(?:toolkit|nvcc|libraries(?:-dev)?|runtime|compiler|cudart(?:-dev)?|drivers)-(\d+)-(\d+)\b")
_CUDA_BUNDLE = re.compile(r"\bcuda(?:-repo-[\w-]+-local_|_)(\d+\.\d+(?:\.\d+)?)[-_](\d{3}\.\d+(?:\.\d+)?)")


def _cuda_install(report: FileFacts, code: str, line: int) -> None:
    bundle = _CUDA_BUNDLE.search(code)
    if bundle:
        report.component("cuda", "CUDA", bundle.group(1), line, code)
        report.component("driver", "NVIDIA driver", bundle.group(2), line, code)
        report.add("C2R-S101", line, bundle.start() + 1, f"installs CUDA {bundle.group(1)} with driver "
                   f"{bundle.group(2)} from NVIDIA's installer")
        return
    pkg = _CUDA_PKG.search(code)
    if pkg:
        version = f"{pkg.group(1)}.{pkg.group(2)}"
        report.component("cuda", "CUDA", version, line, code)
        report.add("C2R-S101", line, pkg.start() + 1, f"installs CUDA {version} packages ({pkg.group(0)})")


_GIT_CLONE = re.compile(r"\bgit\s+clone\s+(?:-{1,2}[\w-]+(?:[= ]\S+)?\s+)*https?://[^/\s]+/([\w.-]+/[\w.-]+)")


def _strip_comment(raw: str) -> str:
    """Drop a trailing shell comment; ``#SBATCH`` directives are kept (they configure the job)."""
    stripped = raw.lstrip()
    if stripped.startswith("#SBATCH"):
        return stripped[1:]
    if stripped.startswith("#"):
        return ""
    m = re.search(r"(?:^|\s)#", raw)
    return raw[: m.start()] if m and raw.count('"', 0, m.start()) % 2 == 0 else raw


def _launcher(report: FileFacts, code: str, line: int, name: str) -> None:
    nodes = _option(code, ("--nnodes", "--num_nodes", "--num-nodes", "--nodes", "-N"))
    procs = _option(code, ("--nproc_per_node", "--nproc-per-node", "--num_gpus", "--num-gpus", "-np", "-n"))
    gres = _GRES.search(code)
    gpus = (gres.group(1) if gres and gres.group(1) else "") or _option(code, ("--gpus-per-node", "--gpus-per-task",
                                                                              "--gpus", "-G")) or procs
    multi_node = _more_than_one(nodes) or bool(re.search(r"--hostfile|(?<!\S)-H\s|--host\s", code))
    scale = "multi-node" if multi_node else ("multi-gpu" if _more_than_one(gpus) else "single-gpu")
    detail = ", ".join(x for x in (f"nodes={nodes}" if nodes else "", f"gpus/node={gpus}" if gpus else "") if x)
    report.add("C2R-D106", line, 1, f"{name} launch ({scale}{'; ' + detail if detail else ''})")
    report.evidence(scale, line, code)


def _option(code: str, names: tuple[str, ...]) -> str:
    for name in names:
        m = re.search(rf"(?<![\w-]){re.escape(name)}{_OPT}", code)
        if m:
            return m.group(1).strip('"')
    return ""


def _more_than_one(value: str) -> bool:
    """A count above one; a variable (``$NUM_GPUS``) counts as more than one."""
    if not value:
        return False
    return not value.isdigit() or int(value) > 1
