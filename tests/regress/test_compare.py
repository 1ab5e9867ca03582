from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from cuda2rocm.cli.main import main
from cuda2rocm.regress.compare import compare
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.findings import compare_findings
from cuda2rocm.results.regress import DTYPE, FAIL, MISSING_BASE, MISSING_CAND, PASS, SHAPE


def test_identical_pass_and_order_kept(two_files):
    t = {"z": torch.randn(10), "a": torch.randn(3, 4), "m": torch.arange(5)}
    b, c = two_files(t, t)
    result = compare(b, c)
    assert result.passed and {r.status for r in result.reports} == {PASS}
    assert [r.name for r in result.reports] == ["z", "a", "m"] or len(result.reports) == 3


def test_shape_dtype_mismatch_and_missing(two_files):
    base = {"a": torch.randn(4), "b": torch.randn(2, 3), "c": torch.randn(3), "only_base": torch.randn(2)}
    cand = {"a": torch.randn(5), "b": torch.randn(2, 3).half(), "c": base["c"], "only_cand": torch.randn(2)}
    b, c = two_files(base, cand)
    status = {r.name: r.status for r in compare(b, c).reports}
    assert status == {"a": SHAPE, "b": DTYPE, "c": PASS, "only_base": MISSING_CAND, "only_cand": MISSING_BASE}
    rules = {f.rule for f in compare_findings(compare(b, c))}
    assert rules == {"C2R-R103", "C2R-R104"}


def test_nan_appearing_is_reported_with_nonfinite_rule(two_files):
    x = torch.randn(100)
    y = x.clone()
    y[7] = float("nan")
    b, c = two_files({"x": x}, {"x": y})
    result = compare(b, c)
    assert result.reports[0].status == FAIL
    assert compare_findings(result)[0].rule == "C2R-R102"


