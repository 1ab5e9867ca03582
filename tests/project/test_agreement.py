"""``scan`` and ``migrate deploy`` agree: what scan reports in a deploy file, migrate changes or reports on the
same line, and the migrated files no longer hold it. Both ask the same recognisers (project/recognise.py:
GPU runner labels, NCCL classes) and read Helm templates through the same masking reader.

The trees: tests/project/data/agreement (one of each deploy file kind, with the cases the two used to disagree
on: a liveness probe running nvidia-smi, ``runs-on: [..., a100]``, GitLab ``tags: [h100]``, a Helm template,
``TORCH_CUDA_ARCH_LIST`` in compose build args and ``docker run -e``, ``CUDA_VISIBLE_DEVICES`` in compose and
``docker run -e``), the bundled example and the Kubernetes fixture project.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import build_facts, deploy_kind, is_deploy_file, migrate_deploy, migrate_file
from cuda2rocm.model import Finding
from cuda2rocm.project.recognise import nvidia_runner
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.scan.api import scan
from cuda2rocm.source.tokens import LineIndex

REPO = Path(__file__).parents[2]
AGREEMENT = Path(__file__).parent / "data" / "agreement"
TREES = [AGREEMENT, REPO / "examples" / "llm-service", REPO / "tests" / "migrate" / "deploy" / "kubernetes" / "project"]
#: scan's deploy rules that ask for a change (C2R-D106, the launcher inventory, asks for none)
CHANGE_RULES = frozenset({"C2R-D101", "C2R-D102", "C2R-D103", "C2R-D104", "C2R-D105", "C2R-D107", "C2R-D108",
                          "C2R-D110"})
#: rules whose CI-job finding is answered by the ROCm job migrate adds beside the CUDA one (kept as it is)
CI_COPIED = frozenset({"C2R-D101", "C2R-D103", "C2R-D104", "C2R-D105", "C2R-D107", "C2R-D108", "C2R-D110"})


def _answered(finding: Finding, text: str, migration: FileMigration) -> bool:
    index = LineIndex(text)
    if any(f.line == finding.line for f in migration.findings):
        return True
    for e in migration.edits:
        first = index.line_col(e.start)[0]
        last = index.line_col(max(e.start, e.end - 1))[0]
        if first <= finding.line <= last:
            return True
        if e.start == e.end and first > finding.line and "-rocm" in e.replacement and finding.rule in CI_COPIED:
            return True
    image = finding.message.split()[2] if finding.rule == "C2R-D101" else ""
    return bool(image) and any(image in f.message for f in migration.findings)  # FROM ${BASE}: the ARG is edited


@pytest.mark.parametrize("root", TREES, ids=lambda p: p.name)
def test_what_scan_reports_in_deploy_files_migrate_answers(root: Path) -> None:
    findings = [f for f in scan(root).findings if f.rule in CHANGE_RULES and is_deploy_file(f.path)]
    assert findings, "the tree has deploy findings to agree on"
    unanswered = []
    options = DeployOptions(build=build_facts(root))  # the project's GPU options, as migrate_deploy reads them
    for f in findings:
        text = (root / f.path).read_text(encoding="utf-8")
        if not _answered(f, text, migrate_file(f.path, text, options)):
            unanswered.append(f"{f.path}:{f.line} {f.rule} {f.message}")
    assert not unanswered, unanswered


def test_the_migrated_files_no_longer_hold_what_scan_reported(tmp_path: Path) -> None:
    out = tmp_path / "out"
    migrate_deploy(AGREEMENT, mode=Mode.MIRROR, output=out)
    before = {(f.path, f.rule) for f in scan(AGREEMENT).findings}
    after = {(f.path, f.rule) for f in scan(out).findings}
    assert ("k8s/deploy.yaml", "C2R-D104") in before and ("chart/templates/deployment.yaml", "C2R-D104") in before
    assert ("docker-compose.yml", "C2R-D103") in before and ("scripts/run.sh", "C2R-D105") in before
    # CI files keep their CUDA jobs (the ROCm ones are added beside them); every other file is clean of these
    kept = {(p, r) for p, r in after if r in CHANGE_RULES | {"C2R-P105"} and deploy_kind(p) != "ci"
            and r not in ("C2R-D101", "C2R-D103")}
    # (left for a person, and reported by both: an image migrate cannot choose for a manifest or Helm values,
    # an NCCL setting RCCL reads but that was tuned on NVIDIA hardware or names the cluster's NICs)
    assert not kept, sorted(kept)
    compose = (out / "docker-compose.yml").read_text(encoding="utf-8")
    assert 'PYTORCH_ROCM_ARCH: "gfx90a;gfx942"' in compose and "HIP_VISIBLE_DEVICES=0,1" in compose
    assert "TORCH_CUDA_ARCH_LIST" not in compose and "NCCL_NVLS_ENABLE" not in compose
    script = (out / "scripts" / "run.sh").read_text(encoding="utf-8")
    assert "-e HIP_VISIBLE_DEVICES=0,1 -e 'PYTORCH_ROCM_ARCH=gfx90a;gfx942'" in script
    probe = (out / "k8s" / "deploy.yaml").read_text(encoding="utf-8")
    assert 'command: ["amd-smi", "list"]' in probe and "nvidia-smi" not in probe
    # a CUDA-selecting option declared in CMakeLists.txt and set in the Dockerfile's cmake line (cross-file)
    assert ("Dockerfile", "C2R-D110") in before and ("Dockerfile", "C2R-D110") not in after
    docker = (out / "Dockerfile").read_text(encoding="utf-8")
    assert ("-DAGREE_USE_CUDA=OFF -DAGREE_USE_HIP=ON '-DCMAKE_HIP_ARCHITECTURES=gfx90a;gfx942'" in docker
            and "-DAGREE_BACKEND=HIP" in docker and "CMAKE_CUDA" not in docker)
    ci = (out / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    # the CUDA job stays; the ROCm job beside it configures the HIP build
    assert "cmake -B build -DAGREE_USE_CUDA=OFF -DAGREE_USE_HIP=ON '-DCMAKE_HIP_ARCHITECTURES=gfx90a;gfx942'" in ci


def test_scan_reads_helm_templates_like_migrate() -> None:
    found = [f for f in scan(AGREEMENT).findings if f.path == "chart/templates/deployment.yaml"]
    assert not [f for f in found if f.rule == "C2R-E105"], "a template with its actions masked is YAML"
    d102 = next(f for f in found if f.rule == "C2R-D102")
    assert d102.line == 14 and "{{ .Values.gpus }}" in d102.message  # the action as written, not its mask


@pytest.mark.parametrize(("labels", "word"), [
    (["self-hosted", "linux", "a100"], "a100"), (["gpu-runner"], "gpu"), ("h100", "h100"), (["cuda12"], "cuda12"),
    (["self-hosted", "nvidia-l4"], "nvidia"), (["ubuntu-latest"], None), (["self-hosted", "rocm", "gpu"], None),
    (["mi300x", "gpu"], None), (["${{ matrix.runner }}"], None), (["t4"], "t4"), (["artifact"], None),
])
def test_one_runner_recogniser(labels: object, word: str | None) -> None:
    assert nvidia_runner(labels if isinstance(labels, list) else [labels]) == word
