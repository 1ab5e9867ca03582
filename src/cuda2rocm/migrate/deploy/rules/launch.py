"""Rules of ``migrate deploy``: launch (see the package docstring for the id ranges)."""

from __future__ import annotations
