"""setup.py migration beyond the golden cases: malformed files, the tree walk, safety of the rewritten checks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.cli.main import main
from cuda2rocm.files.classify import classify
from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import is_build_file, migrate_build
from cuda2rocm.migrate.setup_py import migrate_setup_py
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.rules import RULES
from cuda2rocm.source.edits import apply_edits

GFX = BuildOptions(gfx=("gfx90a", "gfx942"))
BROKEN = 'from setuptools import setup\n\nsetup(\n    name="x",\n    ext_modules=[CUDAExtension("x", ["x.cu"]\n)\n'
GOOD = 'import os\nos.environ["TORCH_CUDA_ARCH_LIST"] = "8.0"\n'


def test_syntax_error_names_the_line_and_edits_nothing() -> None:
    result = migrate_setup_py("setup.py", BROKEN, GFX)
    assert not result.edits and not result.findings
    (problem,) = result.problems
    assert problem.line == 5 and "'[' was never closed" in problem.message


def test_broken_setup_py_is_left_byte_identical_and_the_others_migrate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    (tmp_path / "bad" / "setup.py").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "good" / "setup.py").write_text(GOOD, encoding="utf-8")
    assert main(["migrate", "build", str(tmp_path), "--write", "--no-backup"]) == 2
    err = capsys.readouterr().err
    assert "bad/setup.py:5: Python syntax error" in err
    assert (tmp_path / "bad" / "setup.py").read_text(encoding="utf-8") == BROKEN
    assert 'os.environ["PYTORCH_ROCM_ARCH"] = "gfx90a;gfx942"' in (tmp_path / "good" / "setup.py").read_text(
        encoding="utf-8")


def test_setup_py_is_a_build_file_without_changing_scan() -> None:
    assert is_build_file("setup.py") and is_build_file("pkg/ext/setup.py")
    assert not is_build_file("pkg/setup_utils.py") and not is_build_file("tools/build.py")
    assert classify("setup.py") == "python"  # scan's classification stays


def test_migrate_build_walks_setup_py(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text(GOOD, encoding="utf-8")
    run = migrate_build(tmp_path, mode=Mode.DIFF, options=GFX)
    (outcome,) = run.changed
    assert outcome.text == 'import os\nos.environ["PYTORCH_ROCM_ARCH"] = "gfx90a;gfx942"\n'


@pytest.mark.parametrize(("check", "expected"), [
    ("if CUDA_HOME is None:\n    pass\n", "if CUDA_HOME is None and ROCM_HOME is None:\n    pass\n"),
    ("ok = x and CUDA_HOME is not None\n", "ok = x and (CUDA_HOME is not None or ROCM_HOME is not None)\n"),
    ("ok = x or (CUDA_HOME is None)\n", "ok = x or (CUDA_HOME is None and ROCM_HOME is None)\n"),
    ("if not CUDA_HOME:\n    pass\n", "if not CUDA_HOME and not ROCM_HOME:\n    pass\n"),
])
def test_cuda_home_checks_keep_their_meaning(check: str, expected: str) -> None:
    head = "from torch.utils.cpp_extension import CUDA_HOME\n"
    text = head + check
    new = apply_edits(text, migrate_setup_py("setup.py", text, GFX).edits)
    assert new == "from torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME\n" + expected
    # with CUDA_HOME None and ROCM_HOME set (a ROCm build) the new condition says "a GPU toolkit is there"
    for cuda, rocm in ((None, "/opt/rocm"), ("/usr/local/cuda", None), (None, None)):
        env = {"CUDA_HOME": cuda, "ROCM_HOME": rocm, "x": True}
        old_cond = _condition(check).replace("CUDA_HOME", "TOOLKIT")
        new_cond = _condition(expected)
        toolkit = cuda or rocm
        assert eval(old_cond, {"TOOLKIT": toolkit, "x": True}) == eval(new_cond, env)


def _condition(stmt: str) -> str:
    line = stmt.splitlines()[0]
    return line.removeprefix("if ").removesuffix(":").split("=", 1)[-1] if line.startswith("ok") else \
        line.removeprefix("if ").removesuffix(":")


def test_cuda_home_elsewhere_is_reported_not_rewritten() -> None:
    text = "from torch.utils.cpp_extension import CUDA_HOME\nINC = [CUDA_HOME + '/include']\n"
    result = migrate_setup_py("setup.py", text, GFX)
    assert not result.edits
    (finding,) = result.findings
    assert finding.rule == "C2R-B404" and finding.line == 2 and finding.remedy is None


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).parent / "golden").glob("*.py")))
def test_migrated_golden_setup_py_is_still_python(name: str) -> None:
    text = (Path(__file__).parent / "golden" / name).read_text(encoding="utf-8")
    renames = {"csrc/reduce.cu": "csrc/reduce.hip"} if name == "renamed_sources.py" else {}
    new = apply_edits(text, migrate_setup_py(name, text, BuildOptions(gfx=GFX.gfx, renames=renames)).edits)
    assert new != text
    ast.parse(new)  # parsed, never run


@pytest.mark.parametrize(("options", "expected"), [
    ('("-O3", "-G", "-arch=sm_80", "--expt-extended-lambda")', '("-O3", "-g",)'),
    ('("-O3", "-arch=sm_80")', '("-O3",)'),  # still a tuple, not the string "-O3"
    ('("-arch=sm_80",)', "()"),
    ('("-arch=sm_80", x, "-arch=sm_90")', "(x,)"),
    ('["-arch=sm_80", "-O3",  # host side\n "-ccbin", "g++"]', '["-O3"  # host side\n ]'),
    ('["-Xcompiler",  # host\n  "-fPIC,-Wall", "-O3"]', '["-fPIC",  # host\n  "-Wall", "-O3"]'),
    ('["-Xcompiler",  # host\n  "-fPIC", "-O3"]', '["-fPIC"  # host\n, "-O3"]'),
    ("['-Xcompiler', '-fPIC,-Wall']", "['-fPIC', '-Wall']"),
])
def test_option_lists_stay_valid_python(options: str, expected: str) -> None:
    def wrap(opts: str) -> str:
        return f'setup(ext_modules=[CUDAExtension("x", ["x.cu"], extra_compile_args={{"nvcc": {opts}}})])\n'

    new = apply_edits(wrap(options), migrate_setup_py("setup.py", wrap(options), GFX).edits)
    assert new == wrap(expected)
    assert not migrate_setup_py("setup.py", new, GFX).edits


def test_append_of_an_option_that_cannot_stay_one_literal_is_reported() -> None:
    text = ('F = ["-O3"]\nF.append("-gencode=arch=compute_80,code=sm_80")\nF.append("-lineinfo")\n'
            'setup(ext_modules=[CUDAExtension("x", ["x.cu"], extra_compile_args={"nvcc": F})])\n')
    result = migrate_setup_py("setup.py", text, GFX)
    new = apply_edits(text, result.edits)
    assert 'F.append("-gencode=arch=compute_80,code=sm_80")' in new  # not F.append(): a call without its argument
    assert 'F.append("-gline-tables-only")' in new
    (left,) = [f for f in result.findings if f.line == 2]
    assert left.rule == "C2R-B302" and left.remedy is None and left.severity.name == "MEDIUM"


def test_second_run_reports_only_what_is_left() -> None:
    """The rewritten checks name ROCM_HOME: a second run neither rewrites nor reports them again (the include path
    under CUDA_HOME, reported until issue 30, is `CUDA_HOME or ROCM_HOME` now)."""
    text = (Path(__file__).parent / "golden" / "env_checks.py").read_text(encoding="utf-8")
    once = apply_edits(text, migrate_setup_py("setup.py", text, GFX).edits)
    again = migrate_setup_py("setup.py", once, GFX)
    assert not again.edits
    assert [(f.rule, f.line) for f in again.findings if f.rule == "C2R-B404"] == []


#: options as nvcc takes them (one taking a value is followed by it)
_OPTIONS = [["-O3"], ["--use_fast_math"], ["-gencode", "arch=compute_80,code=sm_80"], ["-arch=sm_90"],
            ["-Xcompiler", "-fPIC,-Wall"], ["--expt-relaxed-constexpr"], ["-lineinfo"], ["-DNDEBUG"],
            ["--maxrregcount=32"], ["-ccbin", "g++"]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_OPTIONS), max_size=6).map(lambda opts: [w for o in opts for w in o]),
       st.sampled_from(["[{}]", "({},)", "[{},]"]),
       st.sampled_from([", ", ",\n    ", ",  # note\n    "]))
def test_any_option_list_migrates_to_valid_python_once(options: list[str], shape: str, sep: str) -> None:
    if not options:
        shape = shape[0] + "{}" + shape[-1]
    body = sep.join(f'"{o}"' for o in options)
    text = ('import x\nsetup(ext_modules=[CUDAExtension("x", ["x.cu"], '
            f'extra_compile_args={{"nvcc": {shape.format(body)}}})])\n')
    result = migrate_setup_py("setup.py", text, GFX)
    new = apply_edits(text, result.edits)
    tree = ast.parse(new)
    assert "# note" not in text or new.count("# note") == text.count("# note")
    assert not migrate_setup_py("setup.py", new, GFX).edits
    value = next(n for n in ast.walk(tree) if isinstance(n, ast.Dict)).values[0]
    assert isinstance(value, (ast.List, ast.Tuple)) and isinstance(value, ast.List) == shape.startswith("[")
    words = [e.value for e in value.elts if isinstance(e, ast.Constant)]
    assert not {"--use_fast_math", "-gencode", "-arch=sm_90", "-Xcompiler", "-lineinfo", "-ccbin"} & set(words)


@pytest.mark.parametrize("rule_id", ["C2R-B401", "C2R-B402", "C2R-B403", "C2R-B404", "C2R-B405", "C2R-B406"])
def test_rule_examples_fire(rule_id: str) -> None:
    """Each setup.py rule's documented example, as a setup.py, gets a finding of that rule."""
    example = RULES[rule_id].example
    renames = {"csrc/ops.cu": "csrc/ops.hip", "csrc/kernels.cu": "csrc/kernels.hip"}
    result = migrate_setup_py("setup.py", example + "\n", BuildOptions(gfx=GFX.gfx, renames=renames))
    assert rule_id in {f.rule for f in result.findings}
