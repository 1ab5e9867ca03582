"""Typed values <-> plain JSON data, driven by the dataclasses' type hints (no per-class code).

``encode`` writes what ``report._data.to_data`` writes (enums as their strings, tuples as lists) and two things
strict JSON needs: non-finite floats as the strings ``"nan"``, ``"inf"``, ``"-inf"``, and mappings whose keys are
not strings (``FileStats.converted`` is keyed by ``(library, kind)``) as lists of ``[key, value]`` pairs.
``decode(tp, data)`` is its inverse, so ``decode(T, encode(x)) == x`` for every result type we record.

``decode`` never raises anything but :class:`DecodeError` (naming the JSON path of the bad part). With
``lenient=True`` (a payload written under another schema version) unknown keys are ignored and missing keys take
the field's default; a missing key without a default is still an error.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Mapping
from functools import cache
from pathlib import Path, PurePath
from typing import Any

from cuda2rocm.model import OMIT_NONE

_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class DecodeError(ValueError):
    """Payload data that does not fit the type it should decode to; ``where`` is a JSON path like ``$.files[3]``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where


def encode(value: Any) -> Any:
    """Plain JSON data (strict: no NaN) of a result value, dataclass fields in declaration order."""
    if isinstance(value, enum.Enum):
        return str(value)
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, PurePath):
        return value.as_posix()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get(OMIT_NONE) and getattr(value, f.name) is None)}  # as report/_data does
    if isinstance(value, Mapping):
        if all(isinstance(k, str) for k in value):
            return {k: encode(v) for k, v in value.items()}
        return [[encode(k), encode(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    raise TypeError(f"cannot encode {type(value).__name__} as JSON data")


def decode(tp: Any, data: Any, *, lenient: bool = False) -> Any:
    """The value of type ``tp`` that ``data`` (from :func:`encode`) describes."""
    return _decode(tp, data, "$", lenient)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, data: Any, where: str, lenient: bool) -> Any:
    if tp is Any:
        return data
    if tp is type(None):
        if data is not None:
            raise DecodeError(where, f"expected null, got {_what(data)}")
        return None
    if tp is bool:
        return _scalar(bool, data, where)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise DecodeError(where, f"expected an integer, got {_what(data)}")
        return data
    if tp is float:
        return _float(data, where)
    if tp is str:
        return _scalar(str, data, where)
    if tp in (dict, list):
        if not isinstance(data, tp):
            raise DecodeError(where, f"expected {'an object' if tp is dict else 'an array'}, got {_what(data)}")
        return data
    if tp in (Path, PurePath):
        return Path(_scalar(str, data, where))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum(tp, data, where)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp, data, where, lenient)
    return _generic(tp, data, where, lenient)


def _scalar(tp: type, data: Any, where: str) -> Any:
    if not isinstance(data, tp):
        raise DecodeError(where, f"expected {tp.__name__}, got {_what(data)}")
    return data


def _float(data: Any, where: str) -> float:
    if isinstance(data, str) and data in _NONFINITE:
        return _NONFINITE[data]
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise DecodeError(where, f"expected a number, got {_what(data)}")
    return float(data)


def _enum(tp: type[enum.Enum], data: Any, where: str) -> enum.Enum:
    for member in tp:
        if str(member) == data:
            return member
    raise DecodeError(where, f"{data!r} is not one of {', '.join(str(m) for m in tp)}")


def _dataclass(cls: type, data: Any, where: str, lenient: bool) -> Any:
    if not isinstance(data, dict):
        raise DecodeError(where, f"expected an object for {cls.__name__}, got {_what(data)}")
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    known = {f.name for f in fields}
    extra = sorted(set(data) - known)
    if extra and not lenient:
        raise DecodeError(where, f"unknown keys for {cls.__name__}: {', '.join(extra)}")
    kwargs: dict[str, Any] = {}
    for f in fields:
        if f.name in data:
            kwargs[f.name] = _decode(hints[f.name], data[f.name], f"{where}.{f.name}", lenient)
        elif f.metadata.get(OMIT_NONE):
            continue  # written only when set
        elif not lenient or (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING):
            raise DecodeError(where, f"missing key {f.name!r} of {cls.__name__}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise DecodeError(where, f"invalid {cls.__name__}: {exc}") from None


def _generic(tp: Any, data: Any, where: str, lenient: bool) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union(args, data, where, lenient)
    if origin in (tuple, list):
        if not isinstance(data, list):
            raise DecodeError(where, f"expected an array, got {_what(data)}")
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            item = args[0] if args else Any
            items = [_decode(item, v, f"{where}[{i}]", lenient) for i, v in enumerate(data)]
        else:
            if len(data) != len(args):
                raise DecodeError(where, f"expected {len(args)} items, got {len(data)}")
            items = [_decode(a, v, f"{where}[{i}]", lenient) for i, (a, v) in enumerate(zip(args, data, strict=True))]
        return items if origin is list else tuple(items)
    if origin in (dict, Mapping):
        return _mapping(args, data, where, lenient)
    raise DecodeError(where, f"no decoding for type {tp!r}")


def _union(args: tuple[Any, ...], data: Any, where: str, lenient: bool) -> Any:
    if data is None and type(None) in args:
        return None
    errors = []
    for arg in args:
        if arg is type(None):
            continue
        try:
            return _decode(arg, data, where, lenient)
        except DecodeError as exc:
            errors.append(str(exc))
    raise DecodeError(where, "matches none of the alternatives (" + "; ".join(errors) + ")")


def _mapping(args: tuple[Any, ...], data: Any, where: str, lenient: bool) -> dict[Any, Any]:
    key_tp, value_tp = args if args else (str, Any)
    if isinstance(data, dict):
        pairs = list(data.items())
    elif isinstance(data, list) and all(isinstance(p, list) and len(p) == 2 for p in data):
        pairs = [(p[0], p[1]) for p in data]
    else:
        raise DecodeError(where, f"expected an object or [key, value] pairs, got {_what(data)}")
    out: dict[Any, Any] = {}
    for i, (k, v) in enumerate(pairs):
        key = _decode(key_tp, k, f"{where}<key {i}>", lenient)
        out[key] = _decode(value_tp, v, f"{where}[{k!r}]", lenient)
    return out


def _what(data: Any) -> str:
    if data is None:
        return "null"
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(data), type(data).__name__)
