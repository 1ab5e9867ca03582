"""Build command lines inside deployment files: a ``cmake`` configure in a Dockerfile ``RUN``, a CI step or a script.

The decision is :func:`cuda2rocm.project.buildopts.cmake_settings` (the one ``scan`` reports with C2R-D110); this
module places it on the command's words as edits (C2R-M113), with the project's GPU options from
``DeployOptions.build`` (read from its listfiles once per run) and the targets of the run's stack.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from cuda2rocm.migrate.deploy.images import FlagEdit
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import containers as R
from cuda2rocm.project.buildopts import cmake_settings
from cuda2rocm.source.formats.shell import Word


def cmake_edits(words: Sequence[Word], options: DeployOptions) -> tuple[list[FlagEdit], list[tuple[int, str]]]:
    """The edits (offsets of the words given) that put one command's CUDA ``-D`` settings on HIP, and the
    (offset, message) of the settings nothing safe can replace. Not a cmake configure: nothing."""
    edits: list[FlagEdit] = []
    reports: list[tuple[int, str]] = []
    for s in cmake_settings([w.value for w in words], options.build, options.gfx):
        first, last = words[s.first], words[s.last]
        if s.words is None:
            reports.append((first.offset, s.why))
        elif len(s.words) == 1 and s.words[0].endswith("=" + s.value) and first is last and s.name in first.src:
            # the same value under another name: only the name changes, the word keeps its quoting
            new_name = s.words[0][2:-len(s.value) - 1]
            at = first.offset + first.src.index(s.name)
            edits.append(FlagEdit(at, at + len(s.name), new_name, s.why, rule=R.CMAKE_COMMAND))
        elif s.words:
            edits.append(FlagEdit(first.offset, last.end, " ".join(shell_word(w) for w in s.words), s.why,
                                  rule=R.CMAKE_COMMAND))
        elif s.last + 1 < len(words):  # the setting goes, with the blanks (and continuation) after it
            edits.append(FlagEdit(first.offset, words[s.last + 1].offset, "", s.why, rule=R.CMAKE_COMMAND))
        else:  # the last word goes, with the blank before it
            edits.append(FlagEdit(words[s.first - 1].end, last.end, "", s.why, rule=R.CMAKE_COMMAND))
    return edits, reports


def shell_word(value: str) -> str:
    """``value`` as one shell word: bare when it needs no quoting, double-quoted when it expands a variable,
    else single-quoted."""
    if "$" in value:
        return '"' + "".join("\\" + c if c in '"\\`' else c for c in value) + '"'
    return shlex.quote(value)
