"""Device-code hazard rules (family ``device``, ids C2R-K1xx..K8xx).

Each family lives in its own module next to its checks; importing this module registers them all.
"""

from __future__ import annotations

from cuda2rocm.hazards import (
    atomics,
    coop,
    devicecalls,
    hardware,
    inline_asm,
    launch,
    lds,
    masks,
    props,
    textures,
    warp,
)

FAMILY_MODULES = (warp, masks, inline_asm, lds, hardware, textures, atomics, launch, coop, props, devicecalls)
