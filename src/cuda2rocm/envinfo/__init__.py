"""Machine fingerprint (``cuda2rocm env``): GPUs, links, driver, CUDA/ROCm, NCCL/RCCL, frameworks, compilers.

``collect()`` probes this machine; ``diff.diff(a, b)`` compares two fingerprints; ``labels.labels(fp)`` turns
one into OCI image labels. Every external probe is optional and time-limited.
"""

from __future__ import annotations

from cuda2rocm.envinfo.fingerprint import collect, this_machine

__all__ = ["collect", "this_machine"]
