"""``compare``: tensors (first divergence), training curves and scalar metrics of a regress comparison."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from cuda2rocm.report._console import line
from cuda2rocm.results.regress import CompareResult, CurveReport, MetricReport, Outcome

#: tensors listed at most (failures and the worst first come from the comparison's order)
MAX_TENSOR_ROWS = 50


def render_rich(outcome: Outcome, *, show_all: bool = False) -> Group:
    items: list[RenderableType] = []
    if outcome.tensors is not None:
        items += _tensors(outcome.tensors, show_all)
    items += [_curve(c) for c in outcome.curves]
    items += _metrics(outcome.metrics)
    items.append(line("[bold green]PASS[/]" if outcome.passed else "[bold red]FAIL[/]"))
    return Group(*items)


def _tensors(result: CompareResult, show_all: bool) -> list[RenderableType]:
    from cuda2rocm.regress.findings import compare_findings

    items: list[RenderableType] = [line(f"[yellow]warning[/]: {escape(w)}", highlight=False) for w in result.warnings]
    shown = [r for r in result.reports if show_all or not r.ok]
    if shown:
        table = Table("tensor", "status", "policy", "max abs", "rel L2", "cosine", "mismatch", "max ULP")
        for r in shown[:MAX_TENSOR_ROWS]:
            s = r.stats
            nums = [f"{s.max_abs:.3g}", f"{s.rel_l2:.3g}", f"{s.cosine:.7f}", f"{s.mismatch_fraction:.3%}",
                    "" if s.max_ulp is None else f"{s.max_ulp:.0f}"] if s else [""] * 5
            table.add_row(r.name, r.status, r.policy, *nums)
        items.append(table)
    counts = ", ".join(f"{n} {k}" for k, n in sorted(result.counts().items()))
    items.append(line(f"{len(result.reports)} tensors: {counts}", highlight=False))
    first = result.first_divergence
    if first is not None:
        finding = compare_findings(CompareResult(result.base, result.cand, (first,)))[0]
        items.append(line(f"first divergence: [bold]{escape(first.name)}[/] ({finding.rule}: "
                          f"{escape(finding.message)})", highlight=False))
    return items


def _curve(c: CurveReport) -> RenderableType:
    status = "[green]ok[/]" if c.ok else "[red]" + "; ".join(c.reasons) + "[/]"
    return line(f"curve {c.tag}: {c.points} shared steps, max deviation {c.max_deviation:.4g}, final "
                f"{c.base_final:.4g} -> {c.cand_final:.4g}: {status}", highlight=False)


def _metrics(metrics: list[MetricReport]) -> list[RenderableType]:
    return [line(f"metric {m.name}: {m.base} -> {m.cand}: " + ("[green]ok[/]" if m.ok else f"[red]{m.reason}[/]"),
                 highlight=False) for m in metrics]
