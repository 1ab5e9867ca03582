"""The envelope itself: its types, making, writing and loading one (see :mod:`cuda2rocm.envelope`, which
re-exports every public name here; a CLI run that records nowhere never imports this module)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cuda2rocm import __version__
from cuda2rocm.envelope import kinds
from cuda2rocm.envelope._base import folder_of, now
from cuda2rocm.envelope._git import git_commit
from cuda2rocm.envelope.codec import DecodeError, decode, encode

#: the envelope's own schema version; a loader reads every 1.x envelope
SCHEMA_VERSION = "1.1"
TOOL_NAME = "cuda2rocm"
MAX_BYTES = 256 << 20

_KEYS = ("kind", "schema_version", "payload_schema_version", "tool", "command_line", "started_at", "finished_at",
         "exit_status", "project", "machine", "payload", "artifacts", "origin")


class EnvelopeError(ValueError):
    """Not a cuda2rocm result envelope (or one of an envelope schema this tool cannot read)."""


class PayloadError(EnvelopeError):
    """An envelope whose payload does not decode to its kind's type."""


@dataclass(frozen=True)
class Tool:
    name: str = TOOL_NAME
    version: str = __version__


@dataclass(frozen=True)
class Project:
    path: str = ""
    git_commit: str | None = None


@dataclass(frozen=True)
class Artifact:
    """A file a result was computed from (a capture's tensors, a bench trace), by content hash. ``role`` says
    which input it was (``baseline``, ``candidate``, ``output``); ``path`` is where it was read (absolute)."""

    role: str
    path: str
    sha256: str
    bytes: int = 0


@dataclass(frozen=True)
class Origin:
    """Where an imported envelope was made: the machine fingerprint id and host (where known), the file it was
    imported from, and when."""

    machine: str | None = None
    host: str = ""
    source: str = ""
    imported_at: str = ""


@dataclass(frozen=True)
class Envelope:
    kind: str
    payload_schema_version: str
    payload: Any  # the payload as plain JSON data
    tool: Tool = Tool()
    command_line: tuple[str, ...] = ()
    started_at: str = ""
    finished_at: str = ""
    exit_status: int | None = None
    project: Project = Project()
    machine: str | None = None
    schema_version: str = SCHEMA_VERSION
    artifacts: tuple[Artifact, ...] = ()
    origin: Origin | None = None
    result: Any = field(default=None, compare=False)  # the typed payload (None when it could not be decoded)
    stale: bool = False  # written under another payload schema version (or a kind this tool does not know)
    problems: tuple[str, ...] = ()  # why stale, why not decoded

    @property
    def from_other_version(self) -> bool:
        return self.tool.version != __version__

    def require(self) -> Any:
        """The typed result, or :class:`PayloadError` saying why there is none."""
        if self.result is None and self.payload is not None:
            raise PayloadError("; ".join(self.problems) or f"{self.kind}: payload not decoded")
        return self.result

    def to_data(self) -> dict[str, Any]:
        data = {
            "kind": self.kind, "schema_version": self.schema_version,
            "payload_schema_version": self.payload_schema_version,
            "tool": {"name": self.tool.name, "version": self.tool.version},
            "command_line": list(self.command_line), "started_at": self.started_at,
            "finished_at": self.finished_at, "exit_status": self.exit_status,
            "project": {"path": self.project.path, "git_commit": self.project.git_commit},
            "machine": self.machine, "payload": self.payload,
        }
        if self.artifacts:
            data["artifacts"] = encode(self.artifacts)
        if self.origin is not None:
            data["origin"] = encode(self.origin)
        return data


def project_of(path: str | Path = ".") -> Project:
    """The project at ``path``: its absolute path and the git commit it is checked out at (if any)."""
    folder = folder_of(path)
    return Project(folder, git_commit(folder))


def machine_id(fingerprint: Mapping[str, Any]) -> str:
    """A stable id of a machine fingerprint (``env`` or bench's), ignoring what changes on every run."""
    from cuda2rocm.envinfo.diff import IGNORED

    volatile = (*IGNORED, "recorded_at", "fingerprint_source")
    stable = {k: v for k, v in fingerprint.items() if k not in volatile}
    digest = hashlib.sha256(json.dumps(encode(stable), sort_keys=True).encode("utf-8")).hexdigest()
    return f"fp-{digest[:16]}"


def make(kind: str, payload: Any, *, command_line: Sequence[str] = (), started_at: str = "", finished_at: str = "",
         exit_status: int | None = None, project: Project | None = None, machine: str | None = None,
         artifacts: Sequence[Artifact] = (), origin: Origin | None = None) -> Envelope:
    """The envelope of ``payload`` (an instance of the kind's type; ``None`` when the run produced nothing)."""
    k = kinds.get(kind)
    if payload is not None:
        tp = k.payload_type()
        if not isinstance(payload, tp):
            raise TypeError(f"a {kind!r} payload is a {tp.__name__}, not {type(payload).__name__}")
    stamp = now()
    return Envelope(kind, k.version, encode(payload), Tool(), tuple(command_line), started_at or stamp,
                    finished_at or stamp, exit_status, project or Project(), machine, artifacts=tuple(artifacts),
                    origin=origin, result=payload)


