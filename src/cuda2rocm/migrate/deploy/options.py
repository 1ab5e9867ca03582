"""The options of a ``migrate deploy`` run: the target platform and what to generate."""

from __future__ import annotations

from dataclasses import dataclass

from cuda2rocm import knowledge


@dataclass(frozen=True)
class DeployOptions:
    """``gfx``: AMD targets; ``rocm``: target ROCm release (``X.Y`` or ``X.Y.Z``); ``os``: the container OS
    (``ubuntu22.04``); ``canary``: replicas of a canary Deployment on AMD nodes written beside each migrated GPU
    Deployment (0: none); ``validation_job``: generate the multi-node validation Job/PyTorchJob/Slurm script;
    ``nodes``/``gpus_per_node``: their shape; ``runner_labels``: the AMD CI runner labels of the parallel ROCm
    job; ``renames``: source path -> new path as ``convert`` renamed it."""

    gfx: tuple[str, ...] = ("gfx90a", "gfx942")
    rocm: str = ""
    os: str = "ubuntu22.04"
    canary: int = 0
    validation_job: bool = False
    nodes: int = 2
    gpus_per_node: int = 8
    runner_labels: tuple[str, ...] = ("self-hosted", "linux", "rocm")

    @property
    def rocm_version(self) -> str:
        """The target ROCm: as given, else the newest release the knowledge base lists."""
        return self.rocm or newest_rocm()


def newest_rocm() -> str:
    return next(iter(knowledge.rocm_releases()))
