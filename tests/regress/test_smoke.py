from __future__ import annotations

import json

import pytest
import torch
from torch import nn

from cuda2rocm.cli.main import main
from cuda2rocm.regress.findings import smoke_findings
from cuda2rocm.regress.instrument import OpRecorder, not_implemented_op
from cuda2rocm.regress.smoke import smoke


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 48)

    def forward(self, x):
        q, k, v = self.proj(x).view(x.shape[0], x.shape[1], 3, 2, 8).permute(2, 0, 3, 1, 4)
        return nn.functional.scaled_dot_product_attention(q, k, v)


class Fp8Add(nn.Module):
    def forward(self, x):
        return x.to(torch.float8_e4m3fn) + 1


class StackRows(nn.Module):
    def forward(self, x):
        return torch.stack([row.sum() for row in x])


def test_attention_model_on_cpu_reports_backend_and_checks():
    report = smoke(Attn(), torch.randn(2, 5, 16), "cpu")
    assert report.forward.ok and report.ops > 0
    assert report.sdpa_backends == ("flash-cpu",)
    assert report.cpu_fallbacks == ()  # the device is the CPU
    assert {c.name: c.ok for c in report.abnormal} == {"nan-input": True, "empty-batch": True, "oom": True}
    assert "recovered" in report.abnormal[2].detail
    assert report.peak_memory_bytes > 0 and smoke_findings(report) == []


def test_math_backend_detected_when_fused_kernels_disabled():
    from torch.nn.attention import SDPBackend, sdpa_kernel

    with sdpa_kernel(SDPBackend.MATH):
        report = smoke(Attn(), torch.randn(2, 5, 16), "cpu", oom_check=False)
    assert report.sdpa_backends == ("math",)


def test_not_implemented_op_is_named_and_is_a_finding():
    report = smoke(Fp8Add(), torch.randn(4), "cpu", oom_check=False)
    assert not report.forward.ok and report.not_implemented == ("add_stub",)
    assert [f.rule for f in smoke_findings(report)][:1] == ["C2R-R202"]


def test_empty_batch_crash_is_reported():
    report = smoke(StackRows(), torch.randn(3, 4), "cpu", oom_check=False)
    empty = next(c for c in report.abnormal if c.name == "empty-batch")
    assert not empty.ok and "stack" in empty.detail
    assert "C2R-R205" in {f.rule for f in smoke_findings(report)}


def test_recorder_flags_ops_off_the_expected_device():
    rec = OpRecorder("cuda")  # CPU tensors while a GPU run is expected: every op is a fallback
    with rec:
        torch.randn(3, 3) @ torch.randn(3, 3)
    assert rec.off_device and set(rec.off_device) <= set(rec.ops)
    same = OpRecorder("cpu")
    with same:
        torch.randn(3) + torch.tensor(1.0)
    assert not same.off_device


@pytest.mark.parametrize(("exc", "op"), [
    (NotImplementedError("Could not run 'aten::_foo' with arguments from the 'CUDA' backend."), "aten::_foo"),
    (RuntimeError('"addmm_impl_cpu_" not implemented for \'Half\''), "addmm_impl_cpu_"),
    (RuntimeError("shape mismatch"), None),
])
def test_not_implemented_parsing(exc, op):
    assert not_implemented_op(exc) == op


def test_smoke_cli(tmp_path, model_script, capsys):
    out = tmp_path / "s.json"
    assert main(["smoke", str(model_script), "--device", "cpu", "--json", str(out)]) == 0
    body = json.loads(out.read_text())
    assert body["forward"]["ok"] and body["findings"] == []
    bad = tmp_path / "fp8.py"
    bad.write_text("import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                   "        return x.to(torch.float8_e4m3fn) + 1\n"
                   "def factory():\n    return M(), torch.randn(3)\n")
    assert main(["smoke", str(bad), "--device", "cpu", "--no-oom"]) == 1
    assert "C2R-R202" in capsys.readouterr().out
    assert main(["smoke", str(tmp_path / "missing.py"), "--device", "cpu"]) == 2


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA or ROCm GPU")
def test_smoke_on_gpu():
    report = smoke(Attn(), torch.randn(2, 5, 16), "cuda")
    assert report.forward.ok and report.memory_kind == "device allocator peak"
    assert next(c for c in report.abnormal if c.name == "oom").ok


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on a machine without a GPU")
def test_missing_gpu_is_a_usage_error(model_script, tmp_path, capsys):
    assert main(["smoke", str(model_script)]) == 2
    assert main(["capture", str(model_script), "-o", str(tmp_path / "c"), "--device", "cuda"]) == 2
    assert main(["capture", str(model_script), "-o", str(tmp_path / "c"), "--device", "gpu0"]) == 2
    err = capsys.readouterr().err
    assert "no CUDA/ROCm GPU" in err and "Traceback" not in err
