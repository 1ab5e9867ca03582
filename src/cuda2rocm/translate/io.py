"""Reading sources as text: ``cuda2rocm.fsio``'s reader, under the names the translation's modules use."""

from __future__ import annotations

from cuda2rocm.fsio import InputError, decode, read_source

__all__ = ["InputError", "decode", "read_source"]
