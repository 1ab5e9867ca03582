"""The blind sweep corpus (tests/translate/data/blind_sweep): small CUDA programs written from public usage
patterns (runtime API, warp intrinsics, cooperative groups, fp16/bf16, cuRAND, cuSPARSE, textures, atomics,
launch macros), translated for ROCm 5.2. Each translates; with hipcc, each compiles for gfx90a, except the
cases of answer_key.yaml, which use an API HIP 5.2 lacks and must get the finding the key names."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
from cuda2rocm.translate.runner import WritePolicy

DATA = Path(__file__).parent / "data" / "blind_sweep"
CASES = sorted(DATA.glob("*.cu"))
KEY = YAML(typ="safe").load((DATA / "answer_key.yaml").read_text(encoding="utf-8"))
UNSUPPORTED: dict[str, dict[str, object]] = KEY["unsupported"]


def _hipcc() -> str | None:
    from cuda2rocm.toolchain.discover import find_hipcc

    return find_hipcc()


def _translate(paths: list[Path], **kw: object):  # type: ignore[no-untyped-def]
    report = convert(paths, None, Options(target_rocm="5.2", jobs=1, **kw),  # type: ignore[arg-type]
                     policy=WritePolicy(write=False, keep_original=True))
    assert not report.failed, report.failed
    return report


def test_corpus_is_large_and_every_case_names_its_pattern() -> None:
    assert len(CASES) >= 25
    for case in CASES:
        assert case.read_text(encoding="utf-8").startswith("// Pattern: "), case.name
    names = {c.name for c in CASES}
    assert set(UNSUPPORTED) <= names and set(KEY["ggl"]) <= names


@pytest.mark.parametrize("case", sorted(UNSUPPORTED))
def test_unsupported_case_gets_the_expected_finding(case: str) -> None:
    report = _translate([DATA / case])
    rules = {f.rule for f in report.findings}
    missing = [r for r in UNSUPPORTED[case]["expect"] if r not in rules]  # type: ignore[attr-defined]
    assert not missing, (case, sorted(rules))


def _compile(files) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    from cuda2rocm.translate.verify import verify

    outcomes = verify(files, arch="gfx90a", jobs=2)
    return {Path(o.path).name: [str(d) for d in o.diagnostics if d.severity == "error"][:3] or [o.output[-500:]]
            for o in outcomes if not o.ok}


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_cases_compile_for_gfx90a_unless_the_key_says_why_not() -> None:
    failed = _compile(_translate(CASES).files)
    assert set(failed) == set(UNSUPPORTED), {k: v for k, v in failed.items() if k not in UNSUPPORTED}


@pytest.mark.hipcc
@pytest.mark.skipif(_hipcc() is None, reason="hipcc not installed")
def test_ggl_cases_compile_for_gfx90a() -> None:
    failed = _compile(_translate([DATA / c for c in KEY["ggl"]], launch_syntax="ggl").files)
    assert not failed
