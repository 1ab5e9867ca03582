"""Single-file latency of the ``cuda2rocm`` command (targets: a 300-line file converted in <= 60 ms wall,
start-up <= 40 ms).

Run: ``python3 benchmarks/bench_latency.py [--runs 21] [--top 15]``. Prints two tables:

- the start-up breakdown: ``python3 -X importtime -m cuda2rocm convert empty.cu``, the modules imported (ours
  and the others), the heavy third-party modules that were loaded, and the top-level imports that cost most
  (cumulative microseconds as ``-X importtime`` reports them, which includes its own overhead);
- wall and CPU (user+sys) medians over ``--runs`` runs, interleaved (each round runs every variant once, so
  a change in the machine's load hits all of them alike): the interpreter alone (``python3 -c pass``), the
  ``--help`` listing, ``convert --help``, ``convert`` of an empty file and of a 300-line CUDA file (the first
  300 lines of the test corpus' programs), through ``python3 -m cuda2rocm`` and the console script where one
  is installed. "start-up" is the empty file's figure; "ours" subtracts the bare interpreter's.

Bytecode caching is on (``PYTHONDONTWRITEBYTECODE`` is removed from the children's environment and every
variant runs once before the timed rounds), as for an installed package. ``--src DIR`` (repeatable) compares
source trees, e.g. a checkout of the previous commit: ``git archive HEAD src | tar -x -C /tmp/base`` and
``--src /tmp/base/src --src src``; their rounds are interleaved too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "cuda"
#: third-party modules no single-file convert needs
HEAVY = ("rich", "jsonschema", "numpy", "pathspec", "ruamel", "packaging", "tomlkit", "libcst", "yaml", "torch",
         "concurrent.futures", "subprocess")


def _lines_300() -> str:
    lines: list[str] = []
    for path in sorted(CORPUS.glob("*.cu")):
        lines += path.read_text(encoding="utf-8").splitlines(keepends=True)
        if len(lines) >= 300:
            break
    return "".join(lines[:300])


def _env(src: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(src.resolve())
    return env


def _timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, user+sys CPU seconds) of one run; a failing command stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def importtime(argv: list[str], env: dict[str, str], cwd: Path) -> list[tuple[int, int, str]]:
    """``(self us, cumulative us, indented name)`` of every import ``-X importtime`` reports for ``argv``."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], env=env, cwd=cwd, capture_output=True,
                          text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|", 2)
        rows.append((int(own), int(cumulative), name.rstrip()))
    return rows


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    out = [" | ".join(h.ljust(w) if k == 0 else h.rjust(w) for k, (h, w) in enumerate(zip(head, widths, strict=True))),
           "-|-".join("-" * w for w in widths)]
    out += [" | ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True)))
            for r in rows]
    return "\n".join(out)


def breakdown(env: dict[str, str], cwd: Path, top: int) -> str:
    """The start-up of ``convert empty.cu`` by import: counts, heavy modules, the costliest top-level imports."""
    rows = importtime(["-m", "cuda2rocm", "convert", "empty.cu"], env, cwd)
    names = [name.strip() for _, _, name in rows]
    ours = [n for n in names if n == "cuda2rocm" or n.startswith("cuda2rocm.")]
    heavy = sorted({h for h in HEAVY for n in names if n == h or n.startswith(h + ".")})
    # top level: the imports nothing else of the list is nested in (the least indented names)
    depth = min(len(name) - len(name.lstrip()) for _, _, name in rows)
    tops = sorted(((cum, name.strip()) for _, cum, name in rows if len(name) - len(name.lstrip()) == depth),
                  reverse=True)
    total = sum(cum for cum, _ in tops)
    lines = [f"modules imported: {len(names)} ({len(ours)} of cuda2rocm); -X importtime total "
             f"{total / 1000:.1f} ms (site, the interpreter's own start, included)",
             f"heavy modules loaded: {', '.join(heavy) or 'none'}", ""]
    lines.append(_table(("top-level import", "cumulative ms"), [(n, f"{c / 1000:.1f}") for c, n in tops[:top]]))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=21, help="runs of each variant (interleaved); medians reported")
    ap.add_argument("--top", type=int, default=15, help="top-level imports listed in the breakdown")
    ap.add_argument("--src", action="append", type=Path, help="source tree(s) to run (default: this checkout's)")
    args = ap.parse_args()
    trees = args.src or [ROOT / "src"]
    envs = {str(t): _env(t) for t in trees}
    tmp = Path(tempfile.mkdtemp(prefix="c2r-bench-latency-"))
    try:
        (tmp / "empty.cu").write_text("")
        (tmp / "f300.cu").write_text(_lines_300())
        py = [sys.executable]
        variants: dict[str, list[str]] = {
            "python3 -c pass": [*py, "-c", "pass"],
            "cuda2rocm --help": [*py, "-m", "cuda2rocm", "--help"],
            "convert --help": [*py, "-m", "cuda2rocm", "convert", "--help"],
            "convert empty.cu (start-up)": [*py, "-m", "cuda2rocm", "convert", "empty.cu"],
            "convert f300.cu": [*py, "-m", "cuda2rocm", "convert", "f300.cu"],
        }
        script = Path(sys.executable).with_name("cuda2rocm")  # the console script beside this interpreter
        if script.is_file():
            variants["script: convert empty.cu"] = [str(script), "convert", "empty.cu"]
            variants["script: convert f300.cu"] = [str(script), "convert", "f300.cu"]
        for tree, env in envs.items():
            for argv in variants.values():  # warm-up: bytecode caches written
                _timed(argv, env, tmp)
            if len(envs) > 1:
                print(f"== {tree}")
            print(breakdown(env, tmp, args.top))
            print()
        keys = [(tree, name) for name in variants for tree in envs]
        timings: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in keys}
        for _ in range(args.runs):
            for tree, name in keys:
                timings[tree, name].append(_timed(variants[name], envs[tree], tmp))
        rows = []
        for tree, name in keys:
            base = timings[tree, "python3 -c pass"]
            base_wall = statistics.median(w for w, _ in base)
            base_cpu = statistics.median(c for _, c in base)
            wall = statistics.median(w for w, _ in timings[tree, name])
            cpu = statistics.median(c for _, c in timings[tree, name])
            label = f"{name} [{tree}]" if len(envs) > 1 else name
            rows.append((label, f"{wall * 1000:.0f}", f"{cpu * 1000:.0f}", f"{(wall - base_wall) * 1000:.0f}",
                         f"{(cpu - base_cpu) * 1000:.0f}"))
        print(f"{args.runs} interleaved runs each, medians; lines of f300.cu: "
              f"{len((tmp / 'f300.cu').read_text().splitlines())}")
        print(_table(("command", "wall ms", "cpu ms", "ours wall ms", "ours cpu ms"), rows))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
