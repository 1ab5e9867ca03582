"""``env``: the machine fingerprint as a table of facts and a table of GPUs."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table

from cuda2rocm.report._console import line


def render_rich(fp: dict[str, Any]) -> Group:
    table = Table("fact", "value", title="environment fingerprint")
    torch = fp["frameworks"].get("torch") or {}
    rows = [("OS", fp["os"].get("name", "")), ("kernel", fp["kernel"]), ("python", fp["python"]),
            ("platform", fp["platform"]), ("driver", fp["driver"]), ("CUDA", fp["cuda"]), ("ROCm", fp["rocm"]),
            ("torch", " ".join(f"{k}={torch.get(k)}" for k in ("version", "cuda", "hip") if torch.get(k))),
            ("container", ", ".join(fp["container"]["evidence"]) or "no")]
    rows += [(f"lib {k}", v) for k, v in fp["libraries"].items()]
    rows += [(f"{k}", str(v)) for k, v in fp["frameworks"].items() if k != "torch"]
    rows += [(f"compiler {k}", v["version"]) for k, v in fp["compilers"].items()]
    for k, v in rows:
        table.add_row(k, str(v) if v else "-")
    items: list[RenderableType] = [table, *_gpus(fp)]
    items += [line(f"[dim]note: {note}[/]") for note in fp["notes"]]
    return Group(*items)


def _gpus(fp: dict[str, Any]) -> list[RenderableType]:
    if not fp["gpus"]:
        return [line("GPUs: none found")]
    table = Table("#", "name", "arch", "memory MiB", title=f"{fp['gpu_count']} GPU(s)")
    for g in fp["gpus"]:
        table.add_row(str(g.get("index", "")), g.get("name", ""), g.get("arch", ""), str(g.get("memory_mib") or "-"))
    items: list[RenderableType] = [table]
    links = (fp.get("topology") or {}).get("links")
    if links:
        items.append(line("links: " + ", ".join(f"{k} {v}" for k, v in sorted(links.items()))))
    return items
