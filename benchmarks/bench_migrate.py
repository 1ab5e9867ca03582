"""migrate build throughput: generate a tree of build files and plan their migration (read, migrate, diff).

    python benchmarks/bench_migrate.py [--files 5000] [--jobs 1] [--keep DIR]

Half the files are CMakeLists.txt (CUDA language, architectures, CUDAToolkit, CUDA:: targets, nvcc options in
generator expressions), half Makefiles (nvcc, -gencode, CUDA_HOME, -lcudart). Prints files/s, the edits made
and the peak memory of the process (ru_maxrss). Target: >= 1,000 files/s, < 500 MB.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

CMAKE = """cmake_minimum_required(VERSION 3.18)
project(mod{i} LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
set(CMAKE_CUDA_STANDARD 17)
find_package(CUDAToolkit REQUIRED)
add_library(mod{i} STATIC src/k{i}.cu src/host{i}.cpp)
target_compile_options(mod{i} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;-lineinfo>)
target_link_libraries(mod{i} PUBLIC CUDA::cudart CUDA::cublas)
if(CUDAToolkit_FOUND)
  message(STATUS "mod{i}: CUDA ${{CUDAToolkit_VERSION}}")
endif()
"""
MAKE = """CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
NVCCFLAGS := -O3 -gencode arch=compute_80,code=sm_80 --expt-relaxed-constexpr -Xcompiler -fPIC
LDLIBS := -L$(CUDA_HOME)/lib64 -lcudart -lcurand
app{i}: k{i}.o
\t$(NVCC) -o $@ $^ $(LDLIBS)
%.o: %.cu
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
"""


def generate(root: Path, files: int) -> None:
    for i in range(files):
        d = root / f"m{i // 100}" / f"p{i}"
        d.mkdir(parents=True, exist_ok=True)
        if i % 2:
            (d / "Makefile").write_text(MAKE.format(i=i), encoding="utf-8")
        else:
            (d / "CMakeLists.txt").write_text(CMAKE.format(i=i), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--keep", type=Path, help="generate the tree here and keep it")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the runner's pool)")
    args = parser.parse_args()
    from cuda2rocm.migrate.base import BuildOptions
    from cuda2rocm.migrate.build import migrate_build
    from cuda2rocm.rewrite.runner import Mode

    root = args.keep or Path(tempfile.mkdtemp(prefix="c2r-bench-migrate-"))
    try:
        root.mkdir(parents=True, exist_ok=True)
        if not any(root.iterdir()):
            generate(root, args.files)
        started = time.perf_counter()
        run = migrate_build(root, mode=Mode.DIFF, options=BuildOptions(gfx=("gfx90a", "gfx942")),
                            workers=args.jobs)
        diffs = sum(1 for o in run.changed if o.diff())
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        edits = sum(len(o.detail.edits) for o in run.files)
        print("| files | jobs | changed | edits | findings | seconds | files/s | peak MB |")
        print("|---|---|---|---|---|---|---|---|")
        print(f"| {len(run.files):,} | {args.jobs} | {diffs:,} | {edits:,} | {len(run.findings):,} | {seconds:.2f} | "
              f"{len(run.files) / seconds:,.0f} | {peak:.0f} |")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
