"""Bazel migration on a CUDA project of ours (tests/migrate/projects/bazelrand: a rules_cuda ``cuda_library`` with
a cuRAND kernel, a ``cc_binary`` and a ``cc_test`` using it, MODULE.bazel with rules_cuda, a ``.bazelrc`` cuda
config), end to end through ``convert -o`` and ``migrate build -o``.

What is proven here for real, and what is not:
- Bazel itself is not installed on this machine (neither ``bazel`` nor ``bazelisk``; there is no network to fetch
  them, nor the ``@local_config_rocm`` repository that TensorFlow's ``rocm_configure`` writes), so the migrated
  workspace is not built by Bazel: ``test_bazel_builds_the_rocm_config`` says so by name where Bazel is absent.
- Instead: the migrated BUILD file still parses (LibCST), names exactly the ROCm rule, sources and labels, and the
  migrated sources compile and link for gfx90a with Debian's hipcc using the ``copts`` of the migrated
  ``rocm_library`` and the libraries its ``deps`` name (the hipcc marker: skipped only where hipcc is missing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import libcst as cst
import libcst.matchers as m
import pytest
from hypothesis import HealthCheck, given, settings

from cuda2rocm.cli.main import main
from cuda2rocm.files.classify import classify
from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.bazel import migrate_bazel, migrate_bazelrc
from cuda2rocm.migrate.build import build_kind, migrate_build, renames_in_tree
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options
from formats._strategies import mutated

PROJECT = Path(__file__).parent / "projects" / "bazelrand"
HIPCC = shutil.which("hipcc")
CXX = shutil.which("g++")
BAZEL = shutil.which("bazel") or shutil.which("bazelisk")
ENV = {**os.environ, "HIP_PLATFORM": "amd"}


def _migrated(tmp_path: Path) -> Path:
    out = tmp_path / "hip"
    report = convert(PROJECT, out, Options(cu_suffix=".cu.cc"))  # the C++ name Bazel's cc rules take
    assert not report.failed
    run = migrate_build(PROJECT, mode=Mode.MIRROR, output=out,
                        options=BuildOptions(gfx=("gfx90a",), renames=renames_in_tree(out)))
    assert not run.problems and not run.failed
    assert {o.job.display for o in run.changed} == {"BUILD.bazel", ".bazelrc"}
    reported = {(f.path, f.line, f.rule) for f in run.findings if f.path == "MODULE.bazel"}
    assert reported == {("MODULE.bazel", 5, "C2R-B505"), ("MODULE.bazel", 7, "C2R-B505"),
                        ("MODULE.bazel", 8, "C2R-B505")}
    assert (out / "MODULE.bazel").read_bytes() == (PROJECT / "MODULE.bazel").read_bytes()
    return out


def _list_value(module: cst.Module, node: cst.BaseExpression) -> list[str]:
    """The strings a copts/deps expression of list literals, ``+`` and module-level list variables stands for."""
    if isinstance(node, cst.List):
        out = []
        for el in node.elements:
            assert isinstance(el.value, cst.SimpleString)
            value = el.value.evaluated_value
            assert isinstance(value, str)
            out.append(value)
        return out
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _list_value(module, node.left) + _list_value(module, node.right)
    assert isinstance(node, cst.Name), node
    assigns = [a for a in m.findall(module, m.Assign(targets=[m.AssignTarget(target=m.Name(node.value))]))]
    assert len(assigns) == 1
    assert isinstance(assigns[0], cst.Assign)
    return _list_value(module, assigns[0].value)


def _rocm_library(build: Path, rule: str = "rocm_library") -> tuple[cst.Module, dict[str, cst.BaseExpression]]:
    module = cst.parse_module(build.read_text(encoding="utf-8"))  # still Starlark that parses
    calls = [c for c in m.findall(module, m.Call(func=m.Name(rule)))]
    assert len(calls) == 1 and isinstance(calls[0], cst.Call)
    return module, {a.keyword.value: a.value for a in calls[0].args if a.keyword is not None}


def test_migrated_build_names_the_rocm_rule_sources_and_labels(tmp_path: Path) -> None:
    out = _migrated(tmp_path)
    module, args = _rocm_library(out / "BUILD.bazel")
    text = (out / "BUILD.bazel").read_text(encoding="utf-8")
    assert 'load("@local_config_rocm//rocm:build_defs.bzl", "rocm_library")' in text
    assert "cuda_library" not in text and "@local_cuda" not in text
    assert _list_value(module, args["srcs"]) == ["src/fill.cu.cc"] and (out / "src" / "fill.cu.cc").exists()
    assert _list_value(module, args["deps"]) == ["@local_config_rocm//rocm:hip", "@local_config_rocm//rocm:hiprand"]
    assert _list_value(module, args["copts"]) == ["-ffast-math", "-Wall", "-gline-tables-only"]
    assert "# cuRAND host API" in text and "# constexpr helpers in device code" in text  # comments kept
    rc = (out / ".bazelrc").read_text(encoding="utf-8")
    original = (PROJECT / ".bazelrc").read_text(encoding="utf-8")
    assert rc.startswith(original)  # the cuda config is kept; the rocm one follows it
    assert rc[len(original):].splitlines() == [
        "build:rocm --define=using_rocm=true", "build:rocm --define=using_rocm_hipcc=true",
        "build:rocm --crosstool_top=@local_config_rocm//crosstool:toolchain", "build:rocm --repo_env=TF_NEED_ROCM=1",
        "build:rocm --repo_env=TF_ROCM_AMDGPU_TARGETS=gfx90a", "build:rocm --action_env=ROCM_PATH=/opt/rocm",
        "build:rocm --copt=-DBAZELRAND_GPU"]
    again = migrate_build(out, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx90a",), renames=renames_in_tree(out)))
    assert not again.changed  # a second run changes nothing


@pytest.mark.hipcc
@pytest.mark.skipif(HIPCC is None or CXX is None, reason="needs a real hipcc and g++")
def test_migrated_sources_build_for_gfx90a_with_the_migrated_copts_and_deps(tmp_path: Path) -> None:
    out = _migrated(tmp_path)
    module, args = _rocm_library(out / "BUILD.bazel")
    copts = _list_value(module, args["copts"])
    libs = [label.rsplit(":", 1)[1] for label in _list_value(module, args["deps"])]
    assert libs == ["hip", "hiprand"]
    links = [f"-l{'amdhip64' if lib == 'hip' else lib}" for lib in libs]
    for src in _list_value(module, args["srcs"]):  # what rocm_library compiles, with its copts, as hipcc takes them
        obj = out / (src + ".o")
        # -x hip: hipcc's language option for a device source with a C++ name (rocm_default_copts() passes
        # -x rocm to TensorFlow's ROCm toolchain for the same purpose)
        compile_ = [str(HIPCC), "-x", "hip", "--offload-arch=gfx90a", *copts, "-I", str(out), "-c", str(out / src),
                    "-o", str(obj)]
        done = subprocess.run(compile_, env=ENV, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
    main_o = out / "main.o"  # cc_binary's source: plain C++, compiled by the host compiler
    done = subprocess.run([str(CXX), "-std=c++17", "-I", str(out), "-c", str(out / "src" / "main.cc"), "-o",
                           str(main_o)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    binary = out / "bazelrand"
    link = [str(HIPCC), "--offload-arch=gfx90a", str(out / "src" / "fill.cu.cc.o"), str(main_o), *links, "-o",
            str(binary)]
    done = subprocess.run(link, env=ENV, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert b"gfx90a" in binary.read_bytes()


@pytest.mark.nvcc
def test_cuda_original_compiles_with_nvcc_where_curand_is(tmp_path: Path) -> None:
    """The original cuda_library's sources with its own copts, through nvcc (the GPU machine's CUDA install)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("needs nvcc")
    include = Path(nvcc).resolve().parent.parent / "include"
    if not (include / "curand.h").exists() and not any(Path("/usr/local").glob("cuda*/include/curand.h")):
        pytest.skip("this CUDA toolkit lacks curand.h (a toolkit-only install)")
    module, args = _rocm_library(PROJECT / "BUILD.bazel", "cuda_library")
    done = subprocess.run([nvcc, *_list_value(module, args["copts"]), "-I", str(PROJECT), "-c",
                           str(PROJECT / "src" / "fill.cu"), "-o", str(tmp_path / "fill.o")], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


def test_bazel_builds_the_rocm_config(tmp_path: Path) -> None:
    """Where Bazel and a ROCm configuration (@local_config_rocm, from TensorFlow's rocm_configure) are installed,
    the migrated workspace builds with --config=rocm. Not on this machine: named, not skipped silently."""
    if BAZEL is None:
        pytest.skip("bazel and bazelisk are not installed here (and there is no network to fetch them or "
                    "@local_config_rocm): the migrated BUILD is parsed with LibCST and its sources are compiled "
                    "with hipcc instead (the tests above)")
    out = _migrated(tmp_path)
    done = subprocess.run([BAZEL, "build", "--config=rocm", "//:bazelrand"], cwd=out, env=ENV, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


def test_syntax_error_in_a_build_file_is_named_and_left_byte_identical(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(PROJECT, root)
    bad = root / "broken" / "BUILD"
    bad.parent.mkdir()
    original = b'load("@rules_cuda//cuda:defs.bzl", "cuda_library")\n\ncuda_library(\n    name = "k",\n' \
               b'    srcs = ["k.cu"],\n    copts = ["--use_fast_math",\n)\n'
    bad.write_bytes(original)
    run = migrate_build(root, mode=Mode.IN_PLACE, options=BuildOptions(gfx=("gfx90a",)), backup=False)
    assert run.exit_code() == 2
    failed = {o.job.display: o.detail.problems for o in run.failed}
    assert list(failed) == ["broken/BUILD"]
    assert [p.line for p in failed["broken/BUILD"]] == [7]
    assert "Starlark syntax error" in failed["broken/BUILD"][0].message
    assert bad.read_bytes() == original
    assert "rocm_library" in (root / "BUILD.bazel").read_text(encoding="utf-8")  # the others are migrated


def test_cli_names_the_broken_file_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "proj"
    shutil.copytree(PROJECT, root)
    (root / ".bazelrc").write_text("build:cuda --copt='-DX\n", encoding="utf-8")
    assert main(["migrate", "build", str(root), "--offload-arch", "gfx942"]) == 2
    out, err = capsys.readouterr()
    assert ".bazelrc:1" in err and "unterminated" in err
    assert "+load(\"@local_config_rocm//rocm:build_defs.bzl\", \"rocm_library\")" in out


def test_a_build_file_without_cuda_is_not_parsed() -> None:
    assert migrate_bazel("BUILD", 'cc_library(name = "x", srcs = ["x.cc"]\n', BuildOptions()) == \
        migrate_bazel("BUILD", "", BuildOptions())  # nothing to migrate: no syntax error reported, no edits
    assert migrate_bazel("BUILD", 'cuda_library(name = "x"\n', BuildOptions()).problems  # CUDA: parsed, named


def test_bazel_files_are_build_files() -> None:
    for rel in ("BUILD", "pkg/BUILD.bazel", "WORKSPACE", "MODULE.bazel", "tools/gpu.bzl"):
        assert build_kind(rel) == "bazel", rel
    for rel in (".bazelrc", "tools/cuda.bazelrc"):
        assert classify(rel) == "bazelrc" and build_kind(rel) == "bazelrc", rel


def test_mixed_load_keeps_the_names_without_counterpart_and_adds_the_rocm_load() -> None:
    text = ('load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_objects")\n\n'
            'cuda_objects(name = "o", srcs = ["a.cu"])\ncuda_library(name = "k", deps = [":o"])\n')
    result = migrate_bazel("BUILD", text, BuildOptions())
    new = apply_edits(text, result.edits)
    assert new == ('load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_objects")\n'
                   'load("@local_config_rocm//rocm:build_defs.bzl", "rocm_library")\n\n'
                   'cuda_objects(name = "o", srcs = ["a.cu"])\nrocm_library(name = "k", deps = [":o"])\n')
    assert {(f.line, f.rule) for f in result.findings if f.remedy is None} == {(1, "C2R-B501"), (3, "C2R-B502")}
    assert apply_edits(new, migrate_bazel("BUILD", new, BuildOptions()).edits) == new


def test_starlark_load_with_an_alias_before_a_name_is_read() -> None:
    """Python's grammar rejects ``load("x", a = "b", "c")``; Starlark allows it, and so does the migrator."""
    text = 'load("@local_config_cuda//cuda:build_defs.bzl", lib = "cuda_library", "if_cuda")\n' \
           'lib(name = "k", copts = if_cuda(["--use_fast_math"]))\n'
    result = migrate_bazel("BUILD", text, BuildOptions())
    assert not result.problems
    new = apply_edits(text, result.edits)
    assert new == ('load("@local_config_rocm//rocm:build_defs.bzl", lib = "rocm_library", "if_rocm")\n'
                   'lib(name = "k", copts = if_rocm(["-ffast-math"]))\n')
    assert apply_edits(new, migrate_bazel("BUILD", new, BuildOptions()).edits) == new
    broken = migrate_bazel("BUILD", 'load("@rules_cuda//cuda:defs.bzl", a = "cuda_library", "x")\nf(,)\n',
                           BuildOptions())
    assert [p.line for p in broken.problems] == [2]  # a real syntax error is still named at its line


def test_bazelrc_without_a_cuda_config_is_left_alone_and_an_existing_rocm_config_is_kept() -> None:
    assert not migrate_bazelrc(".bazelrc", "build -c opt\n", BuildOptions()).edits
    both = "build:cuda --@rules_cuda//cuda:enable\nbuild:rocm --config=my_rocm\n"
    assert not migrate_bazelrc(".bazelrc", both, BuildOptions()).edits
    last = migrate_bazelrc(".bazelrc", "build:cuda --@rules_cuda//cuda:enable", BuildOptions(gfx=("gfx942",)))
    assert last.edits[0].replacement.startswith("\nbuild:rocm --define=using_rocm=true\n")


GOLDEN_BUILD = (Path(__file__).parent / "golden" / "rules_cuda.BUILD.bazel").read_text(encoding="utf-8")
GOLDEN_RC = (Path(__file__).parent / "golden" / "configs.bazelrc").read_text(encoding="utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(GOLDEN_BUILD))
def test_any_build_file_is_migrated_or_named_and_a_second_run_changes_nothing(text: str) -> None:
    options = BuildOptions(gfx=("gfx90a",), renames={"reduce.cu": "reduce.cu.cc", "scan/a.cu": "scan/a.cu.cc"})
    result = migrate_bazel("BUILD", text, options)
    if result.problems:
        assert not result.edits and all(p.line >= 0 for p in result.problems)
        return
    new = apply_edits(text, result.edits)  # raises on overlapping edits
    cst.parse_module(new)  # what parsed still parses
    assert apply_edits(new, migrate_bazel("BUILD", new, options).edits) == new


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(GOLDEN_RC))
def test_any_bazelrc_is_migrated_or_named_and_a_second_run_changes_nothing(text: str) -> None:
    result = migrate_bazelrc(".bazelrc", text, BuildOptions(gfx=("gfx942",)))
    if result.problems:
        assert not result.edits
        return
    new = apply_edits(text, result.edits)
    assert new.startswith(text[:result.edits[0].start] if result.edits else text)  # only an insertion
    assert apply_edits(new, migrate_bazelrc(".bazelrc", new, BuildOptions(gfx=("gfx942",))).edits) == new
