"""Names with constant values: ``#define``, ``constexpr``/``const`` declarations, simple local
initialisations, and template arguments taken from the launches of a template kernel."""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.hazards.context import Source
from cuda2rocm.source.structure import Function, Launch
from cuda2rocm.source.tokens import IDENT, NL, PUNCT, TRIVIA, Token

Env = dict[str, Sequence[Token]]

_DECL_WORDS = frozenset({"constexpr", "const"})


def defines(src: Source) -> Env:
    """Object-like macros: ``#define NAME tokens...`` (function-like macros are left out)."""
    env: Env = {}
    toks = src.tokens
    for i in src.positions("define"):
        if not (toks[i].pp and src.src(src.prev(i)) == "#"):
            continue
        name = src.next(i)
        if name >= len(toks) or toks[name].kind != IDENT:
            continue
        after = name + 1
        if after < len(toks) and toks[after].src == "(":
            continue
        body: list[Token] = []
        j = after
        while j < len(toks) and toks[j].pp and toks[j].kind != NL:
            if toks[j].kind not in TRIVIA:
                body.append(toks[j])
            j += 1
        env.setdefault(toks[name].src, body)
    return env


def initialiser(src: Source, eq: int) -> tuple[int, int]:
    """[start, end) of the expression after ``=`` at ``eq`` (to the next top-level ``;`` or ``,``)."""
    j = eq + 1
    while j < len(src.tokens):
        s = src.src(j)
        if src.kind(j) == PUNCT and s in ("(", "[", "{") and j in src.pairs:
            j = src.pairs[j] + 1
            continue
        if src.kind(j) == PUNCT and s in (";", ",", ")", "}"):
            break
        j += 1
    return eq + 1, j


def _assignments(src: Source, start: int, end: int, *, const_only: bool) -> Env:
    env: Env = {}
    for i in src.tokens_named(("=",), start, end):  # '=' is always a code token
        if src.tokens[i].pp:
            continue
        name = src.prev(i)
        if src.kind(name) != IDENT:
            continue
        before = src.prev(name)
        if src.kind(before) != IDENT:  # a declaration has a type word before the name
            continue
        if const_only and not _has_const(src, before):
            continue
        a, b = initialiser(src, i)
        env.setdefault(src.src(name), [src.tokens[k] for k in src.range_code(a, b)])
    return env


def _has_const(src: Source, i: int) -> bool:
    while i >= 0 and src.kind(i) == IDENT:
        if src.src(i) in _DECL_WORDS:
            return True
        i = src.prev(i)
    return False


def file_env(src: Source) -> Env:
    """Macros and ``const``/``constexpr`` values of the whole file (cached per file)."""
    if "file_env" in src.cache:
        cached: Env = src.cache["file_env"]
        return cached
    env = _file_env(src)
    src.cache["file_env"] = env
    return env


def _file_env(src: Source) -> Env:
    env = defines(src)
    for name, value in _assignments(src, 0, len(src.tokens), const_only=True).items():
        env.setdefault(name, value)
    return env


def local_env(src: Source, fn: Function | None, base: Env) -> Env:
    """``base`` plus the simple declarations-with-initialiser inside ``fn`` (first one wins)."""
    env = dict(base)
    if fn is not None:
        key = ("locals", fn.body_open)
        if key not in src.cache:
            src.cache[key] = _assignments(src, fn.body_open, fn.body_close, const_only=False)
        for name, value in src.cache[key].items():
            env.setdefault(name, value)
    return env


def template_params(src: Source, fn: Function) -> list[tuple[str, Sequence[Token]]]:
    """``template <typename T, int N = 4>`` before ``fn``: [(name, default tokens)]."""
    i = src.prev(fn.name_index)
    while i >= 0 and src.src(i) not in (";", "}", "{", "template"):
        i = src.prev(i)
    if src.src(i) != "template":
        return []
    open_ = src.next(i)
    if src.src(open_) != "<":
        return []
    params: list[tuple[str, Sequence[Token]]] = []
    for a, b in _angle_args(src, open_):
        code = src.range_code(a, b)
        eq = next((k for k in code if src.src(k) == "="), None)
        names = [k for k in code if (eq is None or k < eq) and src.kind(k) == IDENT]
        if names:
            default = [src.tokens[k] for k in code if eq is not None and k > eq]
            params.append((src.src(names[-1]), default))
    return params


def _angle_args(src: Source, open_: int) -> list[tuple[int, int]]:
    """Top-level comma-separated ranges inside ``<...>`` starting at ``open_``."""
    depth, part, j = 0, open_ + 1, open_
    parts: list[tuple[int, int]] = []
    while j < len(src.tokens):
        s = src.src(j)
        if s in ("(", "[") and j in src.pairs:
            j = src.pairs[j] + 1
            continue
        depth += {"<": 1, ">": -1, ">>": -2}.get(s, 0)
        if depth <= 0 and s in (">", ">>"):
            parts.append((part, j))
            return parts
        if depth == 1 and s == ",":
            parts.append((part, j))
            part = j + 1
        if s in (";", "{", "}"):
            return []
        j += 1
    return []


def instantiations(src: Source, fn: Function, base: Env) -> list[Env]:
    """One environment per distinct ``fn<args...><<<...>>>`` launch, binding template parameters."""
    params = template_params(src, fn)
    if not params:
        return [base]
    envs: list[Env] = []
    bound: set[tuple[tuple[str, ...] | None, ...]] = set()  # the same arguments twice make one environment
    for launch in _launches_by_name(src).get(fn.name, ()):
        if src.src(src.next(launch.name_index)) != "<":
            continue
        args = _angle_args(src, src.next(launch.name_index))
        env = dict(base)
        for (name, default), (a, b) in zip(params, args, strict=False):
            env[name] = [src.tokens[k] for k in src.range_code(a, b)] or default
        for name, default in params[len(args):]:
            if default:
                env[name] = default
        key = tuple(tuple(t.src for t in env[name]) if name in env else None for name, _ in params)
        if key not in bound:
            bound.add(key)
            envs.append(env)
    if not envs:
        envs.append({**base, **{n: d for n, d in params if d}})
    return envs


def _launches_by_name(src: Source) -> dict[str, list[Launch]]:
    """The file's kernel launches by kernel name, in order (once per file: one scan per function was
    quadratic in the file size)."""
    found: dict[str, list[Launch]] | None = src.cache.get("launches_by_name")
    if found is None:
        found = {}
        for launch in src.launches:
            found.setdefault(launch.name, []).append(launch)
        src.cache["launches_by_name"] = found
    return found
