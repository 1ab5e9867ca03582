from __future__ import annotations

import textwrap

import pytest
import torch


@pytest.fixture
def model_script(tmp_path):
    """A small CNN target, built from code (no downloads): conv -> bn -> relu -> pool -> linear."""
    path = tmp_path / "tiny_model.py"
    path.write_text(textwrap.dedent("""
        import torch
        from torch import nn

        class Tiny(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
                self.bn1 = nn.BatchNorm2d(8)
                self.relu = nn.ReLU()
                self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
                self.pool = nn.AdaptiveAvgPool2d(2)
                self.fc = nn.Linear(32, 5)

            def forward(self, x):
                x = self.relu(self.bn1(self.conv1(x)))
                x = self.relu(self.conv2(x))
                return self.fc(torch.flatten(self.pool(x), 1))

        def factory():
            return Tiny(), torch.randn(2, 3, 8, 8)

        def model_only():
            return Tiny()

        if __name__ == "__main__":
            raise SystemExit("must not run")
    """))
    return path


@pytest.fixture
def two_files(tmp_path):
    """Write base/cand safetensors from dicts of torch tensors."""
    from safetensors.torch import save_file

    def make(base: dict, cand: dict):
        b, c = tmp_path / "base.safetensors", tmp_path / "cand.safetensors"
        save_file({k: v.clone().contiguous() for k, v in base.items()}, str(b))
        save_file({k: v.clone().contiguous() for k, v in cand.items()}, str(c))
        return b, c

    torch.manual_seed(0)
    return make
