"""``cuda2rocm evidence import``: bring results made on another machine (the CUDA baseline on the NVIDIA box,
the ROCm run on the AMD box) into a workspace's records.

What is imported, file by file (a folder is walked; a ``.tar.gz`` is read as the folder it holds):

- a result envelope (``cuda2rocm --record``): validated by :func:`cuda2rocm.envelope.load`;
- a raw result file of a known kind, converted by that kind's own loader into an envelope:
  an ``env`` fingerprint JSON (``"schema": "cuda2rocm.env/1"``), a ``comm`` JSONL (a ``comm-run`` header line;
  :func:`cuda2rocm.perf.commrun.load`), a capture folder (``manifest.json`` of format ``cuda2rocm-capture``;
  :func:`cuda2rocm.regress.manifest.read_manifest`, its files kept as artifacts) and a ``smoke --json`` report.
  The converted envelope's time is the one the file records (``collected_at``, ``recorded_at``, ``created``),
  its tool version the one that wrote it, its exit status ``null`` (not known), its machine the fingerprint id
  of the fingerprint the file carries.

Every imported envelope gets ``origin`` (machine id and host where known, the file it came from, when). Its
record name is :func:`cuda2rocm.envelope.record_name` of the envelope *without* the origin, so importing the
same content again is recognised (``already``) and never duplicated. A file that is not valid is ``failed``
with its message and the others are still imported; in a folder, files of no known kind are ``skipped``.
"""

from __future__ import annotations

import json
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cuda2rocm import envelope
from cuda2rocm.envelope import Envelope, EnvelopeError, Origin, Project, Tool
from cuda2rocm.workspace.recorder import keep_artifacts
from cuda2rocm.workspace.store import records_dir

UNKNOWN_TIME = "1970-01-01T00:00:00.000Z"  # a raw file that records no time


@dataclass(frozen=True)
class Imported:
    source: str  # the file (or folder) as found
    status: str  # imported | already | skipped | failed
    kind: str = ""
    record: str = ""  # the record file in the workspace
    message: str = ""


class NotEvidence(EnvelopeError):
    """A file of no kind ``evidence import`` knows."""


def import_paths(workspace: Path, paths: list[Path]) -> list[Imported]:
    """Import every path (a file, a folder, an archive) into ``workspace``; one :class:`Imported` per result."""
    out: list[Imported] = []
    for path in paths:
        if path.is_file() and path.name.endswith((".tar.gz", ".tgz")):
            out.extend(_archive(workspace, path))
        elif path.is_dir():
            out.extend(_folder(workspace, path, str(path)))
        else:
            out.append(_one(workspace, path, str(path), explicit=True))
    return out


def _archive(workspace: Path, path: Path) -> list[Imported]:
    with tempfile.TemporaryDirectory(prefix="c2r-import-") as tmp:
        try:
            with tarfile.open(path) as tar:
                tar.extractall(tmp, filter="data")
        except (OSError, tarfile.TarError) as exc:
            return [Imported(str(path), "failed", message=f"{path}: cannot read the archive: {exc}")]
        return _folder(workspace, Path(tmp), f"{path}!", strip=Path(tmp))


def _folder(workspace: Path, root: Path, shown: str, strip: Path | None = None) -> list[Imported]:
    out = []
    for item in _candidates(root):
        name = f"{shown}{item.relative_to(strip).as_posix()}" if strip is not None else str(item)
        out.append(_one(workspace, item, name, explicit=False))
    return out


def _candidates(root: Path) -> Iterator[Path]:
    """Capture folders (as one item) and ``.json``/``.jsonl`` files, in name order; nothing inside a capture."""
    if (root / "manifest.json").is_file() and _is_capture(root / "manifest.json"):
        yield root
        return
    for child in sorted(root.iterdir()):
        if child.is_dir() and not child.is_symlink() and child.name != ".cuda2rocm":
            yield from _candidates(child)
        elif child.is_file() and child.suffix in (".json", ".jsonl"):
            yield child


