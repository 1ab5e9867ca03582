"""Shell-like command lines (scripts, Dockerfile RUN/CMD, CI `run:` blocks, k8s commands, Makefile recipes)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence

from cuda2rocm.project import buildopts
from cuda2rocm.project.buildopts import cmake_settings
from cuda2rocm.project.stack import DEFAULT_GFX
from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers.envvars import check_env
from cuda2rocm.scan.analyzers.packages import git_repository_requirement, scan_conda_args, scan_pip_args
from cuda2rocm.scan.filefacts import Fact, Hit, Record, Scale
from cuda2rocm.source.formats.shell import WORD, LogicalLine, Word, read_shell
from cuda2rocm.source.tokens import LineIndex

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
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_GRES = re.compile(r"--gres[= ]gpu(?::[A-Za-z][\w-]*)?(?::(\d+))?")
_OPT = r"(?:\s*=\s*|\s+)(\"?\$?\{?[\w:-]+\}?\"?)"
_DOCKER_GPUS = re.compile(r"\bdocker\s+run\b.*--gpus")
_PIP = re.compile(r"\bpip3?\s+install\s+(.*)")
_CONDA = re.compile(r"\b(?:conda|mamba|micromamba)\s+(?:install|create)\s+(.*)")


def scan_text(text: str, first_line: int = 1) -> Iterator[Record]:
    """Scan every logical line of ``text`` (read by :func:`cuda2rocm.source.formats.shell.read_shell`:
    continuations joined, quotes and comments respected, here-document bodies scanned as scripts of their
    own); ``first_line`` is the file line of the text's first line. A command (launcher, pip, conda) is
    reported at its first line, a word inside it (a variable, nvidia-smi) at its own physical line."""
    script = read_shell(text)
    index = LineIndex(text)
    sbatch: list[tuple[int, str]] = []  # a job's #SBATCH directives describe one launch together
    for ln in script.lines:
        if not ln.words:
            if ln.comment is not None and ln.comment.src.startswith("#SBATCH"):
                sbatch.append((first_line + ln.line - 1, ln.comment.src[len("#SBATCH"):]))
            continue
        yield from _scan_logical(ln, index, first_line)
        for body in ln.heredocs:
            yield from scan_text(body.src, first_line + index.line(body.offset) - 1)
    if sbatch:
        yield from _launcher(" ".join(code for _, code in sbatch), sbatch[0][0], "Slurm batch job")


def scan_line(raw: str, line: int) -> Iterator[Record]:
    """Scan one command line (a YAML list of command words joined) at file line ``line``; an ``#SBATCH``
    directive counts as code."""
    script = read_shell(raw)
    index = LineIndex(raw)
    for ln in script.lines:
        if ln.words:
            yield from _scan_logical(ln, index, line)
        elif ln.comment is not None and ln.comment.src.startswith("#SBATCH"):
            code = ln.comment.src[1:]
            yield from _scan_code(code, line, lambda pos: (line, pos + 1))


def _scan_logical(ln: LogicalLine, index: LineIndex, first_line: int) -> Iterator[Record]:
    """The words of one logical line, joined by single spaces; match positions map back to the word's own
    physical line and column."""
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for w in ln.words:
        starts.append(pos)
        parts.append(w.src)
        pos += len(w.src) + 1
    words = ln.words

    def at(p: int) -> tuple[int, int]:
        k = max(0, bisect.bisect_right(starts, p) - 1)
        w = words[k]
        line, col = index.line_col(w.offset + min(max(0, p - starts[k]), len(w.src)))
        return first_line + line - 1, col

    yield from _scan_code(" ".join(parts), first_line + ln.line - 1, at)
    for cmd in ln.commands():
        yield from _cmake(cmd, index, first_line)


def _cmake(cmd: Sequence[Word], index: LineIndex, first_line: int) -> Iterator[Record]:
    """A cmake configure's CUDA ``-D`` settings, decided by the recogniser migrate deploy rewrites them with."""
    words = [w for w in cmd if w.kind == WORD]
    if words and words[0].value in ("RUN", "CMD", "ENTRYPOINT"):  # a Dockerfile instruction's text
        words = words[1:]
        while words and words[0].value.startswith("--"):  # RUN --mount=...
            words = words[1:]
    while words and _ASSIGNMENT.match(words[0].value):  # VAR=value cmake ...
        words = words[1:]
    if words and words[0].value in ("sudo", "exec", "env", "time"):
        words = words[1:]
    for s in cmake_settings([w.value for w in words], buildopts.installed(), DEFAULT_GFX):
        line, col = index.line_col(words[s.first].offset)
        yield Hit(rules.D110, first_line + line - 1, col, s.why)


