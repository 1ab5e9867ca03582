"""``cuda2rocm.scan(path)``: the static inventory and migration assessment of a repository.

Never runs the scanned code, needs no GPU and no CUDA install, reads no network. Per-file problems
(unreadable, binary, not UTF-8, too large, malformed) are reported and the scan goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from cuda2rocm import __version__
from cuda2rocm.batch import auto_jobs, batch_gc, worker_init, worker_pool
from cuda2rocm.files.config import ConfigError, ScanConfig, load_config
from cuda2rocm.files.walk import Candidate, walk
from cuda2rocm.fsio import InputError, decode, read_limited
from cuda2rocm.project import buildopts, includes
from cuda2rocm.results import ScanResult
from cuda2rocm.scan import merge, plugins
from cuda2rocm.scan.analyzers.cxx import PLAIN
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.scan.filescan import scan_file
from cuda2rocm.source.formats.cmake import read_cmake

__all__ = ["ConfigError", "ScanInputError", "ScanResult", "scan"]

Progress = Callable[[int, int], None]
_CHUNK_BYTES = 4 * 2**20
_CHUNK_FILES = 256
#: the smallest chunk (bytes) the shrinking tail of a parallel scan is cut into
_MIN_CHUNK_BYTES = 64 * 2**10
#: chunks per worker the remaining work is cut into: chunks shrink as the work left does, so the workers
#: finish together instead of one waiting out the other's last large chunk
_TAIL_CHUNKS = 4


class ScanInputError(ValueError):
    """The scan root does not exist or cannot be read (the CLI exits 2)."""


def scan(
    path: str | Path,
    *,
    target_gpu: str | None = None,
    config: str | Path | ScanConfig | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    exclude: Sequence[str] = (),
) -> ScanResult:
    """Scan ``path`` (a directory or one file). ``target_gpu`` defaults to the config's (MI300X).

    ``jobs``: worker processes; 0 picks one per CPU (up to 8) for inputs over 4 MiB, else 1.
    """
    started = time.perf_counter()
    root = Path(path)
    if not root.exists():
        raise ScanInputError(f"{root}: no such file or directory")
    cfg = config if isinstance(config, ScanConfig) else load_config(root, config)
    if target_gpu:
        cfg = replace(cfg, target_gpu=target_gpu)
    _check_target(cfg, from_option=bool(target_gpu))
    with batch_gc():
        candidates, walk_problems = walk(root, cfg, tuple(exclude))
        model = project_includes(candidates, cfg.max_file_bytes)
        build = project_build(candidates, cfg.max_file_bytes)
        with includes.using(model), buildopts.using(build):
            reports = _run(candidates, cfg, auto_jobs(max(0, jobs), sum(c.size for c in candidates)), progress,
                           model, build)
            _headers_of_cuda(candidates, reports, cfg)
        result = _result(root, cfg, reports, walk_problems)
    return _assessed(result, time.perf_counter() - started)


def project_includes(cands: Sequence[Candidate], max_bytes: int) -> includes.Includes:
    """The include graph over the scanned C/C++/CUDA files (files are read only when a file includes them)."""
    return includes.Includes({c.rel: c.abspath for c in cands if c.language in includes.SOURCE_LANGUAGES},
                             max_bytes=max_bytes)


def project_build(cands: Sequence[Candidate], max_bytes: int) -> buildopts.BuildFacts:
    """The GPU-selecting options the scanned CMake listfiles declare (a listfile that cannot be read or parsed is
    reported by its own analysis, and adds nothing here)."""
    docs = []
    for c in cands:
        if c.language == "cmake":
            try:
                doc = read_cmake(decode(read_limited(Path(c.abspath), max_bytes), max_bytes))
            except InputError:
                continue
            if not doc.problems:
                docs.append((c.rel, doc))
    return buildopts.gpu_options(docs)


def _run(cands: list[Candidate], cfg: ScanConfig, jobs: int, progress: Progress | None,
         model: includes.Includes | None = None, build: buildopts.BuildFacts | None = None) -> list[FileFacts]:
    total = len(cands)
    disabled = frozenset(cfg.disable)
    if jobs == 1 or total < 2 * jobs:
        out = []
        for i, cand in enumerate(cands, start=1):
            out.append(scan_file(cand, cfg.target_gpu, cfg.max_file_bytes, disabled))
            if progress:
                progress(i, total)
        return out
    return _run_parallel(cands, cfg, jobs, progress, disabled, model, build)


def _run_parallel(cands: list[Candidate], cfg: ScanConfig, jobs: int, progress: Progress | None,
                  disabled: frozenset[str], model: includes.Includes | None,
                  build: buildopts.BuildFacts | None = None) -> list[FileFacts]:
    chunks = _chunks(cands, jobs)
    done = 0
    out: list[FileFacts] = []
    with worker_pool(jobs, partial(_worker, model, build)) as pool:
        futures = [pool.submit(_scan_chunk, c, cfg.target_gpu, cfg.max_file_bytes, disabled) for c in chunks]
        for fut in futures:
            part = fut.result()
            out.extend(part)
            done += len(part)
            if progress:
                progress(done, len(cands))
    return out


def _chunks(cands: list[Candidate], jobs: int = 1) -> list[list[Candidate]]:
    """Consecutive runs of the candidates (results are put back in this order): at most :data:`_CHUNK_FILES`
    files and about :data:`_CHUNK_BYTES`, and no more than 1/(:data:`_TAIL_CHUNKS` x ``jobs``) of the bytes
    still to come (guided scheduling), down to :data:`_MIN_CHUNK_BYTES`."""
    weights = [min(c.size, _CHUNK_BYTES) for c in cands]
    left = sum(weights)
    chunks: list[list[Candidate]] = [[]]
    size = 0
    for cand, weight in zip(cands, weights, strict=True):
        limit = min(_CHUNK_BYTES, max(_MIN_CHUNK_BYTES, (left + size) // (_TAIL_CHUNKS * jobs)))
        if chunks[-1] and (size >= limit or len(chunks[-1]) >= _CHUNK_FILES):
            chunks.append([])
            size = 0
        chunks[-1].append(cand)
        size += weight
        left -= weight
    return chunks


def _check_target(cfg: ScanConfig, from_option: bool) -> None:
    """An unknown target GPU (``MI300``, ``H100``) is a usage error, not a scan without its target's findings."""
    from cuda2rocm.hazards.targets import UnknownTarget, resolve

    try:
        resolve(cfg.target_gpu)
    except UnknownTarget as exc:
        where = f"{cfg.source}: target-gpu: " if cfg.source and not from_option else ""
        raise ConfigError(f"{where}{exc}") from None


