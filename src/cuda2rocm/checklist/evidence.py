"""The evidence a workspace holds, read once: every record (typed where this tool can decode it), the records
that would not load, the machines the records name, and the workspace's settings.

Records are read only through :mod:`cuda2rocm.workspace.store`. A record is :class:`Rec`: its envelope plus
:class:`Ref`, the link a report shows (record file, command line, time, machine, tool version). Payloads of kinds
this tool version does not know (``migrate-build`` and ``migrate-deploy`` before their commands record) load as
stale with the raw JSON in ``payload``: the rules read those kinds from the raw payload only, so they decide the
same before and after the kind is registered.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from cuda2rocm.envelope import Envelope, machine_id
from cuda2rocm.workspace.store import CONFIG_NAME, Stored, load_records


@dataclass(frozen=True)
class Ref:
    """A link to one evidence record."""

    path: str  # the record file, relative to the workspace
    kind: str
    command_line: tuple[str, ...]
    started_at: str
    machine: str | None
    tool_version: str
    exit_status: int | None
    stale: bool = False
    problems: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        return " ".join(self.command_line) or f"({self.kind} record)"


@dataclass(frozen=True)
class Unreadable:
    """A record file that is not an envelope this tool reads."""

    path: str
    error: str


@dataclass(frozen=True)
class Rec:
    ref: Ref
    envelope: Envelope

    @property
    def kind(self) -> str:
        return self.envelope.kind

    @property
    def result(self) -> Any:
        """The typed payload, None when it could not be decoded (or the kind is unknown here)."""
        return self.envelope.result

    @property
    def payload(self) -> Any:
        """The payload as JSON data, for every record (also of kinds this tool does not know)."""
        return self.envelope.payload

    @property
    def stale(self) -> bool:
        return self.envelope.stale

    @property
    def crashed(self) -> bool:
        """The run ended with an input/usage error (exit 2) or produced no result at all."""
        return self.envelope.payload is None or self.envelope.exit_status == 2


@dataclass(frozen=True)
class Settings:
    """What the workspace's ``cuda2rocm.toml`` says that the report uses."""

    target_gpu: str = ""
    target_rocm: str = ""
    target_os: str = ""
    dual_platform: bool = False
    thresholds: tuple[str, ...] = ()  # [performance] thresholds: bench compare runs are judged under these
    source: str = ""  # the file read ("" when none)
    problem: str = ""  # why it could not be read


@dataclass(frozen=True)
class Side:
    """Where one side (baseline or candidate) of a comparison ran, read from its recorded inputs."""

    platform: str  # cuda (an NVIDIA GPU) | rocm (an AMD GPU) | cpu | "" (not recorded)
    device: str  # what it ran on, for a reason ("NVIDIA H200", "cpu")

    def __str__(self) -> str:
        if not self.platform:
            return "an unrecorded device"
        if self.platform == "cpu":
            return "CPU"
        return f"{self.device or 'a GPU'} ({'CUDA' if self.platform == 'cuda' else 'ROCm'})"


@dataclass
class Evidence:
    root: Path
    records: list[Rec] = field(default_factory=list)  # oldest first
    unreadable: list[Unreadable] = field(default_factory=list)
    settings: Settings = Settings()

    def of(self, *kinds: str) -> list[Rec]:
        """The records of ``kinds``, oldest first."""
        return [r for r in self.records if r.kind in kinds]

    def latest(self, *kinds: str) -> Rec | None:
        found = self.of(*kinds)
        return found[-1] if found else None

    @cached_property
    def fingerprints(self) -> dict[str, Mapping[str, Any]]:
        """Machine id -> fingerprint, from ``env`` records (and the ``env`` that bench and comm records carry);
        computed once, when the records are all read."""
        out: dict[str, Mapping[str, Any]] = {}
        for r in self.of("env", "bench-run", "comm"):
            for fp in _fingerprints_in(r):
                out.setdefault(r.ref.machine or machine_id(fp), fp)
                out.setdefault(machine_id(fp), fp)
        return out

    def platform(self, rec: Rec) -> str:
        """``cuda``, ``rocm`` or ``""`` (unknown): the platform of the machine a record was made on."""
        if rec.kind == "comm" and isinstance(rec.payload, dict):
            return comm_platform(rec.payload.get("header") or {})
        if rec.kind == "env" and isinstance(rec.payload, dict):
            return fingerprint_platform(rec.payload)
        fp = self.fingerprints.get(rec.ref.machine or "")
        return fingerprint_platform(fp) if fp is not None else ""

    @cached_property
    def _captures(self) -> dict[str, Mapping[str, Any]]:
        """sha256 of a capture's ``manifest.json`` -> the manifest (the capture record's payload)."""
        out: dict[str, Mapping[str, Any]] = {}
        for r in self.of("capture"):
            if isinstance(r.payload, dict):
                for art in r.envelope.artifacts:
                    if art.path.endswith("manifest.json"):
                        out[art.sha256] = r.payload
        return out

    def side(self, rec: Rec, role: str) -> Side:
        """Where the ``role`` side (``baseline`` / ``candidate``) of a compare or bench-compare record ran: from
        the capture manifest among its artifacts (the capture record with the same sha256, else the workspace's
        stored copy), or the fingerprint in a bench JSONL file it read. Unknown (``""``) when none says."""
        for art in rec.envelope.artifacts:
            if art.role != role:
                continue
            manifest = self._captures.get(art.sha256)
            data = manifest if manifest is not None else _stored(self.root, art.sha256)
            found = _side_of(data)
            if found is not None:
                return found
        return Side("", "")


