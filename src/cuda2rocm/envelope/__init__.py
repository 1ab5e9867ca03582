"""One versioned JSON envelope for every command's result, and the loader back to typed values.

An envelope is::

    {"kind": "scan", "schema_version": "1.0", "payload_schema_version": "1.0",
     "tool": {"name": "cuda2rocm", "version": "0.1.0"}, "command_line": ["cuda2rocm", "scan", "."],
     "started_at": "...Z", "finished_at": "...Z", "exit_status": 0,
     "project": {"path": "/abs/project", "git_commit": "40 hex" | null}, "machine": "fp-..." | null,
     "payload": {...},
     "artifacts": [{"role": "baseline", "path": "...", "sha256": "...", "bytes": 123}],   # 1.1, optional
     "origin": {"machine": "fp-...", "host": "...", "source": "...", "imported_at": "...Z"}}  # 1.1, optional

``schema_version`` is the envelope's own (docs/schema/envelope.schema.json); ``payload_schema_version`` is the
payload's, per kind (:mod:`cuda2rocm.envelope.kinds`). Library use::

    text = envelope.dump("scan", result, command_line=argv)     # JSON text
    env = envelope.load(text_or_path)                           # Envelope; env.result is the ScanResult again
    envelope.record("scan", result, path)                       # written atomically; a folder gets a new name

:func:`load` raises :class:`EnvelopeError` (a ``ValueError``) for what is not an envelope of this major version,
and :class:`PayloadError` for a payload of the current version that does not decode. A payload written under
another payload schema version never raises: it is decoded leniently where it can be and marked ``stale``
(``result`` is ``None`` when it cannot), with the reason in ``problems``.

The CLI records through :func:`begin` / :func:`publish` / :func:`end`: ``cuda2rocm.cli.main`` begins a run,
each command publishes its typed result (and names with :func:`attach` the large files it read, which a workspace stores
by content hash), and ``main`` ends the run with :func:`end` (the finished envelope) and writes it where asked:
``--record PATH``, and the workspace's records (``cuda2rocm.workspace.recorder``) unless ``--no-record``.

Schema 1.1 added two optional keys, left out when empty: ``artifacts`` (files a result was computed from,
by sha256) and ``origin`` (where an imported envelope was made). A 1.0 reader ignores them.

The run's bookkeeping lives here and costs almost nothing to import; the envelope's types and functions
(``envelope.core``, re-exported here under the same names) are imported when first used, so a command that
records nowhere never makes one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cuda2rocm.envelope._base import folder_of, now

if TYPE_CHECKING:  # at run time these come from core on first use (``__getattr__`` below)
    from cuda2rocm.envelope.core import (
        MAX_BYTES,
        SCHEMA_VERSION,
        TOOL_NAME,
        Artifact,
        Ended,
        Envelope,
        EnvelopeError,
        Origin,
        PayloadError,
        Project,
        Tool,
        artifacts_of,
        dump,
        dumps,
        from_data,
        load,
        machine_id,
        make,
        project_of,
        record,
        record_name,
        write,
    )

__all__ = [
    "MAX_BYTES",
    "SCHEMA_VERSION",
    "TOOL_NAME",
    "Artifact",
    "Ended",
    "Envelope",
    "EnvelopeError",
    "Origin",
    "PayloadError",
    "Project",
    "Tool",
    "artifacts_of",
    "attach",
    "begin",
    "dump",
    "dumps",
    "end",
    "finish",
    "from_data",
    "load",
    "machine_id",
    "make",
    "no_workspace_record",
    "now",
    "project_folder",
    "project_of",
    "publish",
    "record",
    "record_name",
    "recording",
    "request_record",
    "workspace_recording",
    "write",
]

#: the public names that live in ``envelope.core``
_CORE = frozenset({"MAX_BYTES", "SCHEMA_VERSION", "TOOL_NAME", "Artifact", "Ended", "Envelope", "EnvelopeError",
                   "Origin", "PayloadError", "Project", "Tool", "artifacts_of", "dump", "dumps", "from_data", "load",
                   "machine_id", "make", "project_of", "record", "record_name", "write"})


def __getattr__(name: str) -> Any:
    if name in _CORE:
        value = getattr(importlib.import_module("cuda2rocm.envelope.core"), name)
        globals()[name] = value  # looked up once
        return value
    raise AttributeError(f"module 'cuda2rocm.envelope' has no attribute {name!r}")


# --- the CLI's run: begin (main), publish (each command), finish (main) ---------------------------------------

class _Run:
    """One CLI run's state (a plain class: made once per run, and a dataclass costs milliseconds to define)."""

    __slots__ = ("attached", "command_line", "kind", "later", "machine", "project", "record_to", "started_at",
                 "value", "workspace")

    def __init__(self, command_line: tuple[str, ...], started_at: str) -> None:
        self.command_line = command_line
        self.started_at = started_at
        self.record_to: Path | None = None
        self.kind = ""
        self.value: Any = None
        self.later: Callable[[], Any] | None = None  # makes ``value`` when an envelope is made (publish's)
        self.project: str | None = None  # the published project's folder (resolved); git commit read at the end
        self.machine: str | None = None
        self.attached: list[tuple[str, Path]] = []
        self.workspace = True  # also record into the workspace the command runs in (``--no-record``: False)


