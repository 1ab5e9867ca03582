"""The torchrun command line for a ``comm`` run (single node; multi-node takes rendezvous arguments)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Sequence


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def torchrun_argv(
    nproc: int, args: Sequence[str], *, nnodes: int = 1, rdzv_endpoint: str = "", rdzv_id: str = "cuda2rocm-comm",
    node_rank: int | None = None, python: str = sys.executable,
) -> list[str]:
    """``python -m torch.distributed.run ... -m cuda2rocm comm ARGS`` for ``nproc`` ranks per node."""
    argv = [python, "-m", "torch.distributed.run", f"--nproc-per-node={nproc}", f"--nnodes={nnodes}"]
    if nnodes > 1 or rdzv_endpoint:
        if not rdzv_endpoint:
            raise ValueError("multi-node runs need --rdzv-endpoint HOST:PORT (the same on every node)")
        argv += ["--rdzv-backend=c10d", f"--rdzv-endpoint={rdzv_endpoint}", f"--rdzv-id={rdzv_id}"]
        if node_rank is not None:
            argv.append(f"--node-rank={node_rank}")
    else:
        argv += ["--master-addr=127.0.0.1", f"--master-port={free_port()}"]
    return [*argv, "-m", "cuda2rocm", "comm", *args]
