"""The options of a ``migrate deploy`` run: the target platform and what to generate."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuda2rocm.model import OMIT_NONE
from cuda2rocm.project.buildopts import BuildFacts
from cuda2rocm.project.stack import DEFAULT_GFX, DEFAULT_OS, Stack, stack_for


@dataclass(frozen=True)
class DeployOptions:
    """``gfx``: AMD targets; ``rocm``: target ROCm release (``X.Y`` or ``X.Y.Z``); ``os``: the container OS
    (``ubuntu22.04``); ``canary``: replicas of a canary Deployment on AMD nodes written beside each migrated GPU
    Deployment (0: none); ``validation_job``: generate the multi-node validation Job/PyTorchJob/Slurm script;
    ``nodes``/``gpus_per_node``: their shape; ``runner_labels``: the AMD CI runner labels of the parallel ROCm
    job; ``build``: the project's GPU-selecting CMake options (:func:`cuda2rocm.project.buildopts.gpu_options`,
    which ``migrate_deploy`` reads from its listfiles); ``decided``: the target stack the caller decided for these
    choices, with its reasons (:func:`cuda2rocm.project.stack.decide`)."""

    gfx: tuple[str, ...] = DEFAULT_GFX
    rocm: str = ""
    os: str = DEFAULT_OS
    canary: int = 0
    validation_job: bool = False
    nodes: int = 2
    gpus_per_node: int = 8
    runner_labels: tuple[str, ...] = ("self-hosted", "linux", "rocm")
    build: BuildFacts = field(default_factory=BuildFacts)
    decided: Stack | None = field(default=None, compare=False, repr=False, metadata={OMIT_NONE: True})

    @property
    def stack(self) -> Stack:
        """The run's target stack (:mod:`cuda2rocm.project.stack`)."""
        return stack_for(self.gfx, self.rocm, self.os, self.decided)

    @property
    def rocm_version(self) -> str:
        """The target ROCm: as given, else the stack's default (the newest release with a PyTorch wheel index)."""
        return self.stack.rocm
