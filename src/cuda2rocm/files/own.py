"""What a walk never takes as the project's: cuda2rocm's own state folders and the backups its in-place rewrites
leave. Kept apart from the walker (no dataclasses, nothing to import) so the rewrite runner can name the backup
suffix without loading the walker on a single-file ``convert``."""

from __future__ import annotations

import os

#: folders of cuda2rocm's own state: the workspace's (workspace.store.STATE_DIR) and the migrate pipeline's
#: journal (migrate.pipeline.JOURNAL_DIR); tests/workspace/test_own_inputs.py holds the names equal. A walk never
#: enters them: the tool's records are not the project's files (scan, convert and migrate alike).
STATE_DIRS = (".cuda2rocm", ".cuda2rocm-migrate")
#: what the rewrite runner appends to an in-place rewrite's backup (rewrite/runner.py)
BACKUP_SUFFIX = ".orig"


def is_backup(real: str) -> bool:
    """Whether ``real`` (a file's path) is a backup an in-place rewrite left: ``X.orig`` with ``X`` beside it.
    A walk skips it: ``Dockerfile.orig`` is not a second Dockerfile of the project."""
    return real.endswith(BACKUP_SUFFIX) and os.path.isfile(real[: -len(BACKUP_SUFFIX)])