def dumps(envelope: Envelope) -> str:
    return json.dumps(envelope.to_data(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def dump(kind: str, payload: Any, **meta: Any) -> str:
    """JSON text of the envelope of ``payload`` (``meta``: the keyword arguments of :func:`make`)."""
    return dumps(make(kind, payload, **meta))


def record(kind: str, payload: Any, path: str | Path, *, force: bool = True, **meta: Any) -> Path:
    """Write the envelope atomically to ``path``; a folder gets ``<start>-<kind>-<hash>.json`` inside it."""
    return write(make(kind, payload, **meta), path, force=force)


def record_name(env: Envelope, text: str | None = None) -> str:
    """The file name an envelope gets in a folder: ``<start time>-<kind>-<sha256 of its text, 8 hex>.json``."""
    stamp = env.started_at.replace("-", "").replace(":", "").replace(".", "")
    digest = hashlib.sha256((text if text is not None else dumps(env)).encode("utf-8")).hexdigest()[:8]
    return f"{stamp}-{env.kind}-{digest}.json"


def write(env: Envelope, path: str | Path, *, force: bool = True) -> Path:
    """Write ``env`` atomically to ``path``; a folder gets :func:`record_name` inside it."""
    from cuda2rocm.fsio import write_text_atomic

    text = dumps(env)
    target = Path(path)
    if target.is_dir():
        target = target / record_name(env, text)
    write_text_atomic(target, text, force=force)
    return target


def load(source: str | bytes | Path) -> Envelope:
    """An envelope from JSON text or a file (a ``Path``, or a ``str`` that does not start with ``{`` or ``[``)."""
    where = "<text>"
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith(("{", "["))):
        where = str(source)
        try:
            if Path(source).stat().st_size > MAX_BYTES:
                raise EnvelopeError(f"{where}: larger than {MAX_BYTES >> 20} MiB; not a result envelope")
            source = Path(source).read_bytes()
        except OSError as exc:
            raise EnvelopeError(f"{where}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(source)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = f":{exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise EnvelopeError(f"{where}{line}: not JSON: {exc}") from None
    return from_data(data, where)


def from_data(data: Any, where: str = "<data>") -> Envelope:
    if not isinstance(data, dict) or "kind" not in data or "payload" not in data:
        raise EnvelopeError(f"{where}: not a cuda2rocm result envelope (no \"kind\" and \"payload\")")
    version = str(data.get("schema_version", ""))
    if version.split(".")[0] != SCHEMA_VERSION.split(".")[0]:
        raise EnvelopeError(f"{where}: envelope schema {version or '(none)'}; this cuda2rocm reads "
                            f"{SCHEMA_VERSION.split('.')[0]}.x (written by {_tool_text(data)})")
    try:
        env = _header(data)
    except DecodeError as exc:
        raise EnvelopeError(f"{where}: malformed envelope: {exc}") from None
    return _with_result(env, where)


def _header(data: dict[str, Any]) -> Envelope:
    """The envelope's own fields decoded (the payload kept as plain data); a missing tool is an unknown one."""
    meta = {k: data[k] for k in _KEYS if k in data}
    meta.setdefault("payload_schema_version", "")
    meta.setdefault("tool", {"name": "", "version": ""})
    return decode(Envelope, meta, lenient=True)


def _with_result(env: Envelope, where: str) -> Envelope:
    k = kinds.KINDS.get(env.kind)
    if k is None:
        return replace(env, stale=True, problems=(f"{where}: unknown result kind {env.kind!r} "
                                                  f"(written by cuda2rocm {env.tool.version})",))
    if env.payload is None:
        return env
    stale = env.payload_schema_version != k.version
    try:
        value = decode(k.payload_type(), env.payload, lenient=stale)
        if k.check is not None:
            k.check(value)
    except DecodeError as exc:
        message = f"{where}: {env.kind} payload: {exc}"
        if not stale:
            raise PayloadError(message) from None
        return replace(env, stale=True, problems=(f"{message} (payload schema {env.payload_schema_version}, "
                                                  f"this cuda2rocm reads {k.version})",))
    problems = (f"{where}: {env.kind} payload schema {env.payload_schema_version}, this cuda2rocm writes "
                f"{k.version}; loaded leniently",) if stale else ()
    return replace(env, result=value, stale=stale, problems=problems)


def _tool_text(data: dict[str, Any]) -> str:
    tool = data.get("tool")
    return f"cuda2rocm {tool.get('version', '?')}" if isinstance(tool, dict) else "an unknown tool"


@dataclass(frozen=True)
class Ended:
    """A finished CLI run: its envelope, and where it is to be written (``record_to``: ``--record``; ``workspace``:
    the records of the workspace around ``project``, unless ``--no-record``)."""

    envelope: Envelope
    record_to: Path | None
    workspace: bool


def artifacts_of(role: str, path: Path) -> list[Artifact]:
    """``path`` (a file, or every file under a folder, in name order) as artifacts; what cannot be read is left
    out (a record never fails for an artifact)."""
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else []
    out = []
    for f in files:
        try:
            digest, size = _sha256_file(f)
        except OSError:
            continue
        out.append(Artifact(role, f.resolve().as_posix(), digest, size))
    return out


def _sha256_file(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size
