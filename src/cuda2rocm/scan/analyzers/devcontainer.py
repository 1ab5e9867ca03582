"""Dev Containers (``devcontainer.json``, JSON with comments): base image, NVIDIA runtime flags, CUDA features.

Comments are removed with the lossless C tokenizer (strings stay whole), then the JSON is parsed; a key's line
is found by walking the same tokens, never by searching the raw text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import Bad, Hit, Record, Scale
from cuda2rocm.source.tokens import COMMENT, STRING, LineIndex, tokenize


def scan_devcontainer(text: str) -> Iterator[Record]:
    tokens = tokenize(text)
    try:
        data = json.loads("".join(" " if t.kind == COMMENT else t.src for t in tokens))
    except ValueError as exc:
        yield Bad(rules.E105, f"cannot parse devcontainer JSON: {exc}", getattr(exc, "lineno", 0))
        return
    if not isinstance(data, dict):
        return
    index = LineIndex(text)
    lines = {t.src[1:-1]: index.line(t.offset) for t in reversed(tokens) if t.kind == STRING}  # first occurrence
    if isinstance(data.get("image"), str):
        yield from scan_image(data["image"], lines.get(data["image"], 1), 1)
    yield from _run_args(data.get("runArgs"), lines)
    yield from _features(data.get("features"), lines)
    gpu = (data.get("hostRequirements") or {}).get("gpu") if isinstance(data.get("hostRequirements"), dict) else None
    if gpu:
        yield Scale("single-gpu", lines.get("gpu", 1), f"hostRequirements.gpu: {gpu}")


def _run_args(args: Any, lines: dict[str, int]) -> Iterator[Record]:
    if not isinstance(args, list):
        return
    words = [str(a) for a in args]
    for i, word in enumerate(words):
        if word == "--gpus" or word.startswith("--gpus="):
            value = word.split("=", 1)[1] if "=" in word else (words[i + 1] if i + 1 < len(words) else "")
            line = lines.get(word, 1)
            yield Hit(rules.D105, line, 1, f"runArgs {word} {value if '=' not in word else ''}".rstrip()
                       + ": the NVIDIA container runtime; AMD GPUs need --device=/dev/kfd --device=/dev/dri")
            yield Scale("multi-gpu" if value == "all" else "single-gpu", line, f"runArgs --gpus {value}")
        elif word.startswith("--runtime") and "nvidia" in word + (words[i + 1] if i + 1 < len(words) else ""):
            yield Hit(rules.D105, lines.get(word, 1), 1, "runArgs --runtime nvidia: the NVIDIA container runtime")


def _features(features: Any, lines: dict[str, int]) -> Iterator[Record]:
    if not isinstance(features, dict):
        return
    for name in features:
        if "nvidia-cuda" in str(name) or "/cuda:" in str(name):
            yield Hit(rules.D101, lines.get(name, 1), 1, f"dev container feature {name} installs the CUDA "
                       "toolkit; use a ROCm image or install ROCm instead")
