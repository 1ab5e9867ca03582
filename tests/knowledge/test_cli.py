"""`cuda2rocm kb` and `cuda2rocm compat` through the real CLI entry point."""

from __future__ import annotations

import json

import pytest

from cuda2rocm.cli.main import main


@pytest.mark.parametrize(
    ("argv", "expect"),
    [(["kb", "show", "gpu", "MI300X"], "gfx942"), (["kb", "show", "rocm", "6.4"], "6.4.3"),
     (["kb", "show", "plugin", "flash-attn"], "native_upstream"), (["kb", "list", "gpus"], "MI355X"),
     (["kb", "show", "library", "cuBLAS"], "hipBLAS"), (["kb", "list", "rocm"], "5.7.1")],
)
def test_kb_show_and_list(capsys, argv, expect):
    assert main(argv) == 0
    assert expect in capsys.readouterr().out


def test_kb_show_json_and_unknown(capsys):
    assert main(["kb", "show", "gpu", "H200", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["compute_capability"] == "9.0" and data["source"] and data["date"]
    assert main(["kb", "show", "gpu", "MI999X"]) == 2  # an input error (issue 18; it was 1)
    assert main(["kb", "show", "widget", "x"]) == 2


def test_kb_update_roundtrip_with_kb_dir(tmp_path, capsys):
    src = tmp_path / "m.csv"
    src.write_text("rocm,gfx_targets,os,pytorch,source,date\n7.3.0,gfx942,Ubuntu 24.04.4,2.10,user csv,2026-11-30\n")
    kb = tmp_path / "kbdir"
    assert main(["kb", "--kb-dir", str(kb), "update", "--from", str(src)]) == 0
    assert "merged 1 entry" in capsys.readouterr().out
    assert main(["kb", "--kb-dir", str(kb), "show", "rocm", "7.3"]) == 0
    assert main(["compat", "--kb-dir", str(kb), "--gpu", "MI300X", "--rocm", "7.3", "--torch", "2.10"]) == 0
    assert main(["kb", "show", "rocm", "7.3"]) == 2  # other overlay dir: not there (an input error)


def test_kb_update_malformed_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("releases:\n  '7.3.0': {gfx_targets: gfx942}\n")
    assert main(["kb", "--kb-dir", str(tmp_path / "kb"), "update", "--from", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "gfx_targets" in err and "source" in err
    assert not (tmp_path / "kb" / "overlay.yaml").exists()


@pytest.mark.parametrize(
    ("argv", "code"),
    [(["--gpu", "MI300X", "--rocm", "6.4", "--os", "ubuntu-22.04", "--torch", "2.6"], 0),
     (["--gpu", "MI355X", "--rocm", "6.4"], 1), (["--gpu", "MI999X", "--rocm", "6.4"], 2),
     (["--gpu", "MI300X", "--rocm", "42.0"], 1), (["--gpu", "MI300X"], 0), ([], 2)],
)
def test_compat_exit_codes(argv, code):
    assert main(["compat", *argv]) == code


def test_compat_json_has_source_rows(capsys):
    assert main(["compat", "--gpu", "MI300X", "--rocm", "6.4", "--torch", "2.1", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "unsupported"
    assert all(v["source"] for v in data["verdicts"])


SCAN = {
    "root": "proj", "target_gpu": "MI300X", "schema_version": "1.0",
    "inventory": [
        {"kind": "framework", "name": "torch", "version": "2.1.0", "path": "requirements.txt", "line": 1},
        {"kind": "framework", "name": "jax", "version": "", "path": "requirements.txt", "line": 2},
        {"kind": "cuda", "name": "CUDA", "version": "12.1", "path": "Dockerfile", "line": 1},
    ],
    "plugins": [
        {"name": "flash-attention", "package": "flash-attn", "version": "2.5.6", "path": "requirements.txt", "line": 3},
        {"name": "tensorrt", "package": "tensorrt", "version": "10.0", "path": "requirements.txt", "line": 4},
        {"name": "mystery", "package": "mystery-cuda", "version": "1", "path": "requirements.txt", "line": 5},
    ],
}


def test_compat_from_scan(tmp_path, capsys):
    path = tmp_path / "scan.json"
    path.write_text(json.dumps(SCAN))
    assert main(["compat", "--from-scan", str(path), "--rocm", "6.4", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["rocm"] == "6.4.3"
    actions = {i["what"]: (i["verdict"]["status"], i["action"]) for i in data["items"]}
    assert actions["pytorch 2.1.0"][0] == "unsupported" and "pytorch 2.6" in actions["pytorch 2.1.0"][1]
    assert actions["jax (unpinned)"][0] == "unknown"
    assert actions["plugin flash-attn 2.5.6"] == ("supported", "keep; install the ROCm build")
    assert actions["plugin tensorrt 10.0"][0] == "unsupported" and "MIGraphX" in actions["plugin tensorrt 10.0"][1]
    assert actions["plugin mystery-cuda 1"][0] == "unknown"
    assert "CUDA 12.1" not in actions


def test_compat_from_scan_defaults_to_newest_for_the_scan_gpu(tmp_path, capsys):
    scan = dict(SCAN, inventory=[SCAN["inventory"][0] | {"version": "2.9.1"}], plugins=[])
    path = tmp_path / "scan.json"
    path.write_text(json.dumps(scan))
    assert main(["compat", "--from-scan", str(path)]) == 0
    assert "7.2.3" in capsys.readouterr().out


@pytest.mark.parametrize("content", ["{oops", "[1, 2]", '{"inventory": 3}'])
def test_compat_from_scan_malformed(tmp_path, capsys, content):
    path = tmp_path / "scan.json"
    path.write_text(content)
    assert main(["compat", "--from-scan", str(path)]) == 2
    assert "scan.json" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["kb", "show", "gpu", "NOPE"], ["compat", "--gpu", "MI999"],
                                  ["compat", "--gpu", "MI999", "--rocm", "6.4"], ["compat", "--gpu", "gfx9999"]])
def test_unknown_names_are_input_errors(argv, capsys):
    """Issue 18: these returned 1 (a finding), as if the input had been checked."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "unknown" in err and ("MI300X" in err or "kb list gpus" in err)


@pytest.mark.parametrize("gpu", ["MI50", "gfx906", "H100", "gfx942", "AMD Instinct MI300X", "mi250x"])
def test_known_gpus_without_full_facts_stay_verdicts(gpu):
    assert main(["compat", "--gpu", gpu, "--rocm", "6.4"]) in (0, 1)
