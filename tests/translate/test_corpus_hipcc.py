"""The CUDA corpus (tests/corpus/cuda), translated for ROCm 5.2, compiles with the real hipcc for gfx90a.

`tests/corpus/manifest.yaml` marks with `hip52: true` the programs whose translation must compile with Debian
12's HIP 5.2 (the others need a ROCm library Debian 12 does not package, or an API HIP 5.2 lacks; each has a
`hip52_reason`). Every marked translation unit must compile; every program must at least translate.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.runner import WritePolicy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the corpus package's parent
from corpus.corpus import load_programs


def _hipcc() -> str | None:
    from cuda2rocm.toolchain.discover import find_hipcc

    return find_hipcc()


PROGRAMS = load_programs()


def _translate(paths: list[Path]):  # type: ignore[no-untyped-def]
    report = convert(paths, None, Options(target_rocm="5.2", jobs=2), policy=WritePolicy(write=False,
                                                                                       keep_original=True))
    assert not report.failed, report.failed
    return report


def test_every_program_translates() -> None:
    _translate([s for p in PROGRAMS for s in p.sources])


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_marked_programs_compile_for_gfx90a() -> None:
    from cuda2rocm.translate.verify import verify

    marked = [p for p in PROGRAMS if p.hip52]
    assert len(marked) >= 25
    report = _translate([s for p in marked for s in p.sources])
    outcomes = verify(report.files, arch="gfx90a", jobs=2)
    failed = {o.path: [str(d) for d in o.diagnostics if d.severity == "error"][:3] or [o.output[-500:]]
              for o in outcomes if not o.ok}
    assert not failed
    assert len(outcomes) == sum(len(p.sources) for p in marked)


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.hip52 and p.hip_link], ids=lambda p: p.name)
def test_library_programs_link_with_their_rocm_libraries(program, tmp_path: Path) -> None:
    """hip52 programs that use a ROCm library (hipSPARSE, hipRAND) link into an executable against it: every
    function the translation calls exists in the installed library, not only in its header."""
    from cuda2rocm.toolchain.discover import amd_env

    assert len(program.sources) == 1
    out = tmp_path / f"{program.name}.hip"
    report = convert(list(program.sources), out, Options(target_rocm="5.2", jobs=1))
    assert not report.failed, report.failed
    cmd = [str(_hipcc()), "--offload-arch=gfx90a", "-x", "hip", "-std=c++17", "-w", str(out), "-o",
           str(tmp_path / program.name), *program.hip_link]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=amd_env(), cwd=tmp_path, check=False,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / program.name).stat().st_size > 0
