"""The CUDA corpus (tests/corpus/cuda), translated for ROCm 5.2, compiles with the real hipcc for gfx90a.

`tests/corpus/manifest.yaml` marks with `hip52: true` the programs whose translation must compile with Debian
12's HIP 5.2 (the others need a ROCm library Debian 12 does not package, or an API HIP 5.2 lacks; each has a
`hip52_reason`). Every marked translation unit must compile; every program must at least translate.
"""

from __future__ import annotations

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
