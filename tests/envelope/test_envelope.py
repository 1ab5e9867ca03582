"""The result envelope: round trips per kind, golden files, the schema, stale and foreign records, recording."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.envelope.samples import SAMPLES

from cuda2rocm import __version__, envelope
from cuda2rocm.cli.main import main
from cuda2rocm.envelope import EnvelopeError, PayloadError, codec, kinds
from cuda2rocm.envelope.schema import build_schema, dumps, shipped_schema
from cuda2rocm.model import Confidence, Finding, Layer, Severity
from cuda2rocm.report._schema import shipped_schema as scan_schema
from cuda2rocm.scan.result import ScanResult

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"


def same(a: Any, b: Any) -> bool:
    """Equality where NaN equals NaN (results carry NaN for 'not computable')."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b and type(a) is type(b))


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


ENVELOPE_SCHEMA = _validator(shipped_schema())


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_kind_round_trips_and_validates(kind: str) -> None:
    value = SAMPLES[kind]()
    text = envelope.dump(kind, value, command_line=["cuda2rocm", kind], exit_status=0,
                         project=envelope.project_of(ROOT), machine="fp-0123456789abcdef")
    ENVELOPE_SCHEMA.validate(json.loads(text))
    loaded = envelope.load(text)
    assert same(loaded.result, value) and not loaded.stale and not loaded.problems
    assert loaded.kind == kind and loaded.exit_status == 0 and loaded.tool.version == __version__
    assert envelope.dumps(loaded) == text  # what loads dumps back to the same bytes


def test_every_registered_kind_has_a_sample() -> None:
    assert set(SAMPLES) == set(kinds.KINDS)


def test_scan_payload_is_the_scan_json_and_validates_against_its_schema() -> None:
    from cuda2rocm.report import render

    result = SAMPLES["scan"]()
    payload = json.loads(envelope.dump("scan", result))["payload"]
    assert payload == json.loads(render(result, "json"))  # the envelope adds provenance, never changes the payload
    _validator(scan_schema()).validate(payload)


def _normalised(text: str) -> str:
    data = json.loads(text)
    data["started_at"] = data["finished_at"] = "<time>"
    data["tool"]["version"] = "<version>"
    data["project"] = {"path": "<project>", "git_commit": "<commit>"}  # a tarball has none
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_golden_envelope_per_kind(kind: str) -> None:
    text = _normalised(envelope.dump(kind, SAMPLES[kind](), command_line=["cuda2rocm", kind, "ARGS"],
                                     exit_status=1, project=envelope.project_of(ROOT), machine="fp-0123456789abcdef"))
    golden = GOLDEN / f"{kind}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_committed_schemas_are_current_and_identical() -> None:
    built = dumps(build_schema())
    assert (ROOT / "src/cuda2rocm/report/schema/envelope.schema.json").read_text() == built
    assert (ROOT / "docs/schema/envelope.schema.json").read_text() == built


def test_schema_rejects_what_is_not_an_envelope() -> None:
    good = json.loads(envelope.dump("bench-run", SAMPLES["bench-run"]()))
    for broken in ({**good, "schema_version": "2.0"}, {**good, "kind": "nope"}, {**good, "payload_schema_version": "7"},
                   {k: v for k, v in good.items() if k != "exit_status"}, {**good, "machine": "box"}):
        with pytest.raises(jsonschema.ValidationError):
            ENVELOPE_SCHEMA.validate(broken)


def _older(kind: str, change: Any) -> str:
    data = json.loads(envelope.dump(kind, SAMPLES[kind]()))
    data["payload_schema_version"] = "0.1"
    data["tool"]["version"] = "0.0.1"
    change(data["payload"])
    return json.dumps(data)


def test_a_payload_of_another_schema_version_loads_leniently_and_is_stale() -> None:
    def drift(p: dict[str, Any]) -> None:
        p["added_by_a_newer_version"] = {"x": 1}
        del p["stats"], p["baselines"]  # fields with defaults, missing in an older version

    loaded = envelope.load(_older("scan", drift))
    assert loaded.stale and loaded.from_other_version and "payload schema 0.1" in loaded.problems[0]
    assert isinstance(loaded.result, ScanResult) and loaded.result.stats == {} and loaded.result.findings


