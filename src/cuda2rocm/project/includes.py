"""The include graph of a C/C++/CUDA project and the constants each file sees from the headers it includes.

A warp width ``#define``d in ``include/cfg.h`` and used in ``src/reduce.cu`` is one fact of the project, not of
either file. :class:`Includes` is built once per run over the project's source files (``scan`` and ``convert``
make it; their worker processes get it through the pool's initializer, :func:`install`). For a file it walks the
file's ``#include`` directives in order, depth first, each header once (what include guards and
``#pragma once`` do), and collects the object-like macros and file-scope ``const``/``constexpr`` values the
headers define, with the header and line of each. The hazard rules read them as :class:`Inherited` values
below the file's own (:func:`cuda2rocm.hazards.symbols.file_env`).

Conditionals are honoured with three states: a branch is *active* when its condition is known to hold (``#if 1``,
``#ifdef X`` after an active ``#define X``, the ``#else`` of a false ``#if``), *inactive* when it is known not
to (its definitions and includes are skipped), and *maybe* otherwise (a macro that may come from ``-D``: an
unknown name is never taken as undefined). A *maybe* definition is used when nothing defined the name before.

Include resolution, for ``"a/b.h"``: beside the including file, then under the root; then, when the operand
names a directory (``a/b.h``, quoted or ``<>``) or is quoted, the one project file whose path ends with it (of
several, the one sharing the longest directory prefix with the includer; a tie resolves to none). A bare
``<b.h>`` is a system header unless a project file sits at ``b.h`` under the root.

Per-file facts depend only on the file's bytes: they are cached by content (SHA-256) as JSON under
:func:`cache_dir`, so a second run tokenizes only the headers that changed. Nothing is executed; the cache
is data, never unpickled.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from cuda2rocm import __version__
from cuda2rocm.fsio import write_bytes_atomic
from cuda2rocm.hazards.context import NOTHING_INHERITED, Inherited, Source
from cuda2rocm.hazards.flow import warp_sync_functions
from cuda2rocm.hazards.symbols import constant_members, declarations
from cuda2rocm.hazards.targets import resolve as resolve_target
from cuda2rocm.source.consteval import ONE, UNKNOWN, evaluate, replace_defined
from cuda2rocm.source.directives import directives, function_macro, object_macro
from cuda2rocm.source.tokens import HEADER, IDENT, PUNCT, STRING, Token, TokenizeError, tokenize

ACTIVE, INACTIVE, MAYBE = "active", "inactive", "maybe"
#: the schema of the cached facts (a new one ignores the old entries)
FACTS_VERSION = 4
#: includes deeper than this are not followed (a cycle is stopped sooner: each header is read once per file)
MAX_DEPTH = 200
_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else", "endif"})


class Event(NamedTuple):
    """One fact of a file, in source order: ``define``/``undef``/``include``/``const``, ``warp`` (a device
    function that uses warp primitives, so a launch elsewhere of that kernel is warp-synchronous) or a conditional
    (``if``, ``ifdef``, ``ifndef``, ``elif``, ``else``, ``endif``). ``name``: the macro or constant, or the include
    operand with its quotes or brackets; ``body``: the value's or condition's tokens as (kind, text)."""

    kind: str
    name: str
    body: tuple[tuple[str, str], ...]
    line: int


def file_events(tokens: Sequence[Token], text: str, *, constants: bool = True) -> tuple[Event, ...]:
    """The facts of one file. ``constants``: also its file-scope ``const``/``constexpr`` values (what a header
    exports; a file's own values are read by the rules themselves)."""
    src = Source(tokens, text, "", resolve_target("MI300X"))
    found: list[tuple[int, Event]] = []
    for d in directives(tokens):
        line = src.loc(d.hash_index)[0]
        if d.word == "define":
            macro = object_macro(tokens, d)
            if macro is not None:
                found.append((d.hash_index, Event("define", tokens[macro[0]].src, _body(macro[1]), line)))
            elif "__launch_bounds__" in text and (fmacro := function_macro(tokens, d)) is not None and any(
                    t.src == "__launch_bounds__" for t in fmacro[2]):  # the parameters, then ")", then the body
                signature = [Token(IDENT, p, 0) for p in fmacro[1]] + [Token(PUNCT, ")", 0), *fmacro[2]]
                found.append((d.hash_index, Event("bounds", tokens[fmacro[0]].src, _body(signature), line)))
        elif d.word == "undef" and d.args and tokens[d.args[0]].kind == IDENT:
            found.append((d.hash_index, Event("undef", tokens[d.args[0]].src, (), line)))
        elif d.word in ("include", "include_next") and d.args and tokens[d.args[0]].kind in (HEADER, STRING):
            found.append((d.hash_index, Event("include", tokens[d.args[0]].src, (), line)))
        elif d.word in _CONDITIONALS:
            name = tokens[d.args[0]].src if d.word in ("ifdef", "ifndef") and d.args else ""
            body = _body(tokens[k] for k in d.args) if d.word in ("if", "elif") else ()
            found.append((d.hash_index, Event(d.word, name, body, line)))
    if constants and ("const" in text):
        for at, value in declarations(src, 0, len(tokens), const_only=True):
            if src.function_at(at) is None and value:  # file scope: a function's locals are its own
                found.append((at, Event("const", src.src(at), _body(value), src.loc(at)[0])))
    if constants:
        for at, name, value in constant_members(src):  # enumerators, struct constants as Traits::kTileM
            found.append((at, Event("const", name, _body(value), src.loc(at)[0])))
    if constants:
        sync = warp_sync_functions(src)
        for fn in src.device_functions():
            if fn.name in sync:
                found.append((fn.name_index, Event("warp", fn.name, (), src.loc(fn.name_index)[0])))
    found.sort(key=lambda item: item[0])
    return tuple(e for _, e in found)


def _body(toks: Iterable[Token]) -> tuple[tuple[str, str], ...]:
    return tuple((t.kind, t.src) for t in toks)


def _tokens(body: Sequence[tuple[str, str]]) -> tuple[Token, ...]:
    return tuple(Token(kind, text, 0) for kind, text in body)


# --- the cache -------------------------------------------------------------------------------------------------

def cache_dir() -> Path:
    """``$CUDA2ROCM_CACHE_DIR``, else ``$XDG_CACHE_HOME/cuda2rocm``, else ``~/.cache/cuda2rocm``."""
    explicit = os.environ.get("CUDA2ROCM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cuda2rocm"


def _cache_path(root: Path, digest: str) -> Path:
    return root / f"facts-{FACTS_VERSION}-{__version__}" / digest[:2] / f"{digest}.json"


def _load(path: Path) -> tuple[Event, ...] | None:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        return tuple(Event(str(k), str(n), tuple((str(a), str(b)) for a, b in body), int(line))
                     for k, n, body, line in data)
    except (OSError, ValueError, TypeError):  # absent, unreadable or not ours: read the file again
        return None


def _store(path: Path, events: Sequence[Event]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, json.dumps([list(e) for e in events], separators=(",", ":")).encode())
    except OSError:  # a read-only or full cache only costs speed
        pass


# --- the model --------------------------------------------------------------------------------------------------

class _Unit:
    """What one file's walk has seen so far."""

    __slots__ = ("bounds", "certain", "consts", "macros", "reached", "read", "visited", "warp")

    def __init__(self, own: str) -> None:
        self.macros: dict[str, tuple[Event, str]] = {}  # name -> (definition, file)
        self.bounds: dict[str, tuple[Event, str]] = {}  # function-like macros holding __launch_bounds__
        self.certain: set[str] = set()  # macros defined in active code
        self.consts: dict[str, tuple[Event, str]] = {}
        self.visited = {own}
        self.read: list[str] = []  # the headers walked, in order
        self.warp: set[str] = set()  # warp-synchronous device functions the headers define
        self.reached: set[str] = set()  # every project file an include of the walk named, read or not


class _Branch:
    __slots__ = ("maybe", "parent", "taken")

    def __init__(self, parent: str) -> None:
        self.parent = parent
        self.taken = False  # a branch of the chain so far is known to be taken
        self.maybe = False  # a branch of the chain so far may be taken

    def enter(self, cond: bool | None) -> str:
        if self.parent == INACTIVE or cond is False or self.taken:
            state = INACTIVE
        elif cond is True and not self.maybe and self.parent == ACTIVE:
            state = ACTIVE
        else:
            state = MAYBE
        self.taken = self.taken or cond is True
        self.maybe = self.maybe or cond is None
        return state


class Includes:
    """The project's C/C++/CUDA files (``files``: display path -> file on disk) and what each sees from the
    headers it includes. Picklable without its memo: a worker process gets the file list, not the facts."""

    def __init__(self, files: Mapping[str, str | Path], *, max_bytes: int = 32 * 1024 * 1024,
                 cache: Path | None = None, use_cache: bool = True) -> None:
        self.files = {rel: str(path) for rel, path in files.items()}
        self.max_bytes = max_bytes
        self.cache = (cache or cache_dir()) if use_cache else None
        self._by_base: dict[str, list[str]] = {}
        for rel in self.files:
            self._by_base.setdefault(posixpath.basename(rel), []).append(rel)
        self._memo: dict[str, tuple[Event, ...]] = {}
        self._seen: dict[tuple[str, tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]],
                         tuple[Inherited, frozenset[str]]] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_memo"], state["_seen"] = {}, {}
        return state

    # facts ---------------------------------------------------------------------------------------------------
    def facts(self, rel: str) -> tuple[Event, ...]:
        """The facts of the project file ``rel`` (memoised; from the content cache when it has them)."""
        found = self._memo.get(rel)
        if found is None:
            found = self._memo[rel] = self._read(rel)
        return found

    def _read(self, rel: str) -> tuple[Event, ...]:
        try:
            with open(self.files[rel], "rb") as f:
                data = f.read(self.max_bytes + 1)
        except OSError:
            return ()
        if len(data) > self.max_bytes or b"\0" in data:
            return ()
        path = _cache_path(self.cache, hashlib.sha256(data).hexdigest()) if self.cache is not None else None
        if path is not None and (cached := _load(path)) is not None:
            return cached
        text = data.decode("utf-8", errors="replace")
        try:
            events = file_events(tokenize(text), text)
        except (TokenizeError, RecursionError):
            events = ()
        if path is not None:
            _store(path, events)
        return events

    # resolution ------------------------------------------------------------------------------------------------
    def resolve(self, includer: str, operand: str) -> str | None:
        """The project file ``#include operand`` in ``includer`` reads, or None (a system or unknown header)."""
        name, quoted = operand[1:-1].strip(), operand.startswith('"')
        if not name or name.startswith("/"):
            return None
        if quoted:
            here = posixpath.normpath(posixpath.join(posixpath.dirname(includer), name))
            if here in self.files:
                return here
        at_root = posixpath.normpath(name)
        if at_root in self.files:
            return at_root
        if not quoted and "/" not in name:
            return None
        suffix = "/" + at_root
        found = [rel for rel in self._by_base.get(posixpath.basename(name), ()) if rel.endswith(suffix)]
        if len(found) <= 1:
            return found[0] if found else None
        near = sorted(((_shared(rel, includer), rel) for rel in found), reverse=True)
        return near[0][1] if near[0][0] > near[1][0] else None

    # what a file sees -----------------------------------------------------------------------------------------
    def inherited(self, rel: str, tokens: Sequence[Token] | None = None, text: str = "") -> Inherited:
        """The constants ``rel`` sees from the headers it includes (its own are left out). ``tokens``/``text``:
        the file's, when the caller has them (its own directives are then read from them)."""
        own = file_events(tokens, text, constants=False) if tokens is not None else self.facts(rel)
        # Files of one folder with the same directives see the same headers the same way: the walk depends on
        # the file only through its folder (quoted includes), its directives and its own name (a header that
        # includes it back is not read again), so an answer is shared unless the walk reached either file.
        key = (posixpath.dirname(rel), tuple((e.kind, e.name, e.body) for e in own if e.kind != "warp"))
        known = self._seen.get(key)
        if known is not None and rel not in known[1]:
            return known[0]
        unit = _Unit(rel)
        self._walk(rel, own, unit, 0)
        found = self._inherited(rel, unit)
        if rel not in unit.reached:
            self._seen[key] = (found, frozenset(unit.reached))
        return found

    @staticmethod
    def _inherited(rel: str, unit: _Unit) -> Inherited:
        env: dict[str, Sequence[Token]] = {}
        origins: dict[str, tuple[str, int]] = {}
        for table in (unit.macros, unit.consts):
            for name, (event, where) in table.items():
                if where != rel and name not in env:
                    env[name] = _tokens(event.body)
                    origins[name] = (where, event.line)
        if not (env or unit.read):
            return NOTHING_INHERITED
        bounds: dict[str, tuple[tuple[str, ...], Sequence[Token]]] = {}
        for name, (event, where) in unit.bounds.items():
            if where != rel:
                toks = _tokens(event.body)
                cut = next(k for k, t in enumerate(toks) if t.src == ")")
                bounds[name] = (tuple(t.src for t in toks[:cut]), toks[cut + 1:])
        return Inherited(env, origins, tuple(unit.read), frozenset(unit.warp), bounds)

    def _walk(self, rel: str, events: Sequence[Event], unit: _Unit, depth: int) -> None:
        stack: list[_Branch] = []
        state = ACTIVE
        for ev in events:
            if ev.kind in ("if", "ifdef", "ifndef"):
                branch = _Branch(state)
                stack.append(branch)
                state = branch.enter(self._condition(ev, unit))
            elif ev.kind in ("elif", "else"):
                if stack:
                    state = stack[-1].enter(True if ev.kind == "else" else self._condition(ev, unit))
            elif ev.kind == "endif":
                if stack:
                    state = stack.pop().parent
            elif state == INACTIVE:
                continue
            elif ev.kind == "define":
                if state == ACTIVE or ev.name not in unit.macros:
                    unit.macros[ev.name] = (ev, rel)
                if state == ACTIVE:
                    unit.certain.add(ev.name)
            elif ev.kind == "bounds":
                if state == ACTIVE or ev.name not in unit.bounds:
                    unit.bounds[ev.name] = (ev, rel)
            elif ev.kind == "undef":
                if state == ACTIVE:
                    unit.macros.pop(ev.name, None)
                    unit.bounds.pop(ev.name, None)
                    unit.certain.discard(ev.name)
            elif ev.kind == "const":
                unit.consts.setdefault(ev.name, (ev, rel))
            elif ev.kind == "warp" and depth:  # the file's own functions are its own
                unit.warp.add(ev.name)
            elif ev.kind == "include" and depth < MAX_DEPTH:
                target = self.resolve(rel, ev.name)
                if target is not None:
                    unit.reached.add(target)
                if target is not None and target not in unit.visited:
                    unit.visited.add(target)
                    unit.read.append(target)
                    self._walk(target, self.facts(target), unit, depth + 1)

    def _condition(self, ev: Event, unit: _Unit) -> bool | None:
        """Whether the conditional's test holds: True, False, or None (unknown)."""
        if ev.kind in ("ifdef", "ifndef"):
            if ev.name not in unit.certain:
                return None
            return ev.kind == "ifdef"
        toks = replace_defined(_tokens(ev.body), lambda name: ONE if name in unit.certain else UNKNOWN)
        value = evaluate(toks, {n: _tokens(e.body) for n, (e, _) in unit.macros.items() if n in unit.certain})
        return None if value is None else value != 0


def _shared(a: str, b: str) -> int:
    """How many leading directories ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n


# --- the model of this process ---------------------------------------------------------------------------------

_installed: Includes | None = None


def install(model: Includes | None) -> None:
    """Make ``model`` the include graph this process's analyses read (a pool initializer calls it)."""
    global _installed
    _installed = model


@contextmanager
def using(model: Includes | None) -> Iterator[None]:
    """``model`` installed for the block, the previous one back after it."""
    before = _installed
    install(model)
    try:
        yield
    finally:
        install(before)


def seen_by(rel: str, tokens: Sequence[Token], text: str) -> Inherited:
    """What ``rel`` inherits under the installed model (nothing without one, or when ``rel`` is not in it)."""
    model = _installed
    if model is None or rel not in model.files:
        return NOTHING_INHERITED
    return model.inherited(rel, tokens, text)


SOURCE_LANGUAGES = frozenset({"cuda", "cpp", "c"})