def _is_capture(manifest: Path) -> bool:
    try:
        data = json.loads(manifest.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(data, dict) and data.get("format") == "cuda2rocm-capture"


def _one(workspace: Path, path: Path, shown: str, *, explicit: bool) -> Imported:
    try:
        env, base = _convert(path, shown)
    except NotEvidence as exc:
        return Imported(shown, "failed" if explicit else "skipped", message=str(exc))
    except EnvelopeError as exc:
        return Imported(shown, "failed", message=str(exc))
    return _store(workspace, env, shown, base)


def _store(workspace: Path, env: Envelope, shown: str, base: Path | None) -> Imported:
    plain = replace(env, origin=None)
    name = envelope.record_name(plain)
    folder = records_dir(workspace)
    target = folder / name
    if target.exists():
        return Imported(shown, "already", env.kind, str(target))
    origin = env.origin or Origin(env.machine, _host(env), shown, envelope.now())
    if base is not None:  # a converted capture: its files, named relative to the folder above it
        keep_artifacts(workspace, [replace(a, path=str(base / a.path)) for a in env.artifacts])
    folder.mkdir(parents=True, exist_ok=True)
    envelope.write(replace(env, origin=origin), target, force=False)
    return Imported(shown, "imported", env.kind, str(target))


def _host(env: Envelope) -> str:
    result = env.result
    if env.kind == "env" and isinstance(result, dict):
        return str(result.get("host", ""))
    if env.kind == "comm" and result is not None:
        return str(result.header.get("env", {}).get("host", ""))
    if env.kind == "capture" and result is not None:
        return str(result.fingerprint.get("envinfo", {}).get("host", ""))
    return ""


def to_envelope(path: Path, shown: str = "") -> Envelope:
    """``path`` as an envelope: an envelope file as it is, a known raw result converted. Raises
    :class:`EnvelopeError` (for a file of no known kind: :class:`NotEvidence`)."""
    return _convert(path, shown or str(path))[0]


def _convert(path: Path, shown: str) -> tuple[Envelope, Path | None]:
    """The envelope, and the folder its artifacts' paths are relative to (None: none to copy)."""
    if path.is_dir():
        if (path / "manifest.json").is_file():
            return _capture(path, shown)
        raise NotEvidence(f"{shown}: a folder without a capture manifest.json")
    if path.suffix == ".jsonl":
        return _comm(path, shown), None
    try:
        text = path.read_text("utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvelopeError(f"{shown}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise EnvelopeError(f"{shown}:{exc.lineno}: not JSON: {exc.msg}") from None
    if isinstance(data, dict) and "kind" in data and "payload" in data:
        env = envelope.from_data(data, shown)
        missing = [k for k in ("started_at", "payload_schema_version") if not getattr(env, k)]
        if missing or not env.tool.version:
            raise EnvelopeError(f"{shown}: an incomplete envelope (no {', '.join(missing) or 'tool version'})")
        return env, None
    if isinstance(data, dict) and data.get("schema") == "cuda2rocm.env/1":
        return _made("env", data, time=str(data.get("collected_at", "")), version=str(data.get("tool_version", "")),
                     machine=envelope.machine_id(data)), None
    if isinstance(data, dict) and data.get("format") == "cuda2rocm-capture":
        return _capture(path.parent, shown)
    if isinstance(data, dict) and {"device", "forward", "ops", "amp"} <= data.keys():
        from cuda2rocm.envelope.codec import DecodeError, decode
        from cuda2rocm.results.regress import SmokeReport

        try:
            report = decode(SmokeReport, data, lenient=True)  # smoke --json adds its findings beside the report
        except DecodeError as exc:
            raise EnvelopeError(f"{shown}: not a smoke report: {exc}") from None
        return _made("smoke", report), None
    raise NotEvidence(f"{shown}: not a result envelope or a raw result of a known kind (env fingerprint, comm "
                      "JSONL, capture, smoke report)")


def _comm(path: Path, shown: str) -> Envelope:
    from cuda2rocm.perf.commrun import load

    run, problems = load(path)
    if not run.header:
        raise NotEvidence(f"{shown}: a JSONL file without a comm-run header line")
    if problems:
        raise EnvelopeError(f"{shown}: {problems[0]}")
    env = run.header.get("env")
    fp = env if isinstance(env, dict) else {}
    return _made("comm", run, time=str(fp.get("recorded_at", "")), version=str(fp.get("tool_version", "")),
                 machine=envelope.machine_id(fp) if fp else None)


def _capture(folder: Path, shown: str) -> tuple[Envelope, Path]:
    from cuda2rocm.regress.errors import RegressInputError
    from cuda2rocm.regress.manifest import read_manifest

    try:
        manifest = read_manifest(folder / "manifest.json")
    except RegressInputError as exc:
        raise EnvelopeError(str(exc)) from None
    fp = manifest.fingerprint.get("envinfo")
    machine = envelope.machine_id(fp) if isinstance(fp, dict) and fp.get("schema") else None
    version = str(fp.get("tool_version", "")) if isinstance(fp, dict) else ""
    base = folder.resolve().parent
    # named relative to the folder above the capture (``gpu-float32/tensors.safetensors``): the same content
    # gets the same record wherever it was unpacked
    arts = tuple(replace(a, path=Path(a.path).relative_to(base).as_posix())
                 for a in envelope.artifacts_of("output", folder.resolve()))
    return _made("capture", manifest, time=manifest.created, version=version, machine=machine, artifacts=arts), base


def _made(kind: str, payload: Any, *, time: str = "", version: str = "", machine: str | None = None,
          artifacts: tuple[envelope.Artifact, ...] = ()) -> Envelope:
    stamp = _stamp(time)
    env = envelope.make(kind, payload, started_at=stamp, finished_at=stamp, project=Project(), machine=machine,
                        artifacts=artifacts)
    return replace(env, tool=Tool(version=version or "unknown"))


def _stamp(text: str) -> str:
    import datetime as dt

    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return UNKNOWN_TIME
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.astimezone(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
