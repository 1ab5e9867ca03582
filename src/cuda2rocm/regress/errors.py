"""The one exception the regression library raises for bad input; the CLI turns it into exit code 2."""

from __future__ import annotations


class RegressInputError(Exception):
    """A file or option the library cannot use. ``str()`` names the file (and line where known)."""

    def __init__(self, path: str, message: str, line: int = 0) -> None:
        self.path = path
        self.message = message
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
