from __future__ import annotations

import json

import pytest
import torch

from cuda2rocm.cli.main import main
from cuda2rocm.regress.capture import CaptureOptions, capture, hash_inputs
from cuda2rocm.regress.compare import compare
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.run import InputSpec, capture_target, repro_check


def _read_manifest(d):
    return json.loads((d / "manifest.json").read_text())


def test_same_seed_twice_is_identical_and_perturbation_names_the_layer(tmp_path, model_script):
    a, b, p = tmp_path / "a", tmp_path / "b", tmp_path / "p"
    target = str(model_script)
    assert main(["capture", target, "-o", str(a), "--train-step"]) == 0
    assert main(["capture", target, "-o", str(b), "--train-step"]) == 0
    assert (a / "tensors.safetensors").read_bytes() == (b / "tensors.safetensors").read_bytes()
    assert main(["compare", str(a), str(b)]) == 0
    assert main(["capture", target, "-o", str(p), "--train-step", "--perturb", "conv2=0.01"]) == 0
    result = compare(a, p)
    assert not result.passed
    assert result.first_divergence.name == "act/conv2"
    earlier = [r for r in result.reports][: [r.name for r in result.reports].index("act/conv2")]
    assert earlier and all(r.ok for r in earlier)
    assert main(["compare", str(a), str(p)]) == 1


def test_manifest_records_order_env_seed_and_inputs(tmp_path, model_script):
    out = tmp_path / "cap"
    assert main(["capture", f"{model_script}:factory", "-o", str(out), "--seed", "3", "--train-step"]) == 0
    m = _read_manifest(out)
    names = [e["name"] for e in m["entries"]]
    assert names[:6] == ["act/conv1", "act/bn1", "act/relu", "act/conv2", "act/relu#1", "act/pool"]
    assert names[6:8] == ["act/fc", "output"] and names[8] == "loss"
    assert {n for n in names if n.startswith("grad/")} >= {"grad/conv1.weight", "grad/fc.bias"}
    assert m["seed"] == 3 and len(m["inputs_sha256"]) == 64 and m["deterministic"] is True
    assert m["fingerprint"]["torch"] == torch.__version__ and m["fingerprint"]["backend"] in ("cpu", "cuda", "rocm")


def test_layer_filters_and_dtype_cast(tmp_path, model_script):
    out = tmp_path / "cap"
    assert main(["capture", str(model_script), "-o", str(out), "--layers", "conv*", "--exclude", "conv1",
                 "--dtype", "bfloat16"]) == 0
    m = _read_manifest(out)
    assert [e["name"] for e in m["entries"]] == ["act/conv2", "output"]
    assert {e["dtype"] for e in m["entries"]} == {"BF16"}


def test_model_only_factory_needs_inputs(tmp_path, model_script, capsys):
    out = tmp_path / "cap"
    assert main(["capture", f"{model_script}:model_only", "-o", str(out)]) == 2
    assert "--input-shape" in capsys.readouterr().err
    assert main(["capture", f"{model_script}:model_only", "-o", str(out), "--input-shape", "1x3x4x4"]) == 0
    torch.save(torch.randn(1, 3, 5, 5), tmp_path / "x.pt")
    out2 = tmp_path / "cap2"
    assert main(["capture", f"{model_script}:model_only", "-o", str(out2), "--inputs", str(tmp_path / "x.pt")]) == 0
    assert _read_manifest(out2)["entries"][0]["shape"] == [1, 8, 5, 5]


def test_module_factory_spec(tmp_path, monkeypatch, model_script):
    monkeypatch.syspath_prepend(str(model_script.parent))
    captured = capture_target("tiny_model:factory", tmp_path / "c", CaptureOptions(), InputSpec())
    assert captured.manifest.target == "tiny_model:factory"


@pytest.mark.parametrize(("args", "message"), [
    (["nope_module_xyz:factory"], "cannot import"),
    (["{script}:missing"], "no callable 'missing'"),
    (["{script}", "--perturb", "ghost=0.1"], "no module named 'ghost'"),
    (["{script}", "--input-shape", "2xq"], "want e.g."),
])
def test_bad_targets_exit_2(tmp_path, model_script, args, message, capsys):
    argv = ["capture", *[a.format(script=model_script) for a in args], "-o", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_syntax_error_in_script_names_line(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\ndef factory(:\n")
    assert main(["capture", str(bad), "-o", str(tmp_path / "o")]) == 2
    assert f"{bad}:2: syntax error" in capsys.readouterr().err


def test_no_clobber_without_force_and_backup(tmp_path, model_script):
    out = tmp_path / "cap"
    assert main(["capture", str(model_script), "-o", str(out)]) == 0
    before = (out / "manifest.json").read_text()
    assert main(["capture", str(model_script), "-o", str(out), "--seed", "1"]) == 2
    assert (out / "manifest.json").read_text() == before
    assert main(["capture", str(model_script), "-o", str(out), "--seed", "1", "--force"]) == 0
    assert (tmp_path / "cap.bak" / "manifest.json").read_text() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cap")]


def test_repro_check_detects_nondeterminism(tmp_path):
    script = tmp_path / "flaky.py"
    script.write_text(
        "import itertools, torch\n"
        "_calls = itertools.count()\n"
        "class Flaky(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.lin = torch.nn.Linear(4, 4)\n"
        "    def forward(self, x):\n"
        "        return self.lin(x) + next(_calls)\n"
        "def factory():\n"
        "    return Flaky(), torch.ones(1, 4)\n"
    )
    # runpy loads the script once per factory lookup, so keep the counter across loads via a module global
    result = repro_check(str(script), CaptureOptions())
    assert result.identical  # fresh script namespace each time: deterministic
    import sys
    sys.modules.pop("flaky_counter", None)
    script.write_text(script.read_text().replace("_calls = itertools.count()",
                      "import sys\n_calls = sys.modules.setdefault('flaky_counter', type(sys)('c'))\n"
                      "_calls.n = getattr(_calls, 'n', 0)\n"
                      "def _next():\n    _calls.n += 1\n    return _calls.n\n").replace("next(_calls)", "_next()"))
    result = repro_check(str(script), CaptureOptions())
    assert not result.identical and "output" in result.differing
    assert main(["capture", str(script), "-o", str(tmp_path / "o"), "--check-repro"]) == 1


def test_inputs_hash_depends_on_values_not_device():
    x = torch.arange(6.0).reshape(2, 3)
    assert hash_inputs(x) == hash_inputs(x.clone())
    assert hash_inputs(x) != hash_inputs(x + 1)
    assert hash_inputs({"a": x.bfloat16()}) != hash_inputs({"a": x})


def test_capture_restores_global_torch_settings():
    before = torch.are_deterministic_algorithms_enabled()
    model = torch.nn.Linear(3, 2)
    capture(model, torch.ones(1, 3), CaptureOptions())
    assert torch.are_deterministic_algorithms_enabled() == before


def test_default_loss_needs_float_output(tmp_path):
    model = torch.nn.Embedding(4, 2)

    class ArgMax(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = model

        def forward(self, x):
            return self.emb(x).argmax(-1)

    with pytest.raises(RegressInputError, match="no floating-point tensor"):
        capture(ArgMax(), torch.tensor([1, 2]), CaptureOptions(train_step=True))


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA or ROCm GPU")
def test_gpu_vs_cpu_capture_passes(tmp_path, model_script):
    for dev, out in (("cpu", "c"), ("cuda", "g")):
        assert main(["capture", str(model_script), "-o", str(tmp_path / out), "--device", dev]) == 0
    assert main(["compare", str(tmp_path / "c"), str(tmp_path / "g")]) == 0
