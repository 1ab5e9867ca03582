"""Python dependency files through ``migrate build``: ``-r``/``-c`` includes migrated as their own files, bad
input left byte-identical with file and line, a second run changing nothing, the target ROCm, and properties
(edits stay inside the requirement they change; everything else survives byte for byte)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda2rocm.cli.main import main
from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_build
from cuda2rocm.migrate.pydeps import migrate_pyproject, migrate_requirements, plan_spec, target
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.requirements import read_requirements
from cuda2rocm.source.formats.yamlnodes import read_yaml


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


INCLUDES = {
    "requirements.txt": "--extra-index-url https://download.pytorch.org/whl/cu121\n-r deps/gpu.txt\n"
                        "-c pins/constraints.txt\n-r ../outside.txt\nnumpy\n",
    "deps/gpu.txt": "-r common.txt  # relative to this file\ntorch==2.1.2+cu121\n",
    "deps/common.txt": "nvidia-cudnn-cu12==8.9.2.26\nrequests\n",
    "pins/constraints.txt": "torchvision==0.16.2+cu121\n",
}


def test_includes_are_followed_and_migrated_as_their_own_files(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj", INCLUDES)
    (tmp_path / "outside.txt").write_text("torch==2.1.2+cu121\n", encoding="utf-8")
    run = migrate_build(root, mode=Mode.DIFF, options=BuildOptions(rocm="6.4"))
    texts = {o.job.display: o.text for o in run.files}
    assert sorted(texts) == ["deps/common.txt", "deps/gpu.txt", "pins/constraints.txt", "requirements.txt"]
    assert texts["requirements.txt"] is not None and "whl/rocm6.4" in texts["requirements.txt"]
    assert texts["deps/gpu.txt"] == "-r common.txt  # relative to this file\ntorch==2.8.0+rocm6.4\n"
    assert texts["deps/common.txt"] == "requests\n"
    assert texts["pins/constraints.txt"] == "torchvision==0.23.0+rocm6.4\n"
    assert not run.failed and not run.problems


def test_write_then_second_run_changes_nothing(tmp_path: Path) -> None:
    golden = Path(__file__).parent / "golden"
    files = {name: (golden / name).read_text(encoding="utf-8")
             for name in ("requirements-hashes.txt", "pyproject.toml", "Pipfile", "environment.yml")}
    files["requirements.txt"] = "-r requirements-hashes.txt\n"
    root = _tree(tmp_path / "proj", files)
    first = migrate_build(root, mode=Mode.IN_PLACE, backup=False)
    assert len(first.changed) == 4 and not first.failed
    after = _snapshot(root)
    second = migrate_build(root, mode=Mode.IN_PLACE, backup=False)
    assert not second.changed and _snapshot(root) == after
    assert tomllib.loads(after["pyproject.toml"].decode())["project"]["dependencies"][0] == "torch==2.10.0+rocm7.1"
    assert not read_yaml(after["environment.yml"].decode()).problems


BAD = {
    "pyproject.toml": '[project]\nname = "x"\ndependencies = [\n    "torch==2.1.2+cu121",\n    "numpy"\n\n[tool.uv]\n',
    "Pipfile": '[packages]\ntorch = "==2.1.2+cu121"\nrequests = \n',
    "environment.yml": "name: t\ndependencies:\n  - pytorch-cuda=12.1\n  - pip:\n    - torch==2.1.2\n   - bad\n",
    "requirements.txt": "numpy\ntorch==>2\n",
    "sub/requirements.txt": "--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.1.2+cu121\n",
}


def test_malformed_files_are_named_with_their_line_and_left_byte_identical(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _tree(tmp_path / "proj", BAD)
    before = _snapshot(root)
    assert main(["migrate", "build", str(root), "--write", "--no-backup"]) == 2
    err = capsys.readouterr().err
    after = _snapshot(root)
    for name in ("pyproject.toml", "Pipfile", "environment.yml", "requirements.txt"):
        assert after[name] == before[name], name
    assert after["sub/requirements.txt"] != before["sub/requirements.txt"]  # the good file is still migrated
    assert "proj/pyproject.toml:7: invalid TOML" in err
    assert "proj/Pipfile:3: invalid TOML" in err
    assert "proj/environment.yml:6: invalid YAML" in err
    assert "proj/requirements.txt:2: invalid requirement" in err


def test_target_rocm_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _tree(tmp_path / "proj", {"requirements.txt": BAD["sub/requirements.txt"] + "cupy-cuda12x==13.3.0\n"})
    assert main(["migrate", "build", str(root), "--target-rocm", "7.0", "--format", "text", "--fail-on",
                 "critical"]) == 0
    out = capsys.readouterr().out
    assert "C2R-B609" in out and "ROCm 7.0" in out and "rocm6.4" in out  # no index for 7.0 listed: the nearest
    assert "C2R-B605" in out and "cupy-rocm-7-0" in out  # CuPy has a 7.0 build
    assert main(["migrate", "build", str(root), "--target-rocm", "seven"]) == 2


def test_default_target_is_the_newest_index() -> None:
    assert target(BuildOptions()).index.rocm == "7.1" and target(BuildOptions()).choice.exact


def test_plugins_are_reported_never_changed() -> None:
    text = "flash-attn==2.5.8\nxformers==0.0.23\nbitsandbytes==0.42.0\nvllm==0.6.3\n"
    result = migrate_requirements("requirements.txt", text, BuildOptions())
    assert not result.edits
    assert [f.rule for f in result.findings] == ["C2R-B606"] * 4
    assert all(f.remedy is None for f in result.findings)


def test_dropping_the_last_inline_element_takes_its_comma() -> None:
    text = '[project]\ndependencies = ["numpy", "nvidia-nccl-cu12"]\n'
    result = migrate_pyproject("pyproject.toml", text, BuildOptions())
    assert apply_edits(text, result.edits) == '[project]\ndependencies = ["numpy"]\n'


# ---- properties ------------------------------------------------------------------------------------------------

_PACKAGES = ["torch==2.1.2+cu121", "torch==2.9.0", "torch>=2.0", "torchvision==0.16.2+cu121", "torchaudio==2.1.2",
             "nvidia-cublas-cu12==12.1.3.1", "pynvml==11.5.0", "flash-attn==2.5.8", "numpy==1.26.4", "requests",
             "cupy-cuda12x", "torch-scatter==2.1.2+pt21cu121"]
_MARKERS = ["", ' ; python_version >= "3.9"', "; sys_platform == 'linux'"]
_HASH = " \\\n    --hash=sha256:" + "a" * 64
_LINES = st.one_of(
    st.tuples(st.sampled_from(_PACKAGES), st.sampled_from(_MARKERS), st.integers(0, 2),
              st.sampled_from(["", "  # pinned", "\n    # via -r requirements.in"])).map(
        lambda t: t[0] + t[1] + _HASH * t[2] + t[3]),
    st.sampled_from(["# a comment", "", "--extra-index-url https://download.pytorch.org/whl/cu118",
                     "-i https://pypi.org/simple", "-r other.txt"]))


def _extent(text: str) -> list[tuple[int, int]]:
    """[start of the line, start of the next logical line) of every requirement line."""
    lines = read_requirements(text).lines
    heads = [text.rfind("\n", 0, ln.offset) + 1 for ln in lines]
    return [(heads[k], heads[k + 1] if k + 1 < len(lines) else len(text)) for k in range(len(lines))]


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINES, max_size=12), st.sampled_from(["", "6.4", "7.0", "5.7"]))
def test_requirement_edits_stay_inside_their_requirement(lines: list[str], rocm: str) -> None:
    text = "\n".join(lines) + "\n"
    result = migrate_requirements("requirements.txt", text, BuildOptions(rocm=rocm))
    assert not result.problems
    extents = _extent(text)
    for edit in result.edits:
        assert any(a <= edit.start and edit.end <= b for a, b in extents), (text, edit)
    new = apply_edits(text, result.edits)
    # lines of requirements nobody changed survive verbatim; a second run changes nothing
    changed = [(a, b) for a, b in extents if any(a <= e.start < b for e in result.edits)]
    for a, b in extents:
        if (a, b) not in changed:
            assert text[a:b] in new
    again = migrate_requirements("requirements.txt", new, BuildOptions(rocm=rocm))
    assert apply_edits(new, again.edits) == new
    assert "--hash" not in "".join(new[a:b] for a, b in _extent(new) if "rocm" in new[a:b])


_DEP = st.sampled_from([*_PACKAGES, "numpy>=1.26", "vllm==0.6.3"])


@settings(max_examples=100, deadline=None)
@given(st.lists(_DEP, max_size=8), st.booleans(), st.lists(_DEP, max_size=4))
def test_pyproject_edits_keep_the_document(deps: list[str], multiline: bool, extra: list[str]) -> None:
    sep = ",\n    " if multiline else ", "
    body = ("\n    " if multiline and deps else "") + sep.join(f'"{d}"' for d in deps) + (",\n" if multiline and deps
                                                                                        else "")
    text = (f'[project]\nname = "p"\ndependencies = [{body}]\n\n[project.optional-dependencies]\n'
            f'gpu = [{", ".join(repr(d) for d in extra)}]\n\n[tool.other]\nkeep = "cu121"  # untouched\n')
    result = migrate_pyproject("pyproject.toml", text, BuildOptions(rocm="6.4"))
    new = apply_edits(text, result.edits)
    before, after = tomllib.loads(text), tomllib.loads(new)
    assert after["tool"] == before["tool"] and after["project"]["name"] == "p"
    for key, old_list, new_list in (("dependencies", deps, after["project"]["dependencies"]),
                                    ("gpu", extra, after["project"]["optional-dependencies"]["gpu"])):
        kept = [d for d in old_list if not d.startswith("nvidia-")]
        assert len(new_list) == len(kept), key
        for old, now in zip(kept, new_list, strict=True):
            plan = plan_spec(old, target(BuildOptions(rocm="6.4")))
            assert now == old or (plan is not None and plan.changes), (old, now)
    assert apply_edits(new, migrate_pyproject("pyproject.toml", new, BuildOptions(rocm="6.4")).edits) == new


def test_a_file_on_rocm_already_follows_its_own_index() -> None:
    """Pins next to a ROCm index stay with that index (no retargeting to --target-rocm: the index would
    disagree with the pins); ROCm builds are left as they are."""
    text = ("--index-url https://download.pytorch.org/whl/rocm6.3\ntorch==2.7.1\ntorchvision==0.22.1+rocm6.3\n"
            "nvidia-nccl-cu12\n")
    result = migrate_requirements("requirements.txt", text, BuildOptions(rocm="7.1"))
    assert apply_edits(text, result.edits) == text.replace("nvidia-nccl-cu12\n", "")
    conda = ("dependencies:\n  - pip:\n    - --extra-index-url=https://download.pytorch.org/whl/rocm6.4\n"
             "    - torch==2.1.2\n")
    from cuda2rocm.migrate.pydeps import migrate_conda

    new = apply_edits(conda, migrate_conda("environment.yml", conda, BuildOptions()).edits)
    assert new == conda.replace("torch==2.1.2", "torch==2.8.0")


POETRY = '''[tool.poetry.dependencies]
python = "^3.10"
torch = {version = "2.1.2+cu121", source = "pytorch"}
torchvision = "0.16.2"
pynvml = "^11.5"
nvidia-cudnn-cu12 = "8.9.2.26"  # cudnn
xformers = "*"

[tool.poetry.group.dev.dependencies]
torchaudio = "==2.1.2"

[[tool.poetry.source]]
name = "pytorch"
url = "https://download.pytorch.org/whl/cu121"
priority = "explicit"
'''


def test_poetry_dependencies_and_source() -> None:
    result = migrate_pyproject("pyproject.toml", POETRY, BuildOptions(rocm="6.4"))
    new = apply_edits(POETRY, result.edits)
    assert new == (POETRY.replace('"2.1.2+cu121"', '"2.8.0+rocm6.4"').replace('"0.16.2"', '"0.23.0"')
                   .replace('pynvml = "^11.5"', 'amdsmi = "*"').replace('nvidia-cudnn-cu12 = "8.9.2.26"  # cudnn\n', "")
                   .replace('"==2.1.2"', '"==2.8.0"').replace("whl/cu121", "whl/rocm6.4"))
    assert "C2R-B606" in {f.rule for f in result.findings}  # xformers: reported
    assert not migrate_pyproject("pyproject.toml", new, BuildOptions(rocm="6.4")).edits


_CONDA_ITEMS = ["python=3.11", "pytorch=2.1.2", "pytorch-cuda=12.1", "cudatoolkit=11.8", "nvidia::cuda-nvcc",
                "numpy", "pip", "cupy"]
_PIP_ITEMS = ["--extra-index-url https://download.pytorch.org/whl/cu121", "torch==2.1.2+cu121", "requests",
              "'nvidia-cudnn-cu12==8.9.2.26'", '"pynvml==11.5.0"', "flash-attn==2.5.8"]
_COMMENT = st.sampled_from(["", "  # why"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["pytorch", "nvidia", "conda-forge"]), max_size=3),
       st.lists(st.tuples(st.sampled_from(_CONDA_ITEMS), _COMMENT), max_size=6),
       st.lists(st.tuples(st.sampled_from(_PIP_ITEMS), _COMMENT), max_size=6))
def test_conda_edits_keep_every_other_line(channels: list[str], items: list[tuple[str, str]],
                                           pips: list[tuple[str, str]]) -> None:
    from cuda2rocm.migrate.pydeps import migrate_conda

    lines = ["# env", "name: t"]
    if channels:
        lines += ["channels:", *(f"  - {c}" for c in channels)]
    lines += ["dependencies:", *(f"  - {i}{c}" for i, c in items)]
    if pips:
        lines += ["  - pip:", "      # wheels", *(f"      - {i}{c}" for i, c in pips)]
    text = "\n".join(lines) + "\n"
    result = migrate_conda("environment.yml", text, BuildOptions(rocm="6.4"))
    assert not result.problems
    new = apply_edits(text, result.edits)
    # an edit stays on one line of the input (a removal takes exactly its whole line)
    for edit in result.edits:
        head = text.rfind("\n", 0, edit.start) + 1
        nl = text.find("\n", edit.start)
        assert edit.end <= nl + 1, (text, edit)
        assert not edit.replacement or edit.end <= nl, (text, edit)
        assert edit.replacement or edit.start > head or edit.end == nl + 1
    # conda's pytorch moves to the pip: list (issue 30): its line goes, a torch pin of the ROCm index comes
    moved = ("nvidia", "cuda", "cu121", "pynvml", "pytorch=")
    kept = [line for line in text.splitlines() if not any(w in line for w in moved)]
    assert [line for line in new.splitlines() if line in kept] == kept
    if any(i == "pytorch=2.1.2" for i, _ in items):
        assert "- torch==" in new and "  - pytorch=" not in new
    stream = read_yaml(new)
    assert not stream.problems and stream.documents
    assert apply_edits(new, migrate_conda("environment.yml", new, BuildOptions(rocm="6.4")).edits) == new


def test_an_included_file_needs_no_index_of_its_own(tmp_path: Path) -> None:
    """pip applies an index option of any file to the whole install: a file included from one that names the
    index gets no C2R-B610; the same file on its own does."""
    root = _tree(tmp_path / "proj", INCLUDES)
    run = migrate_build(root, mode=Mode.DIFF, options=BuildOptions(rocm="6.4"))
    assert not [f for f in run.findings if f.rule == "C2R-B610"]
    alone = _tree(tmp_path / "alone", {"requirements-gpu.txt": INCLUDES["deps/gpu.txt"]})
    run = migrate_build(alone, mode=Mode.DIFF, options=BuildOptions(rocm="6.4"))
    assert [f.path for f in run.findings if f.rule == "C2R-B610"] == ["requirements-gpu.txt"]


@pytest.mark.parametrize("args", [["migrate", "build", "--target-rocm", "9.9"],
                                  ["migrate", "deploy", "--target-rocm", "9.9"],
                                  ["migrate", "deploy", "--target-rocm", "5.2"],  # known to convert, no images
                                  ["convert", "--target-rocm", "9.9"],
                                  ["migrate", "build", "--offload-arch", "gfx9999"],
                                  ["migrate", "deploy", "--offload-arch", "gfx942,sm_90"]])
def test_targets_are_validated_in_one_place(tmp_path: Path, args: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """--target-rocm and --offload-arch are checked by one function each, so every command refuses the same
    values with exit 2 and the same message (migrate build took 9.9 and gfx9999 before)."""
    root = _tree(tmp_path / "proj", {"requirements.txt": "torch==2.4.0\n"})
    assert main([*args[:-2], str(root), *args[-2:]]) == 2
    err = capsys.readouterr().err
    assert args[-1].split(",")[-1] in err and ("--target-rocm" in err or "--offload-arch" in err)


def test_accepted_targets_pass_through(tmp_path: Path) -> None:
    from cuda2rocm.cli._options import rocm_release
    from cuda2rocm.hazards.targets import known_archs
    from cuda2rocm.migrate.build import resolve_targets

    assert rocm_release("7.1") == "7.1" and rocm_release("6.2.0") == "6.2.0" and rocm_release("") == ""
    assert rocm_release("5.2") == "5.2"  # convert's tables go back further than the images
    assert resolve_targets("gfx90a:xnack+,gfx942") == ("gfx90a:xnack+", "gfx942")
    assert {"gfx90a", "gfx942", "gfx1100"} <= set(known_archs())
