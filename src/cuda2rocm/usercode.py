"""Import the user's own code (a model factory, a benchmark callable) the way ``python -m`` / ``python
script.py`` would find it: the working directory, or the script's directory, first on the import path.

The console script ``cuda2rocm`` does not have the working directory on ``sys.path`` (``python -m`` and
``python -c`` do), so ``cuda2rocm capture mymodel:factory`` run beside ``mymodel.py`` found nothing. The
directory is put on the path only while the user's module or script is loaded, and removed afterwards unless
it was there already: the rest of the process is not affected.
"""

from __future__ import annotations

import importlib
import os
import runpy
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any


@contextmanager
def on_import_path(directory: str | Path) -> Iterator[None]:
    """``directory`` first on ``sys.path`` for the duration (removed again only if this added it)."""
    entry = os.path.abspath(directory)
    already = any(os.path.abspath(p or os.curdir) == entry for p in sys.path)
    if not already:
        sys.path.insert(0, entry)
    try:
        yield
    finally:
        if not already and entry in sys.path:
            sys.path.remove(entry)


def import_user_module(name: str) -> ModuleType:
    """``importlib.import_module(name)`` with the working directory on the path, as ``python -m`` has it."""
    with on_import_path(os.getcwd()):
        return importlib.import_module(name)


def run_user_script(path: str | Path, run_name: str) -> dict[str, Any]:
    """``runpy.run_path`` with the script's directory on the path, as ``python script.py`` has it."""
    with on_import_path(Path(path).resolve().parent):
        return runpy.run_path(str(path), run_name=run_name)
