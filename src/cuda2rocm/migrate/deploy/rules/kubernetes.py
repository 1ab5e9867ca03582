"""Rules of ``migrate deploy``: kubernetes (see the package docstring for the id ranges)."""

from __future__ import annotations
