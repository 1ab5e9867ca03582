"""Per-pair support facts: is this GPU / OS / framework version listed for this ROCm release?"""

from __future__ import annotations

import re

from cuda2rocm.knowledge import versions
from cuda2rocm.knowledge.types import Gpu, RocmRelease, gpu_in_release
from cuda2rocm.results.compat import SUPPORTED, UNKNOWN, UNSUPPORTED, Verdict


def gpu_verdict(gpu: Gpu, release: RocmRelease) -> Verdict:
    pair = f"gpu {gpu.name} / rocm {release.version}"
    if gpu.vendor != "amd":
        return Verdict(pair, UNSUPPORTED, f"{gpu.name} is an NVIDIA GPU; ROCm runs on AMD GPUs", gpu.source)
    if gpu_in_release(gpu, release):
        return Verdict(pair, SUPPORTED, f"{gpu.gfx_target} is listed for ROCm {release.version}", release.source)
    if gpu.gfx_target in release.gfx_targets:
        why = f"{gpu.name} is first listed in ROCm {gpu.rocm_first_listed}"
        return Verdict(pair, UNSUPPORTED, why, gpu.source)
    why = f"{gpu.gfx_target} is not among ROCm {release.version} targets ({', '.join(release.gfx_targets)})"
    return Verdict(pair, UNSUPPORTED, why, release.source)


def parse_os(text: str) -> tuple[str, str]:
    """``"ubuntu-22.04"`` -> ``("ubuntu", "22.04")``; ``"SLES 15 SP7"`` -> ``("sles", "15 sp7")``."""
    t = re.sub(r"[-_]+", " ", text.strip().lower())
    t = re.sub(r"\b(red hat enterprise linux|redhat)\b", "rhel", t)
    m = re.match(r"^([a-z][a-z ]*?)\s*(\d.*)?$", t)
    if not m:
        return (t, "")
    return (m.group(1).strip(), (m.group(2) or "").strip())


def os_verdict(os_name: str, release: RocmRelease) -> Verdict:
    pair = f"os {os_name} / rocm {release.version}"
    family, ver = parse_os(os_name)
    same_family = [o for o in release.os if parse_os(o)[0] == family]
    if not same_family:
        return Verdict(pair, UNSUPPORTED if family in known_os_families() else UNKNOWN,
                       f"no {family or os_name!r} release is listed for ROCm {release.version}", release.source)
    hits = [o for o in same_family if _os_version_matches(ver, parse_os(o)[1])]
    if hits:
        return Verdict(pair, SUPPORTED, f"listed: {', '.join(hits)}", release.source)
    return Verdict(pair, UNSUPPORTED, f"listed {family} versions: {', '.join(same_family)}", release.source)


def _os_version_matches(wanted: str, listed: str) -> bool:
    if not wanted:
        return True
    if "sp" in wanted or "sp" in listed:
        return wanted.replace(" ", "") == listed.replace(" ", "")
    w, lst = versions.key(wanted), versions.key(listed)
    return bool(w) and lst[: len(w)] == w


def known_os_families() -> set[str]:
    from cuda2rocm.knowledge import rocm_releases

    return {parse_os(o)[0] for r in rocm_releases().values() for o in r.os}


def framework_verdict(framework: str, version: str, release: RocmRelease) -> Verdict:
    pair = f"{framework} {version} / rocm {release.version}"
    listed = release.frameworks.get(framework)
    if not listed:
        return Verdict(pair, UNKNOWN, f"the matrix lists no {framework} versions for ROCm {release.version}",
                       release.source)
    hits = [v for v in listed if versions.matches(version, v)]
    if hits:
        return Verdict(pair, SUPPORTED, f"listed: {', '.join(hits)}", release.source)
    return Verdict(pair, UNSUPPORTED, f"listed {framework} versions: {', '.join(listed)}", release.source)