_STORED_LIMIT = 4 << 20  # bytes of a stored artifact read to find a manifest or a fingerprint


def _stored(root: Path, sha256: str) -> Any:
    """The JSON of a stored artifact (a manifest), or its JSONL lines (bench records); None when neither."""
    path = root / ".cuda2rocm" / "artifacts" / sha256
    try:
        if path.stat().st_size > _STORED_LIMIT:
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


def _side_of(data: Any) -> Side | None:
    """A capture manifest's device and backend, or the first fingerprint (``env``) of bench JSONL records."""
    if isinstance(data, dict) and ("device" in data or data.get("format") == "cuda2rocm-capture"):
        fp: dict[str, Any] = data["fingerprint"] if isinstance(data.get("fingerprint"), dict) else {}
        if not str(data.get("device", "")).startswith("cuda"):
            return Side("cpu", str(data.get("device") or "cpu"))
        backend = str(fp.get("backend") or "")
        return Side(backend if backend in ("cuda", "rocm") else "", str(fp.get("device_name") or ""))
    for line in data if isinstance(data, list) else [data]:
        env = line.get("env") if isinstance(line, dict) else None
        if isinstance(env, dict):
            gpus = [str(g.get("name", "")) for g in env.get("gpus") or [] if isinstance(g, dict)]
            platform = fingerprint_platform(env)
            return Side(platform or ("cpu" if not gpus else ""), gpus[0] if gpus else "")
    return None


def fingerprint_platform(fp: Mapping[str, Any]) -> str:
    """``cuda`` or ``rocm`` from a full (``env``) or minimal (bench/comm) fingerprint, ``""`` when neither."""
    platform = fp.get("platform")
    if platform in ("cuda", "rocm"):
        return str(platform)
    if fp.get("hip") or fp.get("rocm"):
        return "rocm"
    if fp.get("cuda"):
        return "cuda"
    return ""


def comm_platform(header: Mapping[str, Any]) -> str:
    library = str(header.get("backend_library") or "").upper()
    if library == "RCCL":
        return "rocm"
    if library == "NCCL":
        env = header.get("env")
        return "rocm" if isinstance(env, dict) and env.get("hip") else "cuda"
    return ""


def _fingerprints_in(rec: Rec) -> Iterable[Mapping[str, Any]]:
    payload = rec.payload
    if rec.kind == "env" and isinstance(payload, dict):
        yield payload
    elif rec.kind == "comm" and isinstance(payload, dict):
        env = (payload.get("header") or {}).get("env")
        if isinstance(env, dict):
            yield env
    elif rec.kind == "bench-run" and isinstance(payload, list):
        for line in payload:
            if isinstance(line, dict) and isinstance(line.get("env"), dict):
                yield line["env"]
                break


def ref_of(stored: Stored, env: Envelope, root: Path) -> Ref:
    try:
        shown = stored.path.relative_to(root).as_posix()
    except ValueError:
        shown = stored.path.as_posix()
    # the record's own path is shown beside its problems: no (absolute) path inside them
    problems = tuple(p.replace(f"{stored.path}: ", "", 1).replace(str(stored.path), shown) for p in env.problems)
    return Ref(shown, env.kind, env.command_line, env.started_at, env.machine, env.tool.version, env.exit_status,
               env.stale, problems)


def read_settings(root: Path) -> Settings:
    """The settings the report needs, through the one workspace config loader (``workspace.config.load``:
    target GPU/ROCm/OS, dual platform); a file that cannot be read is a problem shown in the report, not an
    error."""
    from cuda2rocm.workspace import config

    path = root / CONFIG_NAME
    if not path.is_file():
        return Settings()
    try:
        cfg = config.load(path)
    except config.ConfigError as exc:
        return Settings(source=CONFIG_NAME, problem=f"{CONFIG_NAME}: cannot read: {exc}")
    return Settings(cfg.target_gpu, cfg.target_rocm, cfg.target_os, cfg.dual_platform, cfg.thresholds, CONFIG_NAME)


def collect(root: Path) -> Evidence:
    """Everything the workspace at ``root`` holds. Never raises for a bad record or settings file."""
    ev = Evidence(root, settings=read_settings(root))
    for stored in load_records(root):
        if stored.envelope is None:
            try:
                shown = stored.path.relative_to(root).as_posix()
            except ValueError:
                shown = stored.path.as_posix()
            error = stored.error.replace(str(stored.path), shown).removeprefix(f"{shown}: ")
            ev.unreadable.append(Unreadable(shown, error))
        else:
            ev.records.append(Rec(ref_of(stored, stored.envelope, root), stored.envelope))
    return ev
