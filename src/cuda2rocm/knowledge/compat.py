"""``cuda2rocm compat``: check a GPU / ROCm / OS / framework combination against the matrix.

Every answer is ``supported``, ``unsupported`` or ``unknown`` with the matrix row it rests on; a GPU or a
version the knowledge base does not hold is ``unknown``, never ``supported``.
"""

from __future__ import annotations

from cuda2rocm import knowledge
from cuda2rocm.knowledge import versions
from cuda2rocm.knowledge.support import framework_verdict, gpu_verdict, os_verdict
from cuda2rocm.knowledge.types import RocmRelease
from cuda2rocm.results.compat import SUPPORTED, UNKNOWN, UNSUPPORTED, CompatReport, Query, Recommendation, Verdict

FRAMEWORKS = ("pytorch", "tensorflow", "jax", "onnxruntime")


def check(query: Query) -> CompatReport:
    """Answer every pair the query names; recommend the newest supported combination when input is partial."""
    recommendation = recommend(query)
    if query.rocm:
        release = knowledge.get_release(query.rocm)
        if release is None:
            return _unknown_release(query, recommendation)
    elif recommendation is not None:
        release = knowledge.get_release(recommendation.rocm)
    else:
        release = None
    if release is None:
        return CompatReport(query, "", _no_release_verdicts(query), recommendation=recommendation)
    verdicts = pair_verdicts(query, release)
    if any(v.status != SUPPORTED for v in verdicts) and query.rocm:
        recommendation = recommend(Query(query.gpu, "", query.os, query.frameworks))
    elif not _partial(query):
        recommendation = None
    return CompatReport(query, release.version, verdicts, gpu_os_notes(query, release), recommendation)


def _partial(query: Query) -> bool:
    return not (query.rocm and query.os and query.frameworks.get("pytorch"))


def _unknown_release(query: Query, recommendation: Recommendation | None) -> CompatReport:
    known = list(knowledge.rocm_releases())
    why = f"ROCm {query.rocm} is not in the knowledge base (known: {known[-1]} .. {known[0]})"
    verdict = Verdict(f"rocm {query.rocm}", UNKNOWN, why)
    return CompatReport(query, "", (verdict,), recommendation=recommendation)


def _no_release_verdicts(query: Query) -> tuple[Verdict, ...]:
    what = ", ".join(_described(query)) or "the query"
    return (Verdict(what, UNSUPPORTED if knowledge.get_gpu(query.gpu or "") else UNKNOWN,
                    "no known ROCm release supports this combination"),)


def _described(query: Query) -> list[str]:
    parts = [f"gpu {query.gpu}"] if query.gpu else []
    parts += [f"os {query.os}"] if query.os else []
    return parts + [f"{k} {v}" for k, v in query.frameworks.items()]


def pair_verdicts(query: Query, release: RocmRelease) -> tuple[Verdict, ...]:
    out: list[Verdict] = []
    if query.gpu:
        gpu = knowledge.get_gpu(query.gpu)
        out.append(gpu_verdict(gpu, release) if gpu else Verdict(
            f"gpu {query.gpu} / rocm {release.version}", UNKNOWN, f"GPU {query.gpu!r} is not in the knowledge base"))
    if query.os:
        out.append(os_verdict(query.os, release))
    for name, version in query.frameworks.items():
        out.append(framework_verdict(name, version, release))
    return tuple(out)


def gpu_os_notes(query: Query, release: RocmRelease) -> tuple[str, ...]:
    """Matrix footnotes restricting OS per GPU for this release series that mention the queried GPU."""
    gpu = knowledge.get_gpu(query.gpu) if query.gpu else None
    if gpu is None:
        return ()
    series = (knowledge.packaged("rocm.yaml").get("gpu_os_notes") or {}).get("series") or {}
    words = {gpu.name, gpu.gfx_target} - {""}
    return tuple(note for key, notes in series.items() if _series_applies(str(key), release.version)
                 for note in notes if any(w in str(note) for w in words))


def _series_applies(series: str, version: str) -> bool:
    head = series.split("-")[0].replace(".x", "")
    return versions.matches(head, version) and len(versions.key(head)) >= 2


def recommend(query: Query) -> Recommendation | None:
    """Newest release where every given constraint is supported, filled with its newest listed versions."""
    candidates = [knowledge.get_release(query.rocm)] if query.rocm else list(knowledge.rocm_releases().values())
    for release in candidates:
        if release is not None and all(v.status == SUPPORTED for v in pair_verdicts(query, release)):
            return _fill(query, release)
    return None


def _fill(query: Query, release: RocmRelease) -> Recommendation:
    frameworks = dict(query.frameworks)
    for name in FRAMEWORKS:
        listed = release.frameworks.get(name)
        if name not in frameworks and listed:
            frameworks[name] = versions.newest_first(listed)[0]
    os_name = query.os or (release.os[0] if release.os else "")
    return Recommendation(release.version, os_name, frameworks, release.source)
