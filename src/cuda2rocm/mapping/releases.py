"""Known ROCm releases (from the packaged ``rocm_releases.csv``)."""

from __future__ import annotations

import functools

from cuda2rocm.mapping.table import read_rows
from cuda2rocm.mapping.version import Version, parse_version


@functools.lru_cache(maxsize=1)
def rocm_releases() -> tuple[Version, ...]:
    """Every known ROCm release, oldest first."""
    return tuple(sorted(parse_version(row["version"]) for _, row in read_rows("rocm_releases")))


def newest_rocm() -> Version:
    return rocm_releases()[-1]


def is_known_rocm(version: Version | str) -> bool:
    """True for a listed release, or a ``major.minor`` whose ``.0`` is listed (``6.2`` matches ``6.2.0``)."""
    return parse_version(version) in rocm_releases()
