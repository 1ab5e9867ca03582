import os
import subprocess


def run_benchmark(binary: str):
    env = os.environ.copy()
    env["NCCL_ALGO"] = "Ring"
    return subprocess.Popen([binary, "-b", "8", "-e", "1G", "-f", "2"], env=env)
