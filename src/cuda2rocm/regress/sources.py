"""Read tensors one at a time from captures, .safetensors, .npz, .pt and raw binary dumps.

Every source lists its tensors in order (a capture: execution order from its manifest) and loads one
tensor at a time as a flat numpy array of its storage dtype, so a comparison holds at most one tensor
per side. safetensors files are validated with the reference reader (``safe_open``) and then mapped
with ``numpy.memmap`` (BF16/FP8 have no numpy dtype, so they are read as raw bits).
"""

from __future__ import annotations

import json
import struct
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cuda2rocm.regress.dtypes import DTYPES, Array, canonical, from_numpy
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.manifest import MANIFEST, TENSORS, read_manifest
from cuda2rocm.results.regress import Entry, Manifest


@dataclass
class Source:
    path: str
    entries: tuple[Entry, ...]
    loader: Callable[[str], Array]
    manifest: Manifest | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def load(self, name: str) -> Array:
        return self.loader(name)


def open_source(path: str | Path) -> Source:
    """Open any supported tensor container; raises :class:`RegressInputError` naming the file."""
    p = Path(path)
    if p.is_dir():
        return _capture(p)
    if not p.exists():
        raise RegressInputError(str(p), "no such file or directory")
    if p.name == MANIFEST:
        return _capture(p.parent)
    sidecar = _sidecar(p)
    if sidecar is not None:
        return _raw(p, sidecar)
    opener = _BY_SUFFIX.get(p.suffix.lower())
    if opener is None:
        raise RegressInputError(str(p), "unsupported file type (want a capture directory, .safetensors, "
                                ".npz, .pt/.pth, or a raw dump with a .json sidecar)")
    return opener(p)


def _capture(d: Path) -> Source:
    manifest = read_manifest(d / MANIFEST)
    inner = _safetensors(d / TENSORS)
    header = {e.name: e for e in inner.entries}
    for e in manifest.entries:
        got = header.get(e.name)
        if got is None:
            raise RegressInputError(str(d / MANIFEST), f"manifest lists {e.name!r}, {TENSORS} lacks it")
        if (got.dtype, got.shape) != (canonical(e.dtype), e.shape):
            raise RegressInputError(str(d / MANIFEST), f"{e.name!r}: manifest says {e.dtype}{list(e.shape)}, "
                                    f"{TENSORS} holds {got.dtype}{list(got.shape)}")
    extra = sorted(set(header) - {e.name for e in manifest.entries})
    if extra:
        raise RegressInputError(str(d / MANIFEST), f"{TENSORS} holds tensors the manifest lacks: {extra[:5]}")
    return Source(str(d), manifest.entries, inner.loader, manifest)


def _safetensors(p: Path) -> Source:
    header, data_start = _safetensors_header(p)
    _validate_with_reference(p)
    entries, spans = [], {}
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        try:
            dtype, shape = canonical(info["dtype"]), tuple(int(x) for x in info["shape"])
        except ValueError as exc:
            raise RegressInputError(str(p), f"{name}: {exc}") from None
        entries.append(Entry(name, dtype, shape))
        spans[name] = (data_start + info["data_offsets"][0], data_start + info["data_offsets"][1], dtype)

    def load(name: str) -> Array:
        start, end, dtype = spans[name]
        return _map(p, start, end - start).view(DTYPES[dtype].storage)

    return Source(str(p), tuple(entries), load)


