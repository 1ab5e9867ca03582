from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def run_comm(tmp_path: Path, nproc: int, *args: str, backend: str = "gloo") -> tuple[int, list[dict], str]:
    """Run `cuda2rocm comm --nproc N` for real (torchrun + torch.distributed) and read its JSONL."""
    out = tmp_path / f"comm-{nproc}.jsonl"
    env = {**os.environ, "NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
           "NVSHMEM_DISABLE_NVLS": "1", "OMP_NUM_THREADS": "1", "COLUMNS": "160"}
    argv = [sys.executable, "-m", "cuda2rocm", "comm", "--nproc", str(nproc), "--backend", backend,
            "-o", str(out), "--force", *args]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)
    recs = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return done.returncode, recs, done.stdout + done.stderr


@pytest.fixture
def comm_runner():
    return run_comm
