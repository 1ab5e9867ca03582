"""The knowledge base: facts about GPUs, ROCm releases, libraries, plugins, env vars and images.

Shipped as YAML under ``knowledge/data/`` (each fact with ``source``, ``date`` and ``unverified``), loaded
lazily on first use and cached. A user overlay (``cuda2rocm kb update``) in ``$CUDA2ROCM_KB_DIR`` or
``~/.config/cuda2rocm/kb`` is merged over the shipped tables without code changes::

    from cuda2rocm import knowledge
    knowledge.get_gpu("gfx942").wavefront_size      # 64
    knowledge.get_plugin("flash-attn").rocm_support  # "native_upstream"
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from cuda2rocm.knowledge import _build, _load, versions
from cuda2rocm.knowledge._load import KnowledgeError, default_kb_dir, merged, packaged
from cuda2rocm.knowledge.gpus import Gpu, Link
from cuda2rocm.knowledge.lookup import find_gpu, find_plugin, norm_gpu, norm_target

if TYPE_CHECKING:  # at run time from knowledge.types on first use (``__getattr__``): a GPU lookup needs none
    from cuda2rocm.knowledge.types import Container, EnvVar, Library, LibrarySide, Plugin, RocmRelease

_RECORDS = frozenset({"Container", "EnvVar", "Library", "LibrarySide", "Plugin", "RocmRelease"})


def __getattr__(name: str) -> Any:
    if name in _RECORDS:
        from cuda2rocm.knowledge import types

        return getattr(types, name)
    raise AttributeError(f"module 'cuda2rocm.knowledge' has no attribute {name!r}")

__all__ = [
    "Container", "EnvVar", "Gpu", "KnowledgeError", "Library", "LibrarySide", "Link", "Plugin", "RocmRelease",
    "containers", "default_kb_dir", "env_vars", "get_env_var", "get_gpu", "get_library", "get_plugin",
    "get_release", "gpus", "libraries", "plugins", "reload", "rocm_releases", "use_kb_dir",
]


@functools.lru_cache(maxsize=1)
def gpus() -> dict[str, Gpu]:
    """Every known GPU by marketing name (``"MI300X"``, ``"H200"``, ``"Radeon RX 7900 XTX"``)."""
    return {name: _build.gpu(name, raw) for name, raw in merged("gpus").items()}


@functools.lru_cache(maxsize=1024)
def get_gpu(name_or_target: str) -> Gpu | None:
    """Look a GPU up by name (any case, with or without vendor words), gfx target or ``sm_XY``."""
    defaults = {str(k): str(v) for k, v in (packaged("gpus.yaml").get("gfx_default") or {}).items()}
    return find_gpu(name_or_target, gpus(), defaults)


def gfx_names() -> dict[str, str]:
    """Marketing names of GPUs we hold no detailed facts for (MI50, RX 7700 XT, ...) -> gfx target."""
    other = packaged("gpus.yaml").get("other_targets") or {}
    return {str(n): str(v["gfx_target"]) for n, v in (other.get("gpus") or {}).items()}


def is_known_gpu(name_or_target: str) -> bool:
    """Does the knowledge base know this GPU: detailed facts, a name with only its gfx target (MI50), or a gfx
    target some release or GPU lists? (Unknown names are usage errors, not "unknown" verdicts.)"""
    if get_gpu(name_or_target) is not None:
        return True
    others = gfx_names()
    target = norm_target(name_or_target)
    targets = set(others.values()) | {t for r in rocm_releases().values() for t in r.gfx_targets}
    return norm_gpu(name_or_target) in {norm_gpu(n) for n in others} or target in targets


def known_gpu_names() -> list[str]:
    """Every GPU name the knowledge base knows (AMD first), for "known: ..." messages."""
    detailed = sorted(gpus().values(), key=lambda g: (g.vendor != "amd", g.name))
    return [g.name for g in detailed] + sorted(gfx_names())


@functools.lru_cache(maxsize=1)
def rocm_releases() -> dict[str, RocmRelease]:
    """ROCm releases, newest first, keyed by full version (``"6.4.1"``)."""
    raw = merged("releases")
    known = tuple(gpus().values())
    return {v: _build.release(v, raw[v], known) for v in versions.newest_first(raw)}


def get_release(version: str) -> RocmRelease | None:
    """Exact release, or the newest release of a series (``"6.4"`` -> 6.4.3); ``None`` when unknown."""
    releases = rocm_releases()
    if version in releases:
        return releases[version]
    hits = [r for v, r in releases.items() if versions.matches(version, v) and len(versions.key(version)) <= 2]
    return hits[0] if hits else None


@functools.lru_cache(maxsize=1)
def plugins() -> dict[str, Plugin]:
    return {k: _build.plugin(k, raw) for k, raw in merged("plugins").items()}


@functools.lru_cache(maxsize=1024)
def get_plugin(name: str) -> Plugin | None:
    """By knowledge-base key, pip name (any spelling) or import name (``flash_attn.ops`` works too)."""
    return find_plugin(name, plugins())


def plugin_for_repository(repository: str) -> Plugin | None:
    """The plugin whose upstream repository is ``org/name`` (as a ``pip install git+https://github.com/org/name``
    names it): by the repository name as a key or pip name, else by the repository cited in the plugin's source."""
    repository = repository.strip("/").removesuffix(".git")
    found = get_plugin(repository.rsplit("/", 1)[-1])
    if found is not None or "/" not in repository:
        return found
    wanted = repository.lower() + " "
    return next((p for p in plugins().values() if (p.source.lower() + " ").find(wanted) >= 0), None)


@functools.lru_cache(maxsize=1)
def libraries() -> dict[str, Library]:
    return {k: _build.library(k, raw) for k, raw in merged("libraries").items()}


def get_library(name: str) -> Library | None:
    """By CUDA library name, case-insensitive (``"cublas"`` -> cuBLAS)."""
    return {k.lower(): v for k, v in libraries().items()}.get(name.strip().lower())


@functools.lru_cache(maxsize=1)
def env_vars() -> dict[str, EnvVar]:
    return {k: _build.env_var(k, raw) for k, raw in merged("env_vars").items()}


def get_env_var(name: str) -> EnvVar | None:
    return env_vars().get(name.split("=")[0].strip())


@functools.lru_cache(maxsize=1)
def containers() -> dict[str, Container]:
    """ROCm images keyed by repository name (``"rocm/pytorch"``), each naming the CUDA image it replaces."""
    return {k: _build.container(k, raw) for k, raw in merged("images").items()}


def reload() -> None:
    """Forget everything cached (after an overlay update)."""
    _load.reload()
    for cached in (gpus, rocm_releases, plugins, libraries, env_vars, containers, get_gpu, get_plugin):
        cached.cache_clear()


def use_kb_dir(path: str | None) -> None:
    """Read the user overlay from ``path`` (``--kb-dir``) instead of the default; ``None`` restores it."""
    _load.use_kb_dir(path)
    reload()