def _safetensors_header(p: Path) -> tuple[dict[str, Any], int]:
    try:
        with p.open("rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                raise RegressInputError(str(p), "truncated safetensors file (no header length)")
            (n,) = struct.unpack("<Q", head)
            if n > p.stat().st_size - 8:
                raise RegressInputError(str(p), f"corrupt or truncated safetensors: header length {n} "
                                        f"exceeds the file size {p.stat().st_size}")
            raw = json.loads(fh.read(n))
    except OSError as exc:
        raise RegressInputError(str(p), f"cannot read: {exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise RegressInputError(str(p), "corrupt safetensors header (not JSON)") from None
    raw.pop("__metadata__", None)
    return raw, 8 + n


def _validate_with_reference(p: Path) -> None:
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(p), framework="numpy") as f:
            for key in f.keys():  # noqa: SIM118 - safe_open has no __iter__
                f.get_slice(key).get_shape()
    except (SafetensorError, OSError, ValueError) as exc:
        raise RegressInputError(str(p), f"corrupt or truncated safetensors: {exc}") from None


def _npz(p: Path) -> Source:
    try:
        archive = np.load(p, allow_pickle=False)
        names = list(archive.files)
        with zipfile.ZipFile(p) as z:
            shapes = {n: _npy_header(z, n) for n in names}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise RegressInputError(str(p), f"corrupt .npz: {exc}") from None
    try:
        entries = tuple(Entry(n, from_numpy(shapes[n][0]), shapes[n][1]) for n in names)
    except ValueError as exc:
        raise RegressInputError(str(p), f"unsupported array ({exc}; object arrays are never loaded)") from None

    def load(name: str) -> Array:
        try:
            return np.ascontiguousarray(archive[name]).reshape(-1)
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise RegressInputError(str(p), f"{name}: cannot read ({exc})") from None

    return Source(str(p), entries, load)


def _npy_header(z: zipfile.ZipFile, name: str) -> tuple[np.dtype[Any], tuple[int, ...]]:
    with z.open(name + ".npy") as fh:
        version = np.lib.format.read_magic(fh)
        reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = reader(fh)
    return dtype, tuple(shape)


def _pt(p: Path) -> Source:
    from cuda2rocm.regress.torchio import load_pt

    tensors = load_pt(p)
    entries = tuple(Entry(n, dt, shape) for n, (dt, shape, _) in tensors.items())
    return Source(str(p), entries, lambda name: tensors[name][2])


def _sidecar(p: Path) -> Path | None:
    for cand in (p.with_name(p.name + ".json"), p.with_suffix(".json")):
        if cand != p and cand.is_file() and p.suffix.lower() not in (".safetensors", ".npz", ".pt", ".pth"):
            return cand
    return None


def _raw(p: Path, sidecar: Path) -> Source:
    try:
        spec = json.loads(sidecar.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RegressInputError(str(sidecar), f"cannot read sidecar: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RegressInputError(str(sidecar), f"malformed sidecar JSON: {exc.msg}", exc.lineno) from None
    if not isinstance(spec, dict):
        raise RegressInputError(str(sidecar), "sidecar must be a JSON object with dtype and shape (or 'tensors')")
    items: list[Any] = list(spec["tensors"]) if "tensors" in spec else [{"name": p.stem, **spec}]
    size = p.stat().st_size
    entries, spans = [], {}
    offset = 0
    for i, item in enumerate(items):
        name, dtype, shape, start, nbytes = _raw_item(item, i, offset, str(sidecar))
        if start + nbytes > size:
            raise RegressInputError(str(p), f"{name}: needs bytes {start}..{start + nbytes}, file has {size}")
        entries.append(Entry(name, dtype, shape))
        spans[name] = (start, nbytes, dtype, bool(item.get("big_endian", False)), element_count(shape))
        offset = start + nbytes
    return Source(str(p), tuple(entries), lambda name: _raw_view(p, *spans[name]))


def _raw_item(item: Any, i: int, offset: int, where: str) -> tuple[str, str, tuple[int, ...], int, int]:
    try:
        if not isinstance(item, dict):
            raise TypeError("not an object")
        dtype = canonical(str(item["dtype"]))
        shape = tuple(int(x) for x in item["shape"])
        start = int(item.get("offset", offset))
    except (KeyError, TypeError, ValueError) as exc:
        raise RegressInputError(where, f"tensor {i}: needs dtype and shape ({exc})") from None
    count = int(np.prod(shape, dtype=np.int64))
    nbytes = (count + 1) // 2 if DTYPES[dtype].bits == 4 else count * np.dtype(DTYPES[dtype].storage).itemsize
    return str(item.get("name", f"tensor{i}")), dtype, shape, start, nbytes


def _map(p: Path, start: int, nbytes: int) -> Array:
    """Map one tensor's bytes; the mapping (and its resident pages) goes away with the array."""
    if nbytes == 0:
        return np.zeros(0, np.uint8)
    return np.memmap(p, dtype=np.uint8, mode="r", offset=start, shape=(nbytes,))


def _raw_view(p: Path, start: int, nbytes: int, dtype: str, big_endian: bool, count: int) -> Array:
    raw = _map(p, start, nbytes)
    if DTYPES[dtype].bits == 4:
        return _unpack_int4(raw, dtype)[:count]
    arr = raw.view(DTYPES[dtype].storage)
    return arr.byteswap() if big_endian else arr


def _unpack_int4(raw: Array, dtype: str) -> Array:
    """Two values per byte, low nibble first; I4 is two's complement."""
    low = (raw & 0x0F).astype(np.int8)
    high = (raw >> 4).astype(np.int8)
    out = np.stack([low, high], axis=1).reshape(-1)
    return np.where(out > 7, out - 16, out).astype(np.int8) if dtype == "I4" else out


_BY_SUFFIX: dict[str, Callable[[Path], Source]] = {
    ".safetensors": _safetensors, ".npz": _npz, ".pt": _pt, ".pth": _pt,
}


def element_count(shape: Sequence[int]) -> int:
    return int(np.prod(shape, dtype=np.int64))