def _scan_code(code: str, line: int, at: Callable[[int], tuple[int, int]]) -> Iterator[Record]:
    for m in _NVSMI.finditer(code):
        yield Hit(rules.D104, *at(m.start()), "nvidia-smi is not available on AMD nodes (use amd-smi)")
    for m in _NV_PROC.finditer(code):
        yield Hit(rules.D104, *at(m.start()), f"reads {m.group(0)}, which only the NVIDIA driver provides "
                   "(use amd-smi, or /sys/module/amdgpu/version)")
    for m in _NV_SYSTEM_PKG.finditer(code):
        yield Hit(rules.D109, *at(m.start()), f"{m.group(1)} is NVIDIA-only system software (AMD: ROCm's "
                   "peer-memory support is in amdgpu, profiling in rocprofiler, containers need only /dev/kfd and "
                   "/dev/dri)")
    for m in _ASSIGN.finditer(code):
        yield from check_env(m.group(1), *at(m.start(1)), m.group(2))
    launcher = _LAUNCHER.search(code)
    if launcher or _GRES.search(code):
        yield from _launcher(code, line, (launcher.group(1) or launcher.group(2)) if launcher else "slurm")
    if _DOCKER_GPUS.search(code):
        yield Hit(rules.D105, *at(code.index("--gpus")), "docker run --gpus uses the NVIDIA container runtime")
    yield from _cuda_install(code, at)
    yield from _modules(code, line)
    for m in _GIT_CLONE.finditer(code):  # git clone https://github.com/NVIDIA/apex.git && pip install ./apex
        yield from git_repository_requirement(m.group(1), line)
    yield from rocm_path.command(code, line)
    pip = _PIP.search(code)
    if pip:
        yield from scan_pip_args(pip.group(1), line)
    conda = _CONDA.search(code)
    if conda:
        yield from scan_conda_args(conda.group(1), line)


#: CUDA installed from NVIDIA's packages or installers: apt/dnf names (cuda-toolkit-12-4, cuda-nvcc-12-0), the
#: local repository .deb (cuda-repo-ubuntu2204-12-0-local_12.0.0-525.60.13-1_amd64.deb) and the runfile
#: (cuda_12.4.1_550.54.15_linux.run); the last two also name the driver they bundle.
_CUDA_PKG = re.compile(
    r"\bcuda-(?:toolkit|nvcc|libraries(?:-dev)?|runtime|compiler|cudart(?:-dev)?|drivers)-(\d+)-(\d+)\b")
_CUDA_BUNDLE = re.compile(r"\bcuda(?:-repo-[\w-]+-local_|_)(\d+\.\d+(?:\.\d+)?)[-_](\d{3}\.\d+(?:\.\d+)?)")


def _cuda_install(code: str, at: Callable[[int], tuple[int, int]]) -> Iterator[Record]:
    bundle = _CUDA_BUNDLE.search(code)
    if bundle:
        line, col = at(bundle.start())
        yield Fact("cuda", "CUDA", bundle.group(1), line, code)
        yield Fact("driver", "NVIDIA driver", bundle.group(2), line, code)
        yield Hit(rules.S101, line, col, f"installs CUDA {bundle.group(1)} with driver "
                   f"{bundle.group(2)} from NVIDIA's installer")
        return
    pkg = _CUDA_PKG.search(code)
    if pkg:
        line, col = at(pkg.start())
        version = f"{pkg.group(1)}.{pkg.group(2)}"
        yield Fact("cuda", "CUDA", version, line, code)
        yield Hit(rules.S101, line, col, f"installs CUDA {version} packages ({pkg.group(0)})")


#: ``module load cuda/12.2 nccl/2.18.3-cuda12.2 cudnn/8.9`` (Lmod/Environment Modules; ``ml`` is Lmod's short form)
_MODULE_LOAD = re.compile(r"(?:^|[;&|]\s*)(?:module\s+(?:load|add)|ml)\s+([^;&|#]+)")
_MODULE_NAME = re.compile(r"^(cuda|cudatoolkit|nccl|cudnn|nvhpc)/(\d+(?:\.\d+)*)")
_MODULE_KIND = {"cuda": ("cuda", "CUDA"), "cudatoolkit": ("cuda", "CUDA"), "nccl": ("nccl", "NCCL"),
                "cudnn": ("cudnn", "cuDNN"), "nvhpc": ("cuda", "NVIDIA HPC SDK")}


def _modules(code: str, line: int) -> Iterator[Record]:
    """CUDA, NCCL and cuDNN versions named by environment modules a script loads."""
    for m in _MODULE_LOAD.finditer(code):
        for word in m.group(1).split():
            name = _MODULE_NAME.match(word.lower())
            if name is not None:
                kind, label = _MODULE_KIND[name.group(1)]
                yield Fact(kind, label, name.group(2), line, code)


_GIT_CLONE = re.compile(r"\bgit\s+clone\s+(?:-{1,2}[\w-]+(?:[= ]\S+)?\s+)*https?://[^/\s]+/([\w.-]+/[\w.-]+)")


def _launcher(code: str, line: int, name: str) -> Iterator[Record]:
    nodes = _option(code, ("--nnodes", "--num_nodes", "--num-nodes", "--nodes", "-N"))
    procs = _option(code, ("--nproc_per_node", "--nproc-per-node", "--num_gpus", "--num-gpus", "-np", "-n"))
    gres = _GRES.search(code)
    gpus = (gres.group(1) if gres and gres.group(1) else "") or _option(code, ("--gpus-per-node", "--gpus-per-task",
                                                                              "--gpus", "-G")) or procs
    multi_node = _more_than_one(nodes) or bool(re.search(r"--hostfile|(?<!\S)-H\s|--host\s", code))
    scale = "multi-node" if multi_node else ("multi-gpu" if _more_than_one(gpus) else "single-gpu")
    detail = ", ".join(x for x in (f"nodes={nodes}" if nodes else "", f"gpus/node={gpus}" if gpus else "") if x)
    yield Hit(rules.D106, line, 1, f"{name} launch ({scale}{'; ' + detail if detail else ''})")
    yield Scale(scale, line, code)


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
