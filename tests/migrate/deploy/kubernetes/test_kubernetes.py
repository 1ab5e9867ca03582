"""migrate deploy for Kubernetes, Helm, monitoring, rollout and validation: golden before/after on a small
project (regenerate with UPDATE_GOLDEN=1 and review the diff), invariants (malformed YAML left byte-identical
with its line while the rest migrates, a second run changes nothing, comments survive, Helm actions untouched)
and every generated manifest validated against the Kubernetes schema (kubernetes-validate, bundled schemas) or,
for the PyTorchJob CRD, a structural schema written from the Kubeflow docs plus its pod templates as v1
PodTemplates."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuda2rocm.migrate.deploy.kubernetes import migrate
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.run import migrate_deploy
from cuda2rocm.migrate.engine import MigrationRun
from cuda2rocm.rewrite.runner import Mode
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.helm import mask_templates, template_actions
from cuda2rocm.source.formats.yamlnodes import read_yaml

kv = pytest.importorskip("kubernetes_validate")

HERE = Path(__file__).parent
PROJECT = HERE / "project"
EXPECTED = HERE / "expected"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
K8S = "1.30"
CASES = {"plain": DeployOptions(), "canary": DeployOptions(canary=2, validation_job=True, nodes=3, gpus_per_node=4)}


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*"))
            if p.is_file()}


def _migrated(tmp: Path, options: DeployOptions) -> tuple[Path, MigrationRun]:
    root = tmp / "project"
    shutil.copytree(PROJECT, root)
    return root, migrate_deploy(root, mode=Mode.IN_PLACE, options=options, backup=False)


def _findings(run: MigrationRun) -> str:
    return "".join(f"{f.path}:{f.line}:{f.col} {f.rule} {f.severity.name.lower()}: {f.message}\n"
                   for f in sorted(run.findings, key=lambda f: (f.path, f.line, f.col, f.rule)))


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str, tmp_path: Path) -> None:
    root, run = _migrated(tmp_path, CASES[case])
    got = _files(root)
    got["findings.txt"] = _findings(run)
    expected = EXPECTED / case
    if UPDATE:
        shutil.rmtree(expected, ignore_errors=True)
        for rel, text in got.items():
            (expected / rel).parent.mkdir(parents=True, exist_ok=True)
            (expected / rel).write_text(text, encoding="utf-8")
    assert got == _files(expected)


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_yaml_is_left_and_the_rest_migrates(case: str, tmp_path: Path) -> None:
    root, run = _migrated(tmp_path, CASES[case])
    assert (root / "k8s/broken.yaml").read_bytes() == (PROJECT / "k8s/broken.yaml").read_bytes()
    [failed] = run.failed
    assert failed.detail.path == "k8s/broken.yaml"
    [problem] = failed.detail.problems
    assert problem.line == 7 and "line 7" in problem.message
    assert run.exit_code() == 2
    assert "amd.com/gpu" in (root / "chart/values.yaml").read_text()


@pytest.mark.parametrize("case", sorted(CASES))
def test_second_run_changes_nothing(case: str, tmp_path: Path) -> None:
    root, _ = _migrated(tmp_path, CASES[case])
    again = migrate_deploy(root, mode=Mode.IN_PLACE, options=CASES[case], backup=False)
    assert not again.changed and not again.added


def _comments(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        at = line.find("#")
        if at == 0 or (at > 0 and line[at - 1] in " \t"):
            out.append(line[at:])
    return out


def test_comments_survive(tmp_path: Path) -> None:
    root, _ = _migrated(tmp_path, CASES["plain"])
    for rel, text in _files(PROJECT).items():
        if rel.endswith((".yaml", ".yml")):
            new = (root / rel).read_text()
            assert all(c in new for c in _comments(text)), rel
    canary = (root / "k8s/multi.rocm-canary.yaml")
    assert not canary.exists()


def test_helm_template_actions_untouched_and_reported(tmp_path: Path) -> None:
    root, run = _migrated(tmp_path, CASES["canary"])
    rel = "chart/templates/deployment.yaml"
    old, new = (PROJECT / rel).read_text(), (root / rel).read_text()
    assert [old[a:b] for a, b in template_actions(old)] == [new[a:b] for a, b in template_actions(new)]
    assert "runtimeClassName" not in new and "requests:\n              amd.com/gpu: 1" in new
    # the key beside an action is literal text: rewritten, the action kept as written; nothing left to report
    assert "amd.com/gpu: {{ .Values.gpus }}" in new and "nvidia.com" not in new
    assert not [f for f in run.findings if f.path == rel and f.rule == "C2R-M306"]


def test_mask_keeps_every_offset() -> None:
    text = (PROJECT / "chart/templates/deployment.yaml").read_text()
    masked = mask_templates(text, template_actions(text))
    assert len(masked) == len(text)
    assert [i for i, c in enumerate(masked) if c == "\n"] == [i for i, c in enumerate(text) if c == "\n"]
    assert "{{" not in masked and not read_yaml(masked).problems


def _documents(text: str) -> list[dict]:
    stream = read_yaml(text)
    assert not stream.problems
    return [d.to_python() for d in stream.documents]


def test_generated_manifests_validate(tmp_path: Path) -> None:
    _, run = _migrated(tmp_path, CASES["canary"])
    added = {g.path: g.text for g in run.added if g.path.endswith(".yaml")}
    assert set(added) == {"k8s/multi.rocm-canary.yaml", "k8s/rocm-validation-job.yaml",
                          "k8s/rocm-validation-pytorchjob.yaml"}
    assert {g.path for g in run.added} - set(added) == {"cuda2rocm-validation/validate.slurm"}  # the Slurm twin
    schema = json.loads((HERE / "pytorchjob.schema.json").read_text())
    kinds = []
    for text in added.values():
        for doc in _documents(text):
            kinds.append(doc["kind"])
            if doc["kind"] == "PyTorchJob":
                jsonschema.validate(doc, schema)
                for replica in doc["spec"]["pytorchReplicaSpecs"].values():
                    kv.validate({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "t"},
                                 "template": replica["template"]}, K8S, strict=True)
            else:
                kv.validate(doc, K8S, strict=True)
    assert sorted(kinds) == ["Deployment", "Job", "PyTorchJob", "Service"]


def test_canary_shape(tmp_path: Path) -> None:
    root, _ = _migrated(tmp_path, CASES["canary"])
    assert (root / "k8s/multi.yaml").read_text().split("---")[0] == (PROJECT / "k8s/multi.yaml").read_text().split(
        "---")[0], "the CUDA Deployment is kept as it was"
    [dep] = _documents((root / "k8s/multi.rocm-canary.yaml").read_text())
    [service] = [d for d in _documents((root / "k8s/multi.yaml").read_text()) if d["kind"] == "Service"]
    assert dep["metadata"]["name"] == "infer-rocm-canary" and dep["spec"]["replicas"] == 2
    pod_labels = dep["spec"]["template"]["metadata"]["labels"]
    assert pod_labels["track"] == "canary-rocm" and dep["spec"]["selector"]["matchLabels"] == pod_labels
    assert all(pod_labels.get(k) == v for k, v in service["spec"]["selector"].items())
    pod = dep["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {"feature.node.kubernetes.io/amd-gpu": "true"} and "runtimeClassName" not in pod
    assert pod["containers"][0]["resources"]["limits"] == {"amd.com/gpu": 1}
    assert "nvidia" not in json.dumps(dep)


def test_validation_job_shape(tmp_path: Path) -> None:
    root, _ = _migrated(tmp_path, CASES["canary"])
    service, job = _documents((root / "k8s/rocm-validation-job.yaml").read_text())
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] == 3
    pod = spec["template"]["spec"]
    assert pod["subdomain"] == service["metadata"]["name"] and service["spec"]["clusterIP"] == "None"
    [container] = pod["containers"]
    assert container["resources"]["limits"] == {"amd.com/gpu": 4}
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["NCCL_SOCKET_IFNAME"] == "ib0"  # the project's own setting (k8s/pytorchjob.yaml)
    shell = container["command"][2]
    assert "--nnodes=3 --nproc-per-node=4" in shell and "-m cuda2rocm comm" in shell and "cuda2rocm smoke" in shell


def test_missing_metrics_reported() -> None:
    text = (PROJECT / "monitoring/gpu-rules.yaml").read_text()
    result = migrate("monitoring/gpu-rules.yaml", text, DeployOptions())
    missing = [(f.line, f.message.split()[0]) for f in result.findings if f.rule == "C2R-M705"]
    assert missing == [(14, "DCGM_FI_DEV_XID_ERRORS")]
    assert "DCGM_FI_DEV_XID_ERRORS" in apply_edits(text, result.edits)


def test_mi300_temperature() -> None:
    text = "groups:\n  - name: g\n    rules:\n      - alert: Hot\n        expr: DCGM_FI_DEV_GPU_TEMP > 90\n"
    new = apply_edits(text, migrate("r.yaml", text, DeployOptions(gfx=("gfx942",))).edits)
    assert "gpu_junction_temperature > 90" in new


def test_dashboard_malformed_json_names_the_line() -> None:
    result = migrate("grafana/bad.json", '{\n  "a": [1,\n  ]\n}\n', DeployOptions())
    assert not result.edits and result.problems[0].line == 3


def test_bundled_example(tmp_path: Path) -> None:
    root = tmp_path / "llm-service"
    shutil.copytree(HERE.parents[3] / "examples" / "llm-service", root)
    run = migrate_deploy(root, mode=Mode.IN_PLACE, options=DeployOptions(canary=1, validation_job=True),
                         backup=False)
    rel = "k8s/deployment.yaml"
    assert not [o for o in run.failed if o.detail.path == rel]
    assert (root / rel).read_bytes() == (HERE.parents[3] / "examples/llm-service" / rel).read_bytes()
    [dep] = _documents((root / "k8s/deployment.rocm-canary.yaml").read_text())
    kv.validate(dep, K8S, strict=True)
    assert dep["spec"]["template"]["spec"]["nodeSelector"] == {"feature.node.kubernetes.io/amd-gpu": "true"}
    assert dep["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["amd.com/gpu"] == 2
    for doc in _documents((root / "k8s/rocm-validation-job.yaml").read_text()):
        kv.validate(doc, K8S, strict=True)
    plain = migrate(rel, (root / rel).read_text(), DeployOptions())
    # GPU resources and node labels rewritten; the example's NCCL variables classified for RCCL (env_change)
    assert {f.rule for f in plain.findings} == {"C2R-M301", "C2R-M302", "C2R-M501", "C2R-M504"}
    new = apply_edits((root / rel).read_text(), plain.edits)
    assert "amd.com/gpu: 2" in new and "nvidia" not in new


@given(st.lists(st.sampled_from(["{{", "}}", "{{- .Values.x }}", "\n", "  ", "key: ", "- ", "a", ":", "#"]),
                max_size=40))
def test_mask_property(parts: list[str]) -> None:
    text = "".join(parts)
    actions = template_actions(text)
    masked = mask_templates(text, actions)
    assert len(masked) == len(text)
    inside = {i for a, b in actions for i in range(a, b)}
    assert all(masked[i] == text[i] for i in range(len(text)) if i not in inside or text[i] == "\n")
    assert all(masked[i] in " x\n" for i in inside)


def test_container_env_goes_through_the_one_environment_decision(tmp_path: Path) -> None:
    """A container's env list follows environment.env_change like scripts and Dockerfiles: renamed in place
    (comment kept), NCCL tuning reported for RCCL; the result still validates."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: my/i:1\n"
            "    env:\n    - name: CUDA_VISIBLE_DEVICES  # pin\n      value: \"0\"\n    - name: NCCL_P2P_LEVEL\n"
            "      value: NVL\n")
    (tmp_path / "pod.yaml").write_text(text)
    run = migrate_deploy(tmp_path)
    (outcome,) = run.files
    assert outcome.text is not None and "- name: HIP_VISIBLE_DEVICES  # pin\n      value: \"0\"\n" in outcome.text
    assert {(f.rule, f.line) for f in run.findings} >= {("C2R-M502", 12)}
    for doc in _documents(outcome.text):
        kv.validate(doc, K8S, strict=True)
