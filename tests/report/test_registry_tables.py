"""The (kind, format) renderer registry, and the bench/comm tables at 80 columns and in a pipe."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from tests.envelope.samples import COMM_RESULTS, SAMPLES

from cuda2rocm import report
from cuda2rocm.perf import compare, ingest
from cuda2rocm.perf.commrun import load
from cuda2rocm.report._names import group_names
from cuda2rocm.results.perf import Report


def _piped(renderable: object, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=False)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown format 'xml'; choose one of rich, text"):
        report.render(SAMPLES["bench-compare"](), "xml")
    with pytest.raises(ValueError, match="unknown result kind 'nope'; known kinds: scan, findings"):
        report.render(object(), "text", kind="nope")
    with pytest.raises(ValueError, match="no renderer for a object"):
        report.render(object(), "text")


def test_kinds_are_found_from_the_result_type() -> None:
    assert [report.kind_of(SAMPLES[k]()) for k in ("scan", "compare", "bench-compare", "comm")] == [
        "scan", "compare", "bench-compare", "comm"]
    assert report.kind_of([]) == "findings"
    assert set(report.formats("scan")) == set(report.FORMATS)


def test_a_registered_renderer_is_used_and_text_is_the_rich_renderable_in_plain() -> None:
    @report.renderer("bench-run", "count")
    def count(records: list[object]) -> str:
        return f"{len(records)} records"

    assert report.render(SAMPLES["bench-run"](), "count", kind="bench-run") == "2 records"
    value = SAMPLES["bench-compare"]()
    assert report.render(value, "text", width=120) == _piped(report.render(value, "rich"), 120)


def _comm_compare() -> Report:
    base = ingest.load([COMM_RESULTS / "first-run/allreduce.jsonl"]).metrics
    cand = ingest.load([COMM_RESULTS / "allreduce.jsonl"]).metrics
    return compare.compare(base, cand, compare.policy_from(["*busbw_gbps>=0.95x"]))


@pytest.mark.parametrize("width", [80, 100, 200])
def test_bench_compare_never_cuts_a_metric_name(width: int) -> None:
    result = _comm_compare()
    out = _piped(report.render(result, "rich"), width)
    lines = out.splitlines()
    assert "…" not in out and "..." not in out.replace("..", "")  # no ellipsis (95% CI is written a..b)
    assert max(map(len, lines)) <= width
    group = group_names([r.name for r in result.results])[0]
    assert group.title == "comm/all_reduce/float32/ip/*/*/busbw_gbps" and out.startswith(group.title)
    starts = [line.split(" ")[0] for line in lines]
    for _, label in group.rows:  # every row's own segments, whole, at the start of a line
        pieces = label.split("/")
        assert label in starts or all(f"{p}/" in starts or p in starts for p in pieces), label
    assert sum(line.split()[-1] in ("fail", "(n.s.)") or " fail" in line for line in lines) >= result.counts()["fail"]
    assert f"fail={result.counts()['fail']} ok={result.counts()['ok']}" in out
    if width == 80:
        assert "n.s.: difference not significant" in out


def test_bench_compare_with_plain_names_at_80_columns() -> None:
    out = _piped(report.render(SAMPLES["bench-compare"](), "rich"), 80)
    assert "…" not in out and max(map(len, out.splitlines())) <= 80
    assert "\nmetric " in out  # still a table
    starts = [line.split(" ")[0] for line in out.splitlines()]
    assert {"tokens_per_s", "step_time_s", "only_base_s"} <= set(starts)  # each name whole on its line
    for text in (">= 0.95x", "(base", "↑ higher is better, ↓ lower is better", "base only: only in baseline"):
        assert text in out


def test_names_group_by_their_leading_segments() -> None:
    groups = group_names(["comm/all_reduce/f32/ip/1/busbw", "comm/all_reduce/f32/oop/1/busbw", "x/y", "tokens_per_s",
                          "comm/all_gather/f32/ip/1/busbw", "comm/all_gather/f32/ip/2/busbw"])
    assert [(g.title, g.rows) for g in groups] == [
        ("comm/all_reduce/f32/*/1/busbw", ((0, "ip"), (1, "oop"))),
        ("comm/all_gather/f32/ip/*/busbw", ((4, "1"), (5, "2"))),
        ("", ((2, "x/y"), (3, "tokens_per_s"))),
    ]


@pytest.mark.parametrize("width", [80, 120])
def test_comm_tables_fit_80_columns_with_the_op_whole(width: int) -> None:
    run, _ = load(COMM_RESULTS / "allops.jsonl")
    out = _piped(report.render(run, "rich"), width)
    assert "…" not in out and max(map(len, out.splitlines())) <= width
    ops = {(r["op"], r["dtype"]) for r in run.records}
    for op, dtype in ops:
        assert f"\n{op} {dtype}" in out
    assert out.count("\n│ ") == len(run.records)


def test_a_comm_error_is_shown_whole_at_80_columns() -> None:
    from cuda2rocm.results.perf import CommRun

    error = "NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error, NCCL version 2.21.5 (remote peer gone)"
    run = CommRun({"backend": "rccl", "world_size": 8}, [{"kind": "comm", "op": "all_to_all", "dtype": "bfloat16",
                                                          "in_place": False, "bytes": 1 << 30, "error": error}])
    out = _piped(report.render(run, "rich"), 80)
    assert "…" not in out and max(map(len, out.splitlines())) <= 80 and "all_to_all bfloat16" in out
    assert "ERROR" in out and "see below" in out
    assert f"error out 1G: {error}" in " ".join(out.split())  # the whole message, wrapped at words only