def test_a_payload_that_no_longer_fits_is_stale_without_a_result_never_a_crash() -> None:
    def break_it(p: dict[str, Any]) -> None:
        del p["root"]  # required, no default
        p["findings"][0]["severity"] = "catastrophic"

    loaded = envelope.load(_older("scan", break_it))
    assert loaded.stale and loaded.result is None and "root" in loaded.problems[0]
    with pytest.raises(PayloadError, match="root"):
        loaded.require()


def test_a_corrupt_payload_of_this_version_is_a_typed_error_naming_the_place() -> None:
    data = json.loads(envelope.dump("convert", SAMPLES["convert"]()))
    data["payload"]["files"][1]["stats"]["lines"] = "ten"
    with pytest.raises(PayloadError, match=r"\$\.files\[1\]\.stats\.lines: expected an integer"):
        envelope.load(json.dumps(data))


def test_an_unknown_kind_loads_as_stale() -> None:
    data = json.loads(envelope.dump("bench-run", []))
    data["kind"] = "migrate-everything"
    data["tool"]["version"] = "9.0.0"
    loaded = envelope.load(json.dumps(data))
    assert loaded.stale and loaded.result is None and "migrate-everything" in loaded.problems[0] and "9.0.0" in (
        loaded.problems[0])


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "not a cuda2rocm result envelope"),
    ('{"kind": "scan"}', "not a cuda2rocm result envelope"),
    ('{"kind": "scan", "payload": null, "schema_version": "2.0", "tool": {"version": "3.0"}}', "envelope schema 2.0"),
    ('{"kind": "scan", "payload": null, "schema_version": "1.4", "tool": 5}', "malformed envelope"),
])
def test_what_is_not_an_envelope_raises_envelope_error(text: str, message: str) -> None:
    with pytest.raises(EnvelopeError, match=message):
        envelope.load(text)


def test_a_newer_minor_envelope_with_extra_keys_loads() -> None:
    data = json.loads(envelope.dump("env", SAMPLES["env"]()))
    data.update(schema_version="1.7", signature={"capture": "sha256:..."})
    assert envelope.load(json.dumps(data)).result == SAMPLES["env"]()


def test_load_reads_files_and_names_them_in_errors(tmp_path: Path) -> None:
    path = envelope.record("smoke", SAMPLES["smoke"](), tmp_path / "smoke.json")
    assert envelope.load(path).result == SAMPLES["smoke"]() == envelope.load(str(path)).result
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(EnvelopeError, match=r"bad\.json"):
        envelope.load(tmp_path / "bad.json")
    with pytest.raises(EnvelopeError, match="cannot read"):
        envelope.load(tmp_path / "missing.json")


def test_make_refuses_a_payload_of_the_wrong_type_or_kind() -> None:
    with pytest.raises(TypeError, match="ScanResult"):
        envelope.dump("scan", SAMPLES["smoke"]())
    with pytest.raises(ValueError, match="known kinds: bench-compare"):
        envelope.dump("scna", SAMPLES["scan"]())


def test_record_into_a_folder_makes_distinct_names(tmp_path: Path) -> None:
    first = envelope.record("bench-run", SAMPLES["bench-run"](), tmp_path)
    second = envelope.record("bench-run", [], tmp_path)
    assert first.parent == second.parent == tmp_path and first != second and first.name.endswith("-bench-run-"
                                                                                                 f"{first.stem[-8:]}.json")


def test_machine_id_ignores_volatile_facts() -> None:
    fp = SAMPLES["env"]()
    later = {**fp, "collected_at": "2026-12-24T00:00:00+00:00", "notes": ["slow probe"], "tool_version": "0.2"}
    assert envelope.machine_id(fp) == envelope.machine_id(later) != envelope.machine_id({**fp, "driver": "560.1"})


