"""Machine fingerprint (``cuda2rocm env``): GPUs, links, driver, CUDA/ROCm, NCCL/RCCL, frameworks, compilers.

``collect()`` probes this machine; ``diff.diff(a, b)`` compares two fingerprints; ``labels.labels(fp)`` turns
one into OCI image labels. Every external probe is optional and time-limited.
"""

from __future__ import annotations

from typing import Any


def collect(timeout: float = 10.0, *, with_torch: bool = True) -> dict[str, Any]:
    """Fingerprint this machine (see :func:`cuda2rocm.envinfo.fingerprint.collect`)."""
    from cuda2rocm.envinfo.fingerprint import collect as _collect

    return _collect(timeout, with_torch=with_torch)
