"""Name lookup: GPU marketing names, gfx targets and ``sm_XY``; plugin pip and import names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from cuda2rocm.knowledge.gpus import Gpu

if TYPE_CHECKING:
    from cuda2rocm.knowledge.types import Plugin

_VENDOR_WORDS = ("amd", "nvidia", "instinct", "tesla", "geforce")


def norm_gpu(text: str) -> str:
    """``"AMD Instinct MI300X"`` -> ``"mi300x"``; ``"Radeon RX 7900 XTX"`` -> ``"radeonrx7900xtx"``."""
    words = [w for w in re.split(r"[\s_\-]+", text.strip().lower()) if w and w not in _VENDOR_WORDS]
    return "".join(words)


def norm_target(text: str) -> str:
    """``"gfx942:sramecc+:xnack-"`` -> ``"gfx942"``; ``"SM_90"``/``"9.0"``/``"sm90"`` -> ``"sm_90"``."""
    t = text.strip().lower().split(":")[0]
    if re.fullmatch(r"\d+\.\d+", t):
        return "sm_" + t.replace(".", "")
    m = re.fullmatch(r"sm_?(\d+)", t)
    return f"sm_{m.group(1)}" if m else t


def find_gpu(query: str, gpus: Mapping[str, Gpu], gfx_default: Mapping[str, str]) -> Gpu | None:
    target = norm_target(query)
    if target in gfx_default and gfx_default[target] in gpus:
        return gpus[gfx_default[target]]
    for gpu in gpus.values():
        if target and target == gpu.target:
            return gpu
    wanted = norm_gpu(query)
    by_norm = {norm_gpu(name): g for name, g in gpus.items()}
    if wanted in by_norm:
        return by_norm[wanted]
    return _by_word(query, gpus)


def _by_word(query: str, gpus: Mapping[str, Gpu]) -> Gpu | None:
    """Longest known name that appears as whole words (``"NVIDIA H100 80GB HBM3"`` -> H100)."""
    text = " " + re.sub(r"[\s_\-]+", " ", query.lower()) + " "
    hits = [g for name, g in gpus.items() if f" {name.lower()} " in text]
    return max(hits, key=lambda g: len(g.name)) if hits else None


def norm_pip(name: str) -> str:
    """PEP 503 normalisation: ``Flash_Attn`` -> ``flash-attn``."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def find_plugin(name: str, plugins: Mapping[str, Plugin]) -> Plugin | None:
    if name in plugins:
        return plugins[name]
    pip = norm_pip(name)
    for p in plugins.values():
        if pip == norm_pip(p.key) or pip in {norm_pip(n) for n in p.pip_names}:
            return p
    dotted = name.strip()
    for p in plugins.values():
        if any(dotted == imp or dotted.startswith(imp + ".") for imp in p.import_names):
            return p
    return None
