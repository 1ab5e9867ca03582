"""One machine fingerprint (``envinfo.fingerprint``) serves ``env``, ``bench``/``comm`` records and ``capture``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cuda2rocm.envinfo import fingerprint
from cuda2rocm.perf import fingerprint as perf_fingerprint


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts real :func:`fingerprint.collect` runs, from a cold cache."""
    calls: list[int] = []
    real = fingerprint.collect

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(fingerprint, "collect", counted)
    fingerprint._probed_once.cache_clear()
    yield calls
    fingerprint._probed_once.cache_clear()


def test_bench_and_capture_records_share_one_probe(probes: list[int]) -> None:
    torch = pytest.importorskip("torch")
    from cuda2rocm.regress import fingerprint as regress_fingerprint

    bench = perf_fingerprint.fingerprint()
    capture = regress_fingerprint.fingerprint()
    assert len(probes) == 1
    machine = {k: v for k, v in bench.items() if k not in ("fingerprint_source", "tool_version", "recorded_at")}
    assert capture["envinfo"]["schema"] == machine["schema"] == fingerprint.SCHEMA
    assert capture["envinfo"]["host"] == machine["host"]
    assert capture["torch"] == torch.__version__
    assert bench["fingerprint_source"] == "cuda2rocm.envinfo"


def test_capture_keeps_the_machine_facts_whatever_was_imported_before(probes: list[int]) -> None:
    # the capture record used to look the package up by attribute: once the envinfo.fingerprint *module* was
    # imported, the attribute named it, was not callable, and the machine facts silently went missing
    pytest.importorskip("torch")
    import cuda2rocm.envinfo.fingerprint  # noqa: F401
    from cuda2rocm.regress import fingerprint as regress_fingerprint

    assert regress_fingerprint.fingerprint()["envinfo"]["schema"] == fingerprint.SCHEMA


def test_every_caller_gets_its_own_copy(probes: list[int]) -> None:
    first = fingerprint.this_machine()
    first["host"] = "changed"
    first["gpus"].append({"name": "changed"})
    again = fingerprint.this_machine()
    assert again["host"] != "changed" and {"name": "changed"} not in again["gpus"]
    assert len(probes) == 1


def test_a_probe_bug_becomes_an_error_record(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("probe bug")

    monkeypatch.setattr(fingerprint, "collect", broken)
    fingerprint._probed_once.cache_clear()
    try:
        assert fingerprint.this_machine() == {"schema": fingerprint.SCHEMA, "error": "RuntimeError: probe bug"}
    finally:
        fingerprint._probed_once.cache_clear()