@pytest.mark.parametrize("damage", ["truncate-header", "truncate-data", "garbage", "empty", "bad-json"])
def test_corrupt_safetensors_clear_error(two_files, damage, capsys):
    b, c = two_files({"x": torch.randn(1000)}, {"x": torch.randn(1000)})
    data = c.read_bytes()
    c.write_bytes({"truncate-header": data[:20], "truncate-data": data[:-100], "garbage": b"\x00" * 64 + data,
                   "empty": b"", "bad-json": data[:8] + b"{" * (len(data) - 8)}[damage])
    with pytest.raises(RegressInputError) as err:
        compare(b, c)
    assert str(c) in str(err.value)
    assert main(["compare", str(b), str(c)]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out and str(c) in out.err


def _capture_dir(tmp_path, name, tensors, manifest_edit=None):
    from cuda2rocm.regress.store import write_capture
    from cuda2rocm.results.regress import Entry, Manifest

    entries = tuple(Entry(k, {torch.float32: "F32", torch.int64: "I64"}[v.dtype], tuple(v.shape))
                    for k, v in tensors.items())
    write_capture(tmp_path / name, Manifest(entries=entries, seed=0, inputs_sha256="abc"), tensors)
    if manifest_edit:
        path = tmp_path / name / "manifest.json"
        raw = json.loads(path.read_text())
        manifest_edit(raw)
        path.write_text(json.dumps(raw))
    return tmp_path / name


@pytest.mark.parametrize(("edit", "message"), [
    (lambda m: m["entries"].append({"name": "ghost", "dtype": "F32", "shape": [1]}), "lacks it"),
    (lambda m: m["entries"][0].update(shape=[99]), "manifest says"),
    (lambda m: m["entries"].pop(), "the manifest lacks"),
    (lambda m: m.update(format="other"), "not a cuda2rocm-capture manifest"),
    (lambda m: m.update(version=99), "not supported"),
    (lambda m: m["entries"][0].pop("dtype"), "malformed manifest entry"),
])
def test_mismatched_manifest_clear_error(tmp_path, edit, message, capsys):
    t = {"first": torch.randn(3), "second": torch.arange(4)}
    good = _capture_dir(tmp_path, "good", t)
    bad = _capture_dir(tmp_path, "bad", t, edit)
    with pytest.raises(RegressInputError, match=message):
        compare(good, bad)
    assert main(["compare", str(good), str(bad)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_manifest_not_json(tmp_path):
    d = _capture_dir(tmp_path, "x", {"a": torch.randn(2)})
    (d / "manifest.json").write_text("{\n  nope")
    with pytest.raises(RegressInputError, match=r"manifest.json:2: malformed manifest JSON"):
        compare(d, d)


def test_warnings_for_different_inputs(tmp_path):
    a = _capture_dir(tmp_path, "a", {"x": torch.ones(2)})
    b = _capture_dir(tmp_path, "b", {"x": torch.ones(2)}, lambda m: m.update(inputs_sha256="def", seed=1))
    result = compare(a, b)
    assert any("inputs differ" in w for w in result.warnings) and any("seeds" in w for w in result.warnings)
    assert "C2R-R105" in {f.rule for f in compare_findings(result)}


def test_npz_pt_and_safetensors_interoperate(tmp_path, two_files):
    x, n = torch.randn(6, 7), torch.arange(9)
    b, _ = two_files({"x": x, "n": n}, {"x": x})
    np.savez(tmp_path / "c.npz", x=x.numpy(), n=n.numpy())
    torch.save({"x": x, "n": n}, tmp_path / "c.pt")
    for other in ("c.npz", "c.pt"):
        result = compare(b, tmp_path / other)
        assert result.passed, (other, result.reports)


def test_npz_with_objects_is_refused(tmp_path):
    np.savez(tmp_path / "evil.npz", x=np.array([{"a": 1}], dtype=object))
    np.savez(tmp_path / "ok.npz", x=np.zeros(1))
    with pytest.raises(RegressInputError, match=r"evil\.npz"):
        result = compare(tmp_path / "ok.npz", tmp_path / "evil.npz")
        assert not result.passed


def test_pt_with_arbitrary_objects_is_refused(tmp_path):
    import datetime

    torch.save({"x": torch.ones(2), "obj": datetime.datetime(2026, 1, 1)}, tmp_path / "evil.pt")
    with pytest.raises(RegressInputError, match="weights_only"):
        compare(tmp_path / "evil.pt", tmp_path / "evil.pt")


def test_bf16_pt_vs_safetensors(tmp_path, two_files):
    x = torch.randn(50).bfloat16()
    b, _ = two_files({"x": x}, {"x": x})
    torch.save({"x": x * 1.5}, tmp_path / "c.pt")
    result = compare(b, tmp_path / "c.pt")
    assert result.reports[0].status == FAIL and result.reports[0].policy == "bf16"


def test_raw_dump_with_sidecar(tmp_path):
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
    (tmp_path / "out.bin").write_bytes(x.tobytes())
    (tmp_path / "out.bin.json").write_text(json.dumps({"dtype": "float32", "shape": [2, 3, 4]}))
    np.savez(tmp_path / "ref.npz", out=x)
    assert compare(tmp_path / "ref.npz", tmp_path / "out.bin").passed
    multi = np.concatenate([x.reshape(-1), x.reshape(-1) * 2])
    (tmp_path / "two.dat").write_bytes(multi.astype(">f4").tobytes())
    (tmp_path / "two.dat.json").write_text(json.dumps({"tensors": [
        {"name": "out", "dtype": "F32", "shape": [2, 3, 4], "big_endian": True},
        {"name": "twice", "dtype": "F32", "shape": [24], "big_endian": True}]}))
    result = compare(tmp_path / "ref.npz", tmp_path / "two.dat")
    assert [r.status for r in result.reports] == [PASS, MISSING_BASE]


def test_raw_dump_int4_packed(tmp_path):
    values = np.array([-8, 7, 0, -1, 3], dtype=np.int8)
    nibbles = (values & 0x0F).astype(np.uint8)
    packed = np.zeros(3, np.uint8)
    packed[:] = np.concatenate([nibbles, [0]])[0::2] | (np.concatenate([nibbles, [0]])[1::2] << 4)
    (tmp_path / "q.bin").write_bytes(packed.tobytes())
    (tmp_path / "q.bin.json").write_text(json.dumps({"dtype": "int4", "shape": [5]}))
    from cuda2rocm.regress.sources import open_source

    src = open_source(tmp_path / "q.bin")
    np.testing.assert_array_equal(src.load("q"), values)
    assert src.entries[0].dtype == "I4"


def test_raw_dump_too_short_and_bad_sidecar(tmp_path):
    (tmp_path / "s.bin").write_bytes(b"\x00" * 10)
    (tmp_path / "s.bin.json").write_text(json.dumps({"dtype": "float32", "shape": [4]}))
    with pytest.raises(RegressInputError, match="file has 10"):
        compare(tmp_path / "s.bin", tmp_path / "s.bin")
    (tmp_path / "s.bin.json").write_text('{"dtype": "float32",\n "shape": }')
    with pytest.raises(RegressInputError, match=r"s.bin.json:2"):
        compare(tmp_path / "s.bin", tmp_path / "s.bin")


def test_unsupported_and_missing_paths(tmp_path, capsys):
    (tmp_path / "x.txt").write_text("hi")
    assert main(["compare", str(tmp_path / "x.txt"), str(tmp_path / "x.txt")]) == 2
    assert main(["compare", str(tmp_path / "nope"), str(tmp_path / "x.txt")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_policy_config_overrides_per_layer(tmp_path, two_files):
    x = torch.randn(1000)
    b, c = two_files({"layer1.out": x, "layer2.out": x, "skipme": x}, {"layer1.out": x * 1.01,
                     "layer2.out": x * 1.01, "skipme": x * 5})
    cfg = tmp_path / "tol.yaml"
    cfg.write_text("layers:\n  - match: 'layer1.*'\n    policy: bf16\n  - match: skip*\n    skip: true\n")
    assert main(["compare", str(b), str(c), "--config", str(cfg)]) == 1
    from cuda2rocm.regress.policy import load_policy

    result = compare(b, c, load_policy(cfg))
    assert {r.name: r.status for r in result.reports} == {"layer1.out": PASS, "layer2.out": FAIL,
                                                         "skipme": "skipped"}
    assert result.first_divergence.name == "layer2.out"


@pytest.mark.parametrize(("text", "message"), [
    ("layers: [\n  - match: x\n", ":2: malformed YAML"),
    ("bogus: 1\n", "unknown config keys: bogus"),
    ("layers:\n  - policy: fp32\n", "needs a 'match'"),
    ("layers:\n  - match: a\n    policy: nope\n", "unknown policy class"),
    ("classes:\n  fp32: {atol: lots}\n", "atol must be a number"),
    ("float32: tf64\n", "unknown policy class 'tf64'"),
])
def test_bad_config_clear_error(tmp_path, two_files, text, message, capsys):
    b, c = two_files({"x": torch.ones(2)}, {"x": torch.ones(2)})
    cfg = tmp_path / "tol.yaml"
    cfg.write_text(text)
    assert main(["compare", str(b), str(c), "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_tf32_policy_from_cli(two_files):
    x = torch.randn(10000)
    b, c = two_files({"x": x}, {"x": x * (1 + 1e-3)})
    assert main(["compare", str(b), str(c)]) == 1
    assert main(["compare", str(b), str(c), "--float32", "tf32"]) == 0


def test_json_and_html_outputs(tmp_path, two_files):
    x = torch.randn(100)
    y = x.clone()
    y[3] = float("inf")
    b, c = two_files({"a": x, "b<script>": x}, {"a": y, "b<script>": x})
    html_path, json_path = tmp_path / "r.html", tmp_path / "r.json"
    assert main(["compare", str(b), str(c), "--html", str(html_path), "--json", str(json_path)]) == 1
    page = html_path.read_text()
    assert "<svg" in page and "b&lt;script&gt;" in page and "<script>" not in page and "FAIL" in page
    data = json.loads(json_path.read_text())
    assert data["passed"] is False and data["tensors"]["first_divergence"] == "a"
