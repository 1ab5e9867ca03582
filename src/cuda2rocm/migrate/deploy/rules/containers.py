"""Rules of ``migrate deploy``: containers (see the package docstring for the id ranges)."""

from __future__ import annotations
