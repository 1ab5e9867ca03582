"""`cuda2rocm env` for real on this machine (no GPU here), plus diff/labels/-o behaviour."""

from __future__ import annotations

import json
import os

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.envinfo.diff import diff, flatten
from cuda2rocm.envinfo.fingerprint import SCHEMA, collect
from cuda2rocm.envinfo.labels import labels


@pytest.fixture(scope="module")
def here():
    return collect(timeout=10)


def test_fingerprint_of_this_machine(here):
    assert here["schema"] == SCHEMA and here["python"] and here["kernel"]
    assert here["os"]["name"]
    torch = here["frameworks"]["torch"]
    assert torch["version"].startswith("2.")
    assert here["gpu_count"] == len(here["gpus"])
    if not here["gpus"]:
        assert here["platform"] == "none"
        assert any("nvidia-smi" in n for n in here["notes"])
    json.dumps(here)  # JSON-able


def test_env_json_and_output_file(tmp_path, capsys):
    out = tmp_path / "fp.json"
    assert main(["env", "--format", "json", "--no-torch", "-o", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads(out.read_text())["schema"] == printed["schema"] == SCHEMA
    assert main(["env", "--no-torch", "-o", str(out)]) == 2  # no clobber without --force
    assert main(["env", "--no-torch", "-o", str(out), "--force", "--format", "json"]) == 0


def test_env_table_and_labels(capsys):
    assert main(["env", "--no-torch"]) == 0
    assert "environment fingerprint" in capsys.readouterr().out
    assert main(["env", "--labels", "--no-torch"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith("LABEL io.cuda2rocm.env.") for line in lines)


def test_diff_exit_codes(tmp_path, here, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(here))
    b.write_text(json.dumps(here | {"collected_at": "later", "notes": ["other"]}))
    assert main(["env", "diff", str(a), str(b)]) == 0
    changed = json.loads(json.dumps(here))
    changed["frameworks"]["torch"]["version"] = "2.6.0+rocm6.4"
    changed["rocm"] = "6.4.1"
    b.write_text(json.dumps(changed))
    capsys.readouterr()
    assert main(["env", "diff", str(a), str(b), "--format", "json"]) == 1
    keys = {c["key"] for c in json.loads(capsys.readouterr().out)}
    assert keys == {"frameworks.torch.version", "rocm"}


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "malformed JSON"), ('{"schema": "other"}', "not a cuda2rocm fingerprint"),
     ("[]", "not a cuda2rocm")],
)
def test_diff_malformed_is_exit_2(tmp_path, here, capsys, content, message):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(here))
    bad.write_text(content)
    assert main(["env", "diff", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and message in err
    assert main(["env", "diff", str(good), str(tmp_path / "missing.json")]) == 2


def test_diff_of_gpu_lists_is_per_field():
    a = {"gpus": [{"name": "NVIDIA H200", "arch": "sm_90"}]}
    b = {"gpus": [{"name": "AMD Instinct MI300X", "arch": "gfx942"}, {"name": "AMD Instinct MI300X"}]}
    changes = {c.key: c.kind for c in diff(a, b)}
    assert changes == {"gpus.0.name": "changed", "gpus.0.arch": "changed", "gpus.1.name": "added"}
    assert flatten({"a": {"b": [1, 2]}}) == {"a.b": [1, 2]}


def test_nvidia_probe_end_to_end_with_recorded_tool_output(tmp_path, monkeypatch, fixtures):
    """nvidia-smi cannot run here; a stand-in replays output recorded on the H200 through the real probe path."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    query = "0, NVIDIA H200, GPU-5d1c, 143771, 580.95.05, 9.0, 00000000:18:00.0\n"
    topo = (fixtures / "nvidia-smi-topo-2xh200.txt").read_text()
    script = f'case "$1" in --query-gpu*) printf "%s" "{query}";; topo) cat <<\'EOT\'\n{topo}EOT\n;; ' \
             '*) echo "| Driver Version: 580.95.05   CUDA Version: 13.0 |";; esac\n'
    (bindir / "nvidia-smi").write_text("#!/bin/sh\n" + script)
    (bindir / "nvidia-smi").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    fp = collect(timeout=5, with_torch=False)
    assert fp["platform"] == "cuda" and fp["gpus"][0]["name"] == "NVIDIA H200"
    assert (fp["driver"], fp["cuda"]) == ("580.95.05", "13.0")
    assert fp["topology"]["links"]["GPU0-GPU1"] == "NV18"
    assert labels(fp)["io.cuda2rocm.env.gpu.name"] == "NVIDIA H200"