findings = st.builds(Finding, st.sampled_from(["C2R-K101", "C2R-S103"]), st.sampled_from(list(Severity)),
                     st.sampled_from(list(Confidence)), st.sampled_from(list(Layer)), st.text(), st.integers(0, 10**6),
                     st.integers(0, 500), st.text(), st.text())


@given(st.lists(findings, max_size=5), st.dictionaries(st.text(), st.floats(allow_nan=True)), st.text())
def test_codec_round_trips_any_scan_result_shape(fs: list[Finding], stats: dict[str, float], root: str) -> None:
    value = ScanResult(root, "gfx942", findings=tuple(fs), stats=stats)
    data = codec.encode(value)
    json.dumps(data, allow_nan=False)  # strict JSON: NaN and infinities are encoded as strings
    assert same(codec.decode(ScanResult, json.loads(json.dumps(data))), value)


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def test_project_commit_is_read_from_git_itself(tmp_path: Path) -> None:
    assert envelope.project_of(tmp_path).git_commit is None
    _git(tmp_path, "init", "-q")
    assert envelope.project_of(tmp_path).git_commit is None  # unborn branch
    (tmp_path / "a.cu").write_text("int x;\n")
    _git(tmp_path, "add", "a.cu")
    _git(tmp_path, "commit", "-qm", "one")
    head = _git(tmp_path, "rev-parse", "HEAD")
    assert envelope.project_of(tmp_path / "a.cu").git_commit == head
    _git(tmp_path, "pack-refs", "--all")
    assert envelope.project_of(tmp_path).git_commit == head
    _git(tmp_path, "worktree", "add", "-q", str(tmp_path / "wt"))
    assert envelope.project_of(tmp_path / "wt").git_commit == head
    _git(tmp_path, "checkout", "-q", "--detach")
    assert envelope.project_of(tmp_path).git_commit == head


def test_cli_records_the_run_with_its_exit_status(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "k.cu").write_text("__global__ void k(int *p) { int lane = threadIdx.x & 31; p[lane] = 0; }\n")
    out = tmp_path / "scan.json"
    code = main(["--record", str(out), "scan", str(project), "--format", "json", "--fail-on", "low"])
    loaded = envelope.load(out)
    ENVELOPE_SCHEMA.validate(json.loads(out.read_text()))
    assert code == loaded.exit_status == 1 and loaded.kind == "scan" and isinstance(loaded.result, ScanResult)
    assert loaded.command_line[:3] == ("cuda2rocm", "--record", str(out)) and loaded.started_at <= loaded.finished_at
    assert loaded.project.path == project.resolve().as_posix() and loaded.result.findings
    assert main(["--record", str(out), "scan", str(project)]) == 2  # never clobbers a record


def test_cli_records_convert_and_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text("#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }\n")
    records = tmp_path / "records"
    records.mkdir()
    assert main(["--record", str(records), "convert", str(src), "-o", str(tmp_path / "k.hip")]) == 0
    assert main(["--record", str(records), "convert", str(tmp_path / "missing.cu")]) == 2
    loaded = sorted((envelope.load(p) for p in records.iterdir()), key=lambda e: e.exit_status or 0)
    assert [e.exit_status for e in loaded] == [0, 2] and [e.kind for e in loaded] == ["convert", "convert"]
    summary = loaded[0].result
    assert summary.changed[0].output_sha256 and summary.totals.converted_total >= 1 and loaded[1].payload is None


