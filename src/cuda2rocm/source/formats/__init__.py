"""Lossless readers for the build and deployment files a CUDA project has, with offsets into the text.

One module per format; each exposes one pure function ``read_<format>(text) -> <Format>File`` that never
raises: malformed input is reported in the result's ``problems`` (1-based line and a message) and the rest of
the file is still read. Offsets are indexes into the ``str`` the reader was given (the same offsets
:class:`cuda2rocm.model.Edit` and :func:`cuda2rocm.source.edits.apply_edits` use), ``end`` is exclusive.

- :mod:`.cmake`: commands, arguments (unquoted, quoted, bracket), comments (hand-written, cmake-language(7)).
- :mod:`.make`: logical lines (continuations), assignments, rules, recipes, directives, words.
- :mod:`.shell`: logical lines with words (quoting, ``$(...)``, operators, comments, heredocs).
- :mod:`.requirements`: pip requirement lines, options, hashes (``packaging`` for the requirement itself).
- :mod:`.dockerfile`: instructions with spans, parser directives, escape character, heredocs.
- :mod:`.yamlnodes`: YAML node trees with spans (ruamel.yaml's event stream), aliases and merge keys kept.
- :mod:`.tomldoc`: TOML documents (tomlkit) with the span of any key or value.

The token-based readers (CMake, Make, shell) also give ``tokens``: pieces whose texts concatenate to the input.
"""

from cuda2rocm.source.formats._base import Piece, Problem

__all__ = ["Piece", "Problem"]
