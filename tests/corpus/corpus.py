"""Reading the corpus manifest, shared by the corpus tests (and usable by other engineers' tests)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).parent
CUDA_DIR = ROOT / "cuda"
MANIFEST = ROOT / "manifest.yaml"


@dataclass(frozen=True)
class Program:
    name: str
    sources: tuple[Path, ...]
    libraries: tuple[str, ...]
    link: tuple[str, ...]
    hip52: bool
    hip52_reason: str
    hazards: tuple[str, ...]
    heavy: bool
    hip_link: tuple[str, ...] = ()


def load_programs() -> list[Program]:
    data = YAML(typ="safe").load(MANIFEST.read_text(encoding="utf-8"))
    return [
        Program(
            name=p["name"],
            sources=tuple(CUDA_DIR / s for s in p["sources"]),
            libraries=tuple(p["libraries"]),
            link=tuple(p.get("link") or ()),
            hip52=bool(p["hip52"]),
            hip52_reason=p.get("hip52_reason", ""),
            hazards=tuple(p.get("hazards") or ()),
            heavy=bool(p.get("heavy", False)),
            hip_link=tuple(p.get("hip_link") or ()),
        )
        for p in data["programs"]
    ]
