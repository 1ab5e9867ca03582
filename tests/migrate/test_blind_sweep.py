"""The blind sweep: small CUDA projects of ours (tests/migrate/projects/blind_sweep), each modelled on a build
pattern common in public CUDA projects, with an answer key (``answers.json``) written before migrate build ever
ran on them. The corpus test checks the key and, where hipcc and cmake are installed, really builds each migrated
project for gfx90a (package style; CMake's HIP language needs hip-lang where Debian does not install it: see
test_real_build.py). The unit tests above it are the bugs the sweep found, each as the smallest case."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build, migrate_file, renames_in_tree
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import read_cmake
from cuda2rocm.translate.api import convert

CORPUS = Path(__file__).parent / "projects" / "blind_sweep"
KEY = {k: v for k, v in json.loads((CORPUS / "answers.json").read_text(encoding="utf-8")).items()
       if not k.startswith("_")}
HIPCC = shutil.which("hipcc")
CMAKE = shutil.which("cmake")
MAKE = shutil.which("make")
ENV = {**os.environ, "HIP_PLATFORM": "amd"}


def _cmake(text: str, style: str = "language") -> str:
    done = migrate_file("CMakeLists.txt", text, BuildOptions(gfx=("gfx90a",), style=style))
    assert not done.problems
    out = apply_edits(text, done.edits)
    assert not read_cmake(out).problems, out
    again = migrate_file("CMakeLists.txt", out, BuildOptions(gfx=("gfx90a",), style=style))
    assert apply_edits(out, again.edits) == out, "a second run must change nothing"
    return out


HEAD = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX CUDA)\n"


@pytest.mark.parametrize("style", ["language", "package"])
def test_an_option_and_its_quoted_value_in_two_arguments_go_with_both_quotes(style: str) -> None:
    out = _cmake(HEAD + 'set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS}\n    --use_fast_math\n'
                 '    -Xcudafe "--diag_suppress=partial_override")\n'
                 'set(CMAKE_CUDA_FLAGS -Xcompiler "-fPIC" -O2)\n', style)
    assert "diag_suppress" not in out and "-Xcudafe" not in out
    assert "    -ffast-math\n    )\n" in out  # neither quote of "--diag_suppress=..." is left
    assert "_FLAGS -fPIC -O2)" in out


@pytest.mark.parametrize(("style", "language"), [("language", "HIP"), ("package", "CXX")])
def test_the_linker_language_cuda_property(style: str, language: str) -> None:
    out = _cmake(HEAD + "add_executable(app main.cpp)\n"
                 "set_target_properties(app PROPERTIES LINKER_LANGUAGE CUDA)\n", style)
    assert f"LINKER_LANGUAGE {language})" in out


def test_package_style_check_language_finds_hip_before_the_compiler_test() -> None:
    out = _cmake("cmake_minimum_required(VERSION 3.20)\nproject(p CXX)\ninclude(CheckLanguage)\n"
                 "check_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n  enable_language(CUDA)\n"
                 "  add_executable(app main.cu)\nendif()\n", "package")
    # hip_FOUND, the test's HIP form, must be set before the if(): the find_package inside the block is too late
    assert out.index("find_package(hip QUIET)") < out.index("if(hip_FOUND)")
    # and GPU_TARGETS before that first find_package: hip::device takes its targets from it then, once
    assert out.index('set(GPU_TARGETS "gfx90a" CACHE') < out.index("find_package(hip QUIET)")
    assert "check_language" not in out


def test_language_style_check_language_is_hip() -> None:
    out = _cmake("cmake_minimum_required(VERSION 3.21)\nproject(p CXX)\ninclude(CheckLanguage)\n"
                 "check_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n  enable_language(CUDA)\nendif()\n")
    assert "check_language(HIP)\nif(CMAKE_HIP_COMPILER)\n  enable_language(HIP)" in out


@pytest.mark.parametrize(("style", "language"), [("language", "HIP"), ("package", "CXX")])
def test_options_under_an_and_of_the_cuda_language_are_translated(style: str, language: str) -> None:
    out = _cmake(HEAD + "add_executable(app main.cpp)\ntarget_compile_options(app PRIVATE\n"
                 "  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G;--use_fast_math>\n"
                 "  $<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CUDA>>:-lineinfo>)\n", style)
    assert f"$<$<AND:$<COMPILE_LANGUAGE:{language}>,$<CONFIG:Debug>>:-g;-ffast-math>" in out
    assert f"$<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:{language}>>:-gline-tables-only>" in out


def test_a_cpp_source_compiled_as_cuda_gets_hip_device_in_package_style() -> None:
    out = _cmake(HEAD + "set_source_files_properties(kernel.cpp PROPERTIES LANGUAGE CUDA)\n"
                 "add_executable(app kernel.cpp host.cpp)\nadd_library(plain host.cpp)\n", "package")
    assert "set_source_files_properties(kernel.cpp PROPERTIES LANGUAGE CXX)" in out
    assert "target_link_libraries(app PRIVATE hip::device)" in out
    assert "plain PRIVATE hip::device" not in out  # no kernel source there


@pytest.mark.parametrize(("nvcc", "hip"), [("--optimize=3", "-O3"), ("--extra-device-vectorization", ""),
                                           ("--disable-warnings", "-w"), ("-forward-unknown-to-host-compiler", ""),
                                           ("--allow-unsupported-compiler", ""), ("--Werror all-warnings", "-Werror")])
def test_more_nvcc_spellings(nvcc: str, hip: str) -> None:
    out = _cmake(HEAD + f'add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:{nvcc.replace(" ", ";")};-O2>")\n')
    assert f'"$<$<COMPILE_LANGUAGE:HIP>:{hip + ";" if hip else ""}-O2>"' in out


def test_a_findcuda_project_enables_the_hip_language() -> None:
    legacy = ("cmake_minimum_required(VERSION 3.10)\nproject(p CXX)\nfind_package(CUDA REQUIRED)\n"
              "cuda_add_executable(app main.cu)\n")
    out = _cmake(legacy)
    # FindCUDA never enables the CUDA language; LANGUAGE HIP on a source needs the HIP language enabled
    assert "VERSION 3.21" in out and "find_package(hip REQUIRED)\nenable_language(HIP)\n" in out
    assert "enable_language" not in _cmake(legacy, "package")
    assert "enable_language" not in _cmake(HEAD + "find_package(CUDA REQUIRED)\nadd_executable(app main.cu)\n")


def test_a_comma_list_under_the_cuda_language_becomes_list_items() -> None:
    out = _cmake(HEAD + "add_executable(app main.cpp)\n"
                 "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra;-O2>)\n")
    # a blank in an unquoted argument would split the generator expression in two
    assert "$<$<COMPILE_LANGUAGE:HIP>:-Wall;-Wextra;-O2>)" in out


@pytest.mark.parametrize(("nvcc", "hip"), [("-Werror cross-execution-space-call", "-O2"),
                                           ("-Werror all-warnings", "-Werror -O2")])
def test_a_narrow_nvcc_werror_kind_is_not_every_warning(nvcc: str, hip: str) -> None:
    text = f"app: app.cu\n\tnvcc {nvcc} -O2 --offload-arch=gfx90a -o app app.cu\n"
    out = apply_edits(text, migrate_file("Makefile", text, BuildOptions(gfx=("gfx90a",))).edits)
    assert f"\thipcc {hip} --offload-arch=gfx90a -o app app.cu" in out


def test_a_makefile_without_an_architecture_is_reported() -> None:
    text = "NVCC := nvcc\napp: app.cu\n\t$(NVCC) -O2 -o app app.cu\n"
    done = migrate_file("Makefile", text, BuildOptions(gfx=("gfx90a",)))
    missing = [(f.rule, f.line) for f in done.findings if "no GPU architecture" in f.message]
    assert missing == [("C2R-B201", 1)]  # a rule whose findings without an edit are counted for review
    with_arch = "NVCC := nvcc\napp: app.cu\n\t$(NVCC) -arch=sm_80 -o app app.cu\n"
    assert not [f for f in migrate_file("Makefile", with_arch, BuildOptions()).findings
                if "no GPU architecture" in f.message]


def test_a_make_suffix_rule_for_cu_sources_follows_the_rename() -> None:
    text = ".SUFFIXES: .cu .o\n\napp: k.o\n\tnvcc -o $@ k.o\n\n.cu.o:\n\tnvcc -c $< -o $@\n"
    done = migrate_file("Makefile", text, BuildOptions(gfx=("gfx90a",), renames={"k.cu": "k.hip"}))
    out = apply_edits(text, done.edits)
    assert ".SUFFIXES: .hip .o" in out and "\n.hip.o:\n" in out
    again = migrate_file("Makefile", out, BuildOptions(gfx=("gfx90a",), renames={"k.cu": "k.hip"}))
    assert apply_edits(out, again.edits) == out


# -- the corpus -----------------------------------------------------------------------------------------------
def _code(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=900, check=False)


def _migrated(name: str, out: Path) -> tuple[Path, list[tuple[str, int]]]:
    assert not convert(CORPUS / name, out).failed
    run = migrate_build(CORPUS / name, mode=Mode.MIRROR, output=out,
                        options=BuildOptions(gfx=("gfx90a",), style="package", renames=renames_in_tree(out)))
    assert not run.problems and not run.failed
    return out, [(f.rule, f.line) for f in run.findings]


@pytest.mark.parametrize("name", sorted(KEY))
def test_the_answer_key(name: str, tmp_path: Path) -> None:
    key = KEY[name]
    out, findings = _migrated(name, tmp_path / name)
    text = "\n".join(_code((out / f).read_text(encoding="utf-8")) for f in key["files"])
    assert [s for s in key["contain"] if s not in text] == [], text
    assert [s for s in key["absent"] if s in text] == [], text
    missing = [(rule, line) for rule, line in key["report"]
               if not any(r == rule and (line == 0 or n == line) for r, n in findings)]
    assert missing == [], findings


BUILT = sorted(n for n, k in KEY.items() if k["build"] in ("cmake", "make"))


@pytest.mark.hipcc
@pytest.mark.skipif(HIPCC is None or CMAKE is None or MAKE is None, reason="needs a real hipcc, cmake and make")
@pytest.mark.parametrize("name", BUILT)
def test_the_migrated_project_builds_for_gfx90a(name: str, tmp_path: Path) -> None:
    key = KEY[name]
    out, _ = _migrated(name, tmp_path / name)
    rocm = str(Path(HIPCC or "").resolve().parent.parent)
    if key["build"] == "cmake":
        done = _run([CMAKE or "cmake", "-S", str(out), "-B", str(out / "build"), "-DCMAKE_CXX_COMPILER=" + str(HIPCC)],
                    out)
        assert done.returncode == 0, done.stdout + done.stderr
        built = _run([CMAKE or "cmake", "--build", str(out / "build")], out)
        binary = out / "build" / key.get("binary", name.split("_")[0])
    else:
        built = _run([MAKE or "make", f"ROCM_PATH={rocm}"], out)
        binary = out / key["binary"]
    if key["expect"] == "fail":  # what the tool reported and a person must finish (the key's report list)
        assert built.returncode != 0
        return
    assert built.returncode == 0, built.stdout + built.stderr
    # "default": no architecture in the original (reported, not invented); "host": no kernel of its own
    if key.get("arch") is None:
        assert b"gfx90a" in binary.read_bytes()
    assert "nvcc" not in built.stdout
