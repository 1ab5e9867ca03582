"""Knowledge base and env fingerprint timings: `python benchmarks/knowledge.py` prints a table.

Targets: cold load of every table < 1 s; a cached lookup < 50 us; a compat check < 5 ms; `env` without a
GPU < 5 s (dominated by importing torch in the child probe).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

COLD = "from cuda2rocm import knowledge as k; k.gpus(); k.rocm_releases(); k.plugins(); k.libraries(); " \
       "k.env_vars(); k.containers()"


def timed(fn: Callable[[], object], reps: int) -> float:
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cold_load() -> float:
    code = f"import time; t=time.perf_counter(); {COLD}; print(time.perf_counter()-t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(5)]
    return statistics.median(runs)


def main() -> None:
    from cuda2rocm import knowledge
    from cuda2rocm.envinfo.fingerprint import collect
    from cuda2rocm.knowledge.compat import check
    from cuda2rocm.results.compat import Query

    rows = [
        ("cold load, all tables (s)", cold_load(), 1.0),
        ("get_gpu('AMD Instinct MI300X'), memoised (s)",
         timed(lambda: knowledge.get_gpu("AMD Instinct MI300X"), 2000), 50e-6),
        ("get_plugin('flash_attn.ops'), memoised (s)",
         timed(lambda: knowledge.get_plugin("flash_attn.ops"), 2000), 50e-6),
        ("compat check, 4 pairs (s)", timed(lambda: check(Query("MI300X", "6.4", "ubuntu-22.04",
                                                                {"pytorch": "2.6"})), 200), 5e-3),
        ("compat recommend, gpu only (s)", timed(lambda: check(Query("MI300X")), 200), 5e-3),
        ("env fingerprint incl. torch (s)", timed(lambda: collect(10.0), 3), 5.0),
    ]
    print(f"{'measure':46} {'median':>12} {'target':>10}  ok")
    for name, value, target in rows:
        print(f"{name:46} {value:12.6f} {target:10.6f}  {'yes' if value <= target else 'NO'}")


if __name__ == "__main__":
    main()
