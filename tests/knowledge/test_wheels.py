"""PyTorch's ROCm wheel indexes (knowledge/data/torch_wheels.yaml): internal consistency, lookups, and agreement
with the reference facts (every ROCm index they install from is listed, or named as not sourced yet)."""

from __future__ import annotations

import itertools
import re

from cuda2rocm.knowledge import _load, versions, wheels


def test_every_index_has_releases_with_companions() -> None:
    assert wheels.indexes(), "no indexes"
    for index in wheels.indexes():
        assert index.torch and index.url == f"https://download.pytorch.org/whl/rocm{index.rocm}"
        assert index.local_tag == f"+rocm{index.rocm}"
        assert set(index.unverified) <= set(index.torch)
        for torch in index.torch:
            assert wheels.companions(torch) is not None, (index.rocm, torch)


def test_companions_rise_with_torch() -> None:
    """Newer torch releases go with newer (or the same) torchvision and torchaudio releases."""
    table = _load.packaged(wheels.FILE)["companions"]
    ordered = versions.newest_first(str(t) for t in table)
    for newer, older in itertools.pairwise(ordered):
        pair_new, pair_old = wheels.companions(newer), wheels.companions(older)
        assert pair_new is not None and pair_old is not None
        assert versions.key(pair_new[0]) > versions.key(pair_old[0])
        assert versions.key(pair_new[1]) >= versions.key(pair_old[1])
        assert wheels.torch_for("torchvision", pair_new[0]) == newer


def test_index_lookup() -> None:
    assert wheels.newest().rocm == "7.1" and wheels.newest().torch == ("2.10.0",)
    assert wheels.index_for("6.4").index.rocm == "6.4" and wheels.index_for("6.4").exact
    assert wheels.index_for("6.4.1").index.rocm == "6.4" and wheels.index_for("6.4.1").exact
    assert wheels.index_for("6.2.4").index.rocm == "6.2.4"
    assert wheels.index_for("6.2.1").index.rocm == "6.2"
    choice = wheels.index_for("7.2")
    assert (choice.index.rocm, choice.exact) == ("7.1", False)
    assert (wheels.index_for("7.0").index.rocm, wheels.index_for("7.0").exact) == ("6.4", False)
    assert wheels.index_for("4.0").index.rocm == "5.4.2"  # older than every index: the oldest


def test_nearest_torch() -> None:
    index = wheels.get("6.4")
    assert index is not None
    assert wheels.nearest_torch(index, "2.9.0") == "2.9.0"
    assert wheels.nearest_torch(index, "2.1.2") == "2.8.0"  # the oldest newer release
    assert wheels.nearest_torch(index, "2.11.0") == "2.9.1"  # newer than all: the newest


def test_reference_indexes_are_listed(reference) -> None:
    """Every ``download.pytorch.org/whl/rocmX.Y`` the reference facts install from is an index of the table, or
    named in its ``unlisted`` (exists, releases not sourced)."""
    meta = _load.packaged(wheels.FILE)["meta"]
    known = {i.rocm for i in wheels.indexes()} | {str(k) for k in meta.get("unlisted", {})}
    text = repr(reference("pytorch_rocm")) + repr(reference("plugins"))
    named = set(re.findall(r"download\.pytorch\.org/whl/(?:nightly/)?rocm(\d+\.\d+(?:\.\d+)?)", text))
    assert named and named <= known, named - known
    wheel_facts = reference("pytorch_rocm")["wheels"]["upstream_pytorch"]
    assert wheel_facts["index_url_pattern"].startswith(meta["url_pattern"].split("{")[0])
    assert wheel_facts["local_version_tag"].startswith(meta["local_tag"].split("{")[0])