def _headers_of_cuda(cands: list[Candidate], reports: list[FileFacts], cfg: ScanConfig) -> None:
    """Scan again, as device code, the C/C++ files that showed no sign of CUDA but that a CUDA file includes (a
    ``config.h`` holding ``#define WARP_SIZE 32``): what convert finds in them, scan finds too. In place."""
    included = {h for r in reports for h in r.includes}
    for k, (cand, report) in enumerate(zip(cands, reports, strict=True)):
        if cand.rel in included and PLAIN in report.tags:
            reports[k] = scan_file(cand, cfg.target_gpu, cfg.max_file_bytes, frozenset(cfg.disable), included=True)


def _worker(model: includes.Includes | None, build: buildopts.BuildFacts | None = None) -> None:
    """Worker start: the batch GC settings, the run's include graph and build facts (sent once per worker)."""
    worker_init()
    includes.install(model)
    buildopts.install(build)


def _scan_chunk(chunk: list[Candidate], target_gpu: str, max_bytes: int, disabled: frozenset[str]) -> list[FileFacts]:
    return [scan_file(c, target_gpu, max_bytes, disabled) for c in chunk]


def _result(root: Path, cfg: ScanConfig, reports: list[FileFacts], walk_problems: list) -> ScanResult:  # type: ignore[type-arg]
    plugin_list, plugin_findings = plugins.resolve(reports)
    arts, binary_findings = merge.binaries(reports)
    declared = merge.project_declared(reports)
    findings = [f for r in reports for f in r.findings] + plugin_findings + binary_findings
    findings += merge.unknown_use_findings(reports, declared)
    findings += merge.walk_findings(walk_problems)
    disabled = set(cfg.disable)
    return ScanResult(
        root=str(root),
        project=root.resolve().name,
        target_gpu=cfg.target_gpu,
        files=merge.files(reports),
        inventory=tuple(c for r in reports for c in r.components),
        findings=merge.sorted_findings([f for f in findings if f.rule not in disabled]),
        api_usage=merge.api_usage(reports, declared),
        plugins=tuple(plugin_list),
        binaries=arts,
        deployment=merge.deployment(reports),
        problems=merge.problems(walk_problems, reports),
        baselines=merge.baselines(reports),
        stats=_counts(reports),
        tool_version=__version__,
    )


def _counts(reports: list[FileFacts]) -> dict[str, float]:
    stats: dict[str, float] = {"files": float(len(reports)), "lines": float(sum(r.lines for r in reports))}
    for r in reports:
        for key, n in r.counts.items():
            stats[key] = stats.get(key, 0.0) + n
    return stats


def _assessed(result: ScanResult, seconds: float) -> ScanResult:
    from cuda2rocm.assess import assess

    layers, risk = assess(result)
    stats = dict(result.stats)
    stats["seconds"] = round(seconds, 4)
    stats["lines_per_second"] = round(stats["lines"] / seconds, 1) if seconds > 0 else 0.0
    return replace(result, layers=layers, risk=risk, stats=stats)