_RUN: ContextVar[_Run | None] = ContextVar("cuda2rocm_envelope_run", default=None)


def begin(command_line: Sequence[str]) -> None:
    """Start recording a CLI run (its command line and start time); nothing is written until :func:`finish`."""
    _RUN.set(_Run(tuple(command_line), now()))


def request_record(path: Path) -> None:
    """Write this run's envelope to ``path`` (a file, or a folder for a generated name) when it finishes."""
    run = _RUN.get()
    if run is not None:
        run.record_to = path


def no_workspace_record() -> None:
    """Do not record this run into the workspace it runs in (``--no-record``)."""
    run = _RUN.get()
    if run is not None:
        run.workspace = False


def recording() -> bool:
    """Was this run asked to record its envelope (``--record``)?"""
    run = _RUN.get()
    return run is not None and run.record_to is not None


def workspace_recording() -> bool:
    """May this run record into its workspace (a CLI run without ``--no-record``)?"""
    run = _RUN.get()
    return run is not None and run.workspace


def publish(kind: str, value: Any = None, *, project: str | Path | None = None, machine: str | None = None,
            later: Callable[[], Any] | None = None) -> None:
    """A command's typed result for this run's envelope (a no-op outside a CLI run). ``project``: the path the
    command worked on (default: the current directory); ``machine``: the fingerprint id where the result has one.
    ``later``: instead of ``value``, the function that makes it, called only when an envelope is made (a run
    that records nowhere never pays for it)."""
    run = _RUN.get()
    if run is None:
        return
    from cuda2rocm.envelope import kinds

    kinds.get(kind)
    run.kind, run.value, run.later, run.machine = kind, value, later, machine
    run.project = folder_of(project) if project is not None else None


def project_folder() -> str:
    """The folder of the project this run published (resolved), or the current directory's; "" outside a run.
    The CLI looks for a workspace from it before anything of the envelope is made."""
    run = _RUN.get()
    if run is None:
        return ""
    return run.project if run.project is not None else folder_of(".")


def attach(role: str, path: str | Path) -> None:
    """A large input or output of this run (a capture folder, a trace, a JSONL file): the envelope references it
    by sha256 (a folder: each file in it) and a workspace keeps a copy under ``.cuda2rocm/artifacts/``."""
    run = _RUN.get()
    if run is not None:
        run.attached.append((role, Path(path)))


def end(exit_status: int, subcommand: str = "") -> Ended | None:
    """End the run: its finished envelope and where to write it, or None (no run, a kind without an envelope, or
    nowhere to write). A run that published nothing (a usage error) gets a null payload under its subcommand's
    kind, where that is a known kind."""
    run = _RUN.get()
    _RUN.set(None)
    if run is None or (run.record_to is None and not run.workspace):
        return None
    from cuda2rocm.envelope import core, kinds

    kind = run.kind or subcommand
    if kind not in kinds.KINDS:
        return None
    artifacts = [a for role, path in run.attached for a in core.artifacts_of(role, path)]
    value = (run.later() if run.later is not None else run.value) if run.kind else None
    env = core.make(kind, value, command_line=run.command_line, started_at=run.started_at,
                    finished_at=now(), exit_status=exit_status, project=core.project_of(run.project or "."),
                    machine=run.machine, artifacts=artifacts)
    return core.Ended(env, run.record_to, run.workspace)


def finish(exit_status: int, subcommand: str = "") -> Path | None:
    """End the run; writes its envelope when one was requested (``--record``)."""
    run = _RUN.get()
    if run is not None:
        run.workspace = False
    ended = end(exit_status, subcommand)
    if ended is None or ended.record_to is None:
        return None
    from cuda2rocm.envelope.core import write

    return write(ended.envelope, ended.record_to)
