import os
import subprocess
import sys


def launch_workers(script: str, nprocs: int):
    env = dict(os.environ, NCCL_P2P_LEVEL="NVL", OMP_NUM_THREADS="4")
    cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={nprocs}", script]
    return subprocess.run(cmd, env=env, check=True)
