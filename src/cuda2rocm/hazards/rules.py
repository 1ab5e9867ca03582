"""Device-code hazard rules (family ``device``, ids C2R-K1xx..K8xx).

Each family lives in its own module next to its checks; importing this module registers them all.
"""

from __future__ import annotations

from cuda2rocm.hazards import (
    atomics,
    clocks,
    coop,
    cufft,
    devicecalls,
    dynamic,
    hardware,
    inline_asm,
    launch,
    lds,
    masks,
    props,
    runtimecode,
    textures,
    warp,
)

FAMILY_MODULES = (warp, masks, inline_asm, runtimecode, lds, hardware, textures, devicecalls, cufft, atomics, launch,
                  coop, dynamic, props, clocks)
