"""Dev Containers (``devcontainer.json``, JSON with comments): base image, NVIDIA runtime flags, CUDA features.

Comments are removed with the lossless C tokenizer (strings stay whole), then the JSON is parsed; a key's line
is found by walking the same tokens, never by searching the raw text.
"""

from __future__ import annotations

import json
from typing import Any

from cuda2rocm.scan import rules
from cuda2rocm.scan.analyzers.images import scan_image
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.source.tokens import COMMENT, STRING, LineIndex, tokenize


def scan_devcontainer(report: FileFacts, text: str) -> None:
    tokens = tokenize(text)
    try:
        data = json.loads("".join(" " if t.kind == COMMENT else t.src for t in tokens))
    except ValueError as exc:
        report.problem(rules.E105, f"cannot parse devcontainer JSON: {exc}", getattr(exc, "lineno", 0))
        return
    if not isinstance(data, dict):
        return
    index = LineIndex(text)
    lines = {t.src[1:-1]: index.line(t.offset) for t in reversed(tokens) if t.kind == STRING}  # first occurrence
    if isinstance(data.get("image"), str):
        scan_image(report, data["image"], lines.get(data["image"], 1), 1)
    _run_args(report, data.get("runArgs"), lines)
    _features(report, data.get("features"), lines)
    gpu = (data.get("hostRequirements") or {}).get("gpu") if isinstance(data.get("hostRequirements"), dict) else None
    if gpu:
        report.evidence("single-gpu", lines.get("gpu", 1), f"hostRequirements.gpu: {gpu}")


def _run_args(report: FileFacts, args: Any, lines: dict[str, int]) -> None:
    if not isinstance(args, list):
        return
    words = [str(a) for a in args]
    for i, word in enumerate(words):
        if word == "--gpus" or word.startswith("--gpus="):
            value = word.split("=", 1)[1] if "=" in word else (words[i + 1] if i + 1 < len(words) else "")
            line = lines.get(word, 1)
            report.add(rules.D105, line, 1, f"runArgs {word} {value if '=' not in word else ''}".rstrip()
                       + ": the NVIDIA container runtime; AMD GPUs need --device=/dev/kfd --device=/dev/dri")
            report.evidence("multi-gpu" if value == "all" else "single-gpu", line, f"runArgs --gpus {value}")
        elif word.startswith("--runtime") and "nvidia" in word + (words[i + 1] if i + 1 < len(words) else ""):
            report.add(rules.D105, lines.get(word, 1), 1, "runArgs --runtime nvidia: the NVIDIA container runtime")


def _features(report: FileFacts, features: Any, lines: dict[str, int]) -> None:
    if not isinstance(features, dict):
        return
    for name in features:
        if "nvidia-cuda" in str(name) or "/cuda:" in str(name):
            report.add(rules.D101, lines.get(name, 1), 1, f"dev container feature {name} installs the CUDA "
                       "toolkit; use a ROCm image or install ROCm instead")