def test_cli_records_env_bench_and_comm_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.envelope.samples import COMM_RESULTS

    assert main(["--record", str(tmp_path / "env.json"), "env", "--no-torch", "--timeout", "2",
                 "--format", "json"]) == 0
    fp = envelope.load(tmp_path / "env.json")
    assert fp.kind == "env" and fp.machine == envelope.machine_id(fp.result) and fp.result["schema"]
    assert json.loads(capsys.readouterr().out) == fp.result  # --format json is the fingerprint, as before

    base, cand = tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    base.write_text(json.dumps({"metric": "tokens_per_s", "values": [1000.0, 1001.0, 999.0, 1000.5]}) + "\n")
    cand.write_text(json.dumps({"metric": "tokens_per_s", "values": [700.0, 701.0, 699.0, 700.5]}) + "\n")
    assert main(["--record", str(tmp_path / "bench.json"), "bench", "compare", str(base), str(cand)]) == 1
    bench = envelope.load(tmp_path / "bench.json")
    assert bench.kind == "bench-compare" and bench.exit_status == 1 and bench.result.results[0].verdict == "regression"

    first, second = COMM_RESULTS / "first-run/allreduce.jsonl", COMM_RESULTS / "allreduce.jsonl"
    assert main(["--record", str(tmp_path / "comm.json"), "comm", "--compare", str(first), str(second)]) == 1
    comm = envelope.load(tmp_path / "comm.json")
    assert comm.kind == "bench-compare" and len(comm.result.results) == 42


def test_record_of_a_command_without_a_result_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--record", str(tmp_path / "r.json"), "rules", "--format", "json"]) == 0
    assert not (tmp_path / "r.json").exists()
    assert "`cuda2rocm rules` has no result envelope" in capsys.readouterr().err


def test_a_failed_bench_compare_is_recorded_under_its_kind(tmp_path: Path) -> None:
    empty = tmp_path / "e.jsonl"
    empty.write_text("garbage\n")
    assert main(["--record", str(tmp_path / "r.json"), "bench", "compare", str(empty), str(empty)]) == 2
    loaded = envelope.load(tmp_path / "r.json")
    assert (loaded.kind, loaded.exit_status, loaded.payload, loaded.result) == ("bench-compare", 2, None, None)


def test_a_real_scan_of_the_bundled_example_round_trips() -> None:
    from cuda2rocm.scan.api import scan

    result = scan(ROOT / "examples/llm-service", jobs=1)
    assert result.findings and result.inventory and result.api_usage
    loaded = envelope.load(envelope.dump("scan", result))
    assert same(loaded.result, result) and not loaded.stale


@pytest.mark.hipcc
def test_verify_with_the_real_hipcc_is_recorded(tmp_path: Path) -> None:
    from cuda2rocm.toolchain.discover import find_hipcc

    if find_hipcc() is None:
        pytest.skip("hipcc not installed")
    (tmp_path / "ok.cu").write_text("__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n")
    (tmp_path / "broken.cu").write_text("// one\n__global__ void k() { undefined_thing(); }\n")
    out = tmp_path / "verify.json"
    assert main(["--record", str(out), "verify", str(tmp_path / "ok.cu"), str(tmp_path / "broken.cu")]) == 1
    loaded = envelope.load(out)
    summary = loaded.require()
    assert loaded.kind == "verify" and loaded.exit_status == 1 and summary.arch == "gfx90a" and not summary.passed
    by_path = {u.path: u for u in summary.units}
    assert by_path["ok.cu"].ok and not by_path["broken.cu"].ok
    assert any(d.line == 2 and "undefined_thing" in d.message for d in by_path["broken.cu"].diagnostics)
    assert same(envelope.load(envelope.dumps(loaded)).result, summary)


def test_schema_checks_each_kinds_payload() -> None:
    data = json.loads(envelope.dump("scan", SAMPLES["scan"]()))
    data["payload"]["findings"][0]["severity"] = "catastrophic"
    with pytest.raises(jsonschema.ValidationError, match="catastrophic"):
        ENVELOPE_SCHEMA.validate(data)
    comm = json.loads(envelope.dump("comm", SAMPLES["comm"]()))
    comm["payload"]["records"] = {"not": "a list"}
    with pytest.raises(jsonschema.ValidationError):
        ENVELOPE_SCHEMA.validate(comm)
    ENVELOPE_SCHEMA.validate({**comm, "payload": None})  # a run that produced nothing
