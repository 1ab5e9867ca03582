"""Compile translated translation units with a real hipcc and map compiler errors back to CUDA lines."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cuda2rocm.model import Edit, Failed, Translated
from cuda2rocm.results.translate import CompileOutcome, MappedDiagnostic

if TYPE_CHECKING:  # the compiling machinery loads when something is compiled
    from cuda2rocm.mapping.version import Version
    from cuda2rocm.toolchain.discover import HipccTargets
    from cuda2rocm.translate.runner import JobOutcome

TU_SUFFIXES = frozenset({".cu", ".hip", ".cpp", ".cc", ".cxx", ".c"})


@dataclass(frozen=True)
class _Unit:
    display: str
    text: str  # translated (or unchanged) text
    original: str
    edits: tuple[Edit, ...]
    alias: str = ""  # the output's name when this run renames it (x.cu -> x.hip), also materialised


class HipccNotFound(FileNotFoundError):
    """No hipcc that can do the job: none found, or (:class:`UnsupportedTarget`) none for the target."""


class UnsupportedTarget(HipccNotFound):
    """The found hipcc cannot compile for the requested ``--offload-arch``: said once, before any unit."""


def check_target(hipcc: str, arch: str) -> HipccTargets:
    """What ``hipcc`` compiles for; raises :class:`UnsupportedTarget` naming what it supports when ``arch`` is
    not among them. When the compiler cannot be asked, a one-line probe compile decides."""
    from cuda2rocm.toolchain.compile import probe_arch
    from cuda2rocm.toolchain.discover import hipcc_targets

    targets = hipcc_targets(hipcc)
    problem = targets.problem(arch)
    if not problem and not targets.compiler and not targets.device_libs and not probe_arch(arch, hipcc=hipcc):
        problem = f"{hipcc} cannot compile a one-line kernel for --offload-arch {arch}"
    if problem:
        raise UnsupportedTarget(problem)
    return targets


def rocm_for_hip(hip: Version | None) -> str:
    """The ROCm release to translate for with this HIP: the first release of its major.minor (its APIs are in
    every patch release), else the newest older release; "" (the newest in the tables) when unknown."""
    from cuda2rocm.mapping import rocm_releases

    if hip is None:
        return ""
    releases = rocm_releases()
    same = [r for r in releases if r.major_minor == hip.major_minor]
    older = [r for r in releases if r <= hip.major_minor]
    chosen = min(same) if same else max(older) if older else None
    return str(chosen) if chosen is not None else ""


def find_compiler() -> str:
    from cuda2rocm.toolchain.discover import find_hipcc

    hipcc = find_hipcc()
    if hipcc is None:
        raise HipccNotFound("hipcc not found (install ROCm or Debian's hipcc package, or set ROCM_PATH)")
    return hipcc


def verify(files: Sequence[JobOutcome], arch: str = "gfx90a", jobs: int = 2,
           flags: Sequence[str] = ()) -> list[CompileOutcome]:
    """Materialise the translated tree in a temp dir and compile each translation unit there.

    Raises :class:`UnsupportedTarget` (before compiling anything) when the found hipcc cannot compile for
    ``arch``, :class:`HipccNotFound` when there is no hipcc.

    ``jobs``: parallel compilers; 0 runs one per CPU.
    """
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    from cuda2rocm.batch import cpu_count

    hipcc = find_compiler()
    check_target(hipcc, arch)
    units = [_unit(f) for f in files if not isinstance(f.outcome.result, Failed)]
    with tempfile.TemporaryDirectory(prefix="cuda2rocm-verify-") as tmp:
        root = Path(tmp)
        for u in units:
            for name in filter(None, (u.display, u.alias)):  # x.cu also as x.hip: `#include "x.hip"` finds it
                dest = root / name
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(u.text, encoding="utf-8", newline="")
        by_path = {str((root / u.display).resolve()): u for u in units}
        tus = [u for u in units if Path(u.display).suffix in TU_SUFFIXES]
        with ThreadPoolExecutor(max_workers=jobs if jobs >= 1 else cpu_count()) as pool:
            return list(pool.map(lambda u: _compile(hipcc, root, u, by_path, arch, flags), tus))


def _unit(f: JobOutcome) -> _Unit:
    r = f.outcome.result
    original = f.original or f.job.source.read_text(encoding="utf-8")
    dest = f.job.dest
    alias = str(Path(f.job.display).with_name(dest.name)) if dest is not None and dest.name != Path(
        f.job.display).name else ""
    if isinstance(r, Translated):
        return _Unit(f.job.display, r.text, original, r.edits, alias)
    return _Unit(f.job.display, original, original, (), alias)


def compile_command(hipcc: str, source: Path, out: Path, arch: str, flags: Sequence[str]) -> list[str]:
    return [hipcc, f"--offload-arch={arch}", "-x", "hip", "-std=c++17", *flags, "-c", str(source), "-o", str(out)]


def _compile(hipcc: str, root: Path, u: _Unit, by_path: dict[str, _Unit], arch: str,
             flags: Sequence[str]) -> CompileOutcome:
    import subprocess

    from cuda2rocm.toolchain.diagnostics import parse_diagnostics
    from cuda2rocm.toolchain.discover import amd_env

    source = root / u.display
    cmd = compile_command(hipcc, source, source.with_suffix(".o"), arch, flags)
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=amd_env(), cwd=root, check=False, timeout=600)
    seconds = time.perf_counter() - started
    output = proc.stdout + proc.stderr
    mapped = tuple(_map(d.path, d.line, d.col, d.severity, d.message, root, by_path)
                   for d in parse_diagnostics(output) if d.severity in ("error", "warning"))
    return CompileOutcome(u.display, proc.returncode == 0, mapped, tuple(cmd), seconds, output[-4000:])


def _map(path: str, line: int, col: int, severity: str, message: str, root: Path,
         by_path: dict[str, _Unit]) -> MappedDiagnostic:
    from cuda2rocm.toolchain.linemap import map_line

    full = str((root / path).resolve()) if path else ""
    unit = by_path.get(full)
    if unit is None:
        return MappedDiagnostic(path, line, line, col, severity, message)
    orig = map_line(unit.edits, unit.original, unit.text, line) if line else 0
    return MappedDiagnostic(unit.display, orig, line, col, severity, message)
