"""``migrate deploy`` for compose files (to be written: see issue 14)."""

from __future__ import annotations

from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    return FileMigration(rel)
