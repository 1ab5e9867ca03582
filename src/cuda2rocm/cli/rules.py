"""``cuda2rocm rules`` (list every rule) and ``cuda2rocm explain ID`` (one rule's documentation)."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from cuda2rocm import rules as registry
from cuda2rocm.report.rules_doc import explain_text, rules_json, rules_markdown_table


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules_command(fmt: str) -> int:
    """List every rule with its id, severity and title."""
    rules = sorted(registry.load_all().values(), key=lambda r: r.id)
    if fmt == "json":
        click.echo(rules_json(rules), nl=False)
    elif fmt == "markdown":
        click.echo(rules_markdown_table(rules), nl=False)
    else:
        table = Table("Id", "Severity", "Layer", "Title", title=f"{len(rules)} rules", title_justify="left")
        for r in rules:
            table.add_row(r.id, str(r.severity), str(r.layer), r.title)
        Console().print(table)
    return 0


@click.command("explain")
@click.argument("rule_id")
def explain_command(rule_id: str) -> int:
    """Print one rule's documentation (What / Why on AMD / Example / Use instead / References)."""
    rules = registry.load_all()
    rule = rules.get(rule_id.strip().upper())
    if rule is None:
        click.echo(f"unknown rule id {rule_id!r}; `cuda2rocm rules` lists them", err=True)
        return 2
    click.echo(explain_text(rule), nl=False)
    return 0
