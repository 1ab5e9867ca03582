"""Formatters: pure functions from results to text (or, for the ``rich`` format, to a rich renderable).

One registry maps ``(kind, format)`` to a renderer; kinds are the result envelope's kinds
(:mod:`cuda2rocm.envelope.kinds`: ``scan``, ``compare``, ``bench-compare``, ``comm``, ...) plus ``findings`` (a
bare list of findings, which ``convert`` renders) and ``delivery`` (the delivery report of ``cuda2rocm report``,
rendered with ``kind="delivery"``). ``render(result, fmt)`` finds the kind from the result's type
(or takes ``kind=``); ``render_findings(findings, fmt)`` renders a list of findings. An unknown format raises
``ValueError`` naming the formats the kind has. Renderers never print and never see the scanner.

Adding an output format is one entry: ``@renderer("scan", "xml")`` on a function ``(result, **options) -> str``,
or a ``"module:function"`` line in :data:`_LAZY` for a renderer imported only when used.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cuda2rocm import rules as _rules
from cuda2rocm.model import Finding
from cuda2rocm.results import ScanResult
from cuda2rocm.rules import Rule

Renderer = Callable[..., Any]

#: (kind, format) -> renderer, for renderers registered with :func:`renderer`
_RENDERERS: dict[tuple[str, str], Renderer] = {}

#: (kind, format) -> "module:function" under cuda2rocm.report, imported on first use (keeps imports cheap)
_LAZY: dict[tuple[str, str], str] = {
    ("scan", "text"): "_text:render_text",
    ("scan", "json"): "_json:render_json",
    ("scan", "markdown"): "_markdown:render_markdown",
    ("scan", "html"): "_html:render_html",
    ("findings", "text"): "_text:render_findings_text",
    ("findings", "json"): "_json:render_findings_json",
    ("findings", "markdown"): "_markdown:render_findings_markdown",
    ("compare", "rich"): "_compare:render_rich",
    ("bench-compare", "rich"): "_bench:render_rich",
    ("comm", "rich"): "_comm:render_rich",
    ("env", "rich"): "_env:render_rich",
    ("delivery", "markdown"): "_delivery:render_markdown",
    ("delivery", "json"): "_delivery:render_json",
    ("delivery", "html"): "_delivery:render_html",
}

#: options each renderer understands (others are dropped, so one call can serve every format of a kind)
_OPTIONS: dict[tuple[str, str], tuple[str, ...]] = {
    ("scan", "text"): ("color", "jobs", "limit"),
    ("scan", "sarif"): ("rules",),
    ("findings", "sarif"): ("rules", "root"),
    ("compare", "rich"): ("show_all",),
    ("delivery", "html"): ("base",),
    ("delivery", "markdown"): ("base",),
}


def renderer(kind: str, fmt: str) -> Callable[[Renderer], Renderer]:
    """Register ``fn(result, **options)`` as the ``fmt`` renderer of ``kind`` results."""

    def register(fn: Renderer) -> Renderer:
        _RENDERERS[(kind, fmt)] = fn
        return fn

    return register


def formats(kind: str) -> tuple[str, ...]:
    """The formats ``kind`` results render to, in registration order."""
    return tuple(dict.fromkeys(f for k, f in (*_LAZY, *_RENDERERS) if k == kind))


def kinds() -> tuple[str, ...]:
    return tuple(dict.fromkeys(k for k, _ in (*_LAZY, *_RENDERERS)))


def lookup(kind: str, fmt: str) -> Renderer:
    """The renderer of ``(kind, fmt)``; ``ValueError`` naming the known formats (or kinds) otherwise."""
    if (kind, fmt) in _RENDERERS:
        return _RENDERERS[(kind, fmt)]
    ref = _LAZY.get((kind, fmt))
    if ref is None:
        known = formats(kind)
        if not known:
            raise ValueError(f"unknown result kind {kind!r}; known kinds: {', '.join(kinds())}")
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(known)}")
    module, _, name = ref.partition(":")
    fn: Renderer = getattr(importlib.import_module(f"cuda2rocm.report.{module}"), name)
    _RENDERERS[(kind, fmt)] = fn
    return fn


def kind_of(result: Any) -> str:
    """The envelope kind of a result value, from its type (``findings`` for a list of findings)."""
    from cuda2rocm.envelope.kinds import KINDS

    if isinstance(result, (list, tuple)) and all(isinstance(f, Finding) for f in result):
        return "findings"
    ref = f"{type(result).__module__}:{type(result).__qualname__}"
    for k in KINDS.values():
        if k.type_ref == ref or (k.type_ref.split(":")[1] == type(result).__qualname__
                                 and k.payload_type() is type(result)):  # a type re-exported under another module
            return k.name
    raise ValueError(f"no renderer for a {type(result).__name__}; pass kind= (known kinds: {', '.join(kinds())})")


def render(result: Any, fmt: str, *, kind: str | None = None, **options: Any) -> Any:
    """``result`` as ``fmt``. For a ``ScanResult``: ``text`` (``color=``), ``json``, ``markdown``, ``html`` or
    ``sarif`` (``rules=``, default the registry). ``rich`` renders to a rich renderable for a console."""
    k = kind or kind_of(result)
    fn = lookup(k, fmt)
    wanted = _OPTIONS.get((k, fmt), ())
    return fn(result, **{name: value for name, value in options.items() if name in wanted and value is not None})


def render_findings(
    findings: Sequence[Finding], fmt: str, *, rules: Mapping[str, Rule] | None = None, root: str = ""
) -> str:
    """A bare list of findings as ``fmt`` (one of :data:`FINDINGS_FORMATS`)."""
    text: str = render(findings, fmt, kind="findings", rules=rules, root=root)
    return text


@renderer("scan", "sarif")
def _scan_sarif(result: ScanResult, *, rules: Mapping[str, Rule] | None = None) -> str:
    return _render_sarif(result.findings, rules, root=result.root, problems=result, props=_run_properties(result))


@renderer("findings", "sarif")
def _findings_sarif(findings: Sequence[Finding], *, rules: Mapping[str, Rule] | None = None, root: str = "") -> str:
    return _render_sarif(findings, rules, root=root, problems=None, props=None)


def _render_sarif(
    findings: Sequence[Finding],
    rules: Mapping[str, Rule] | None,
    *,
    root: str,
    problems: ScanResult | None,
    props: dict[str, object] | None,
) -> str:
    from cuda2rocm.report._sarif import sarif_log

    registry = _rules.load_all() if rules is None else rules
    log = sarif_log(findings, registry, root=root, problems=problems.problems if problems else (), properties=props)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _run_properties(result: ScanResult) -> dict[str, object]:
    return {
        "schema_version": result.schema_version,
        "target_gpu": result.target_gpu,
        "risk": result.risk.level,
        "deployment": result.deployment.scale,
    }


def _register_plain_text() -> None:
    """Every kind with a ``rich`` renderer also renders to ``text``: the same renderable as plain text."""
    for kind in [k for k, f in _LAZY if f == "rich"]:

        def plain(result: Any, *, _kind: str = kind, width: int = 100, **options: Any) -> str:
            from cuda2rocm.report._console import plain as to_plain

            return to_plain(render(result, "rich", kind=_kind, **options), width)

        _RENDERERS[(kind, "text")] = plain
        _OPTIONS[(kind, "text")] = (*_OPTIONS.get((kind, "rich"), ()), "width")


_register_plain_text()

FORMATS = ("text", "json", "markdown", "html", "sarif")
FINDINGS_FORMATS = ("text", "json", "markdown", "sarif")
assert set(FORMATS) == set(formats("scan")) and set(FINDINGS_FORMATS) == set(formats("findings"))
