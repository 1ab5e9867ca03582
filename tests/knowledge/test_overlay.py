from __future__ import annotations

import pytest

from cuda2rocm import knowledge
from cuda2rocm.knowledge.compat import check
from cuda2rocm.knowledge.overlay import load_update, merge_into_overlay
from cuda2rocm.results.compat import Query

NEW_RELEASE = """\
releases:
  "7.3.0":
    gfx_targets: [gfx950, gfx942]
    os: [Ubuntu 24.04.4]
    frameworks: {pytorch: ["2.10"]}
    source: vendor matrix supplied by the user
    date: "2026-11-30"
"""


def test_yaml_update_adds_a_release(tmp_path, isolated_kb):
    src = tmp_path / "new.yaml"
    src.write_text(NEW_RELEASE, encoding="utf-8")
    path, count = merge_into_overlay(isolated_kb, load_update(src))
    knowledge.reload()
    assert count == 1 and path.is_file()
    assert knowledge.get_release("7.3").version == "7.3.0"
    assert check(Query("MI300X", "7.3", "ubuntu-24.04", {"pytorch": "2.10"})).status == "supported"
    assert knowledge.get_release("6.4.3") is not None  # shipped data still there


def test_csv_matrix_and_long_forms(tmp_path, isolated_kb):
    matrix = tmp_path / "m.csv"
    matrix.write_text("rocm,gfx_targets,os,pytorch,source,date\n"
                      "7.3.0,gfx950;gfx942,Ubuntu 24.04.4,2.10;2.9,matrix csv,2026-11-30\n", encoding="utf-8")
    long = tmp_path / "l.csv"
    long.write_text("table,key,field,value,source,date\n"
                    "gpus,MI300X,memory_gib,192,spec sheet,2026-11-30\n"
                    "plugins,flash-attention,rocm_support,amd_fork,test,2026-11-30\n", encoding="utf-8")
    merge_into_overlay(isolated_kb, load_update(matrix))
    merge_into_overlay(isolated_kb, load_update(long))
    knowledge.reload()
    assert knowledge.get_release("7.3.0").frameworks["pytorch"] == ("2.10", "2.9")
    assert knowledge.get_plugin("flash-attn").rocm_support == "amd_fork"
    assert knowledge.get_gpu("MI300X").gfx_target == "gfx942"  # untouched fields survive a field-wise merge
    assert (isolated_kb / "overlay.yaml.bak").is_file()


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.yaml", "releases: {7.3.0: [unclosed", "bad.yaml:1"),
        ("nosrc.yaml", "releases:\n  '7.3.0': {gfx_targets: [gfx942]}\n", "missing 'source'"),
        ("field.yaml", "gpus:\n  X1: {vendor: amd, colour: red, source: s, date: '2026-11-30'}\n", "colour"),
        ("vendor.yaml", "gpus:\n  X1: {vendor: intel, source: s, date: '2026-11-30'}\n", "vendor"),
        ("ver.yaml", "releases:\n  latest: {gfx_targets: [a], source: s, date: '2026-11-30'}\n", "not a ROCm version"),
        ("table.yaml", "widgets: {}\n", "unknown table"),
        ("date.yaml", "plugins:\n  p: {rocm_support: none, source: s, date: yesterday}\n", ".date"),
        ("empty.yaml", "", "expected a mapping"),
        ("hdr.csv", "a,b\n1,2\n", "hdr.csv:1"),
        ("row.csv", "table,key,field,value,source,date\ngpus,,memory_gib,1,s,2026-11-30\n", "row.csv:2"),
        ("bin.yaml", b"\xff\xfe\x00garbage", "cannot read"),
    ],
)
def test_malformed_updates_name_the_file(tmp_path, isolated_kb, name, text, message):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(knowledge.KnowledgeError) as err:
        load_update(path)
    assert name in str(err.value) and message in str(err.value)
    assert not (isolated_kb / "overlay.yaml").exists()


def test_malformed_overlay_on_disk_is_a_clear_error(isolated_kb):
    isolated_kb.mkdir(parents=True)
    (isolated_kb / "overlay.yaml").write_text("gpus: [1, 2\n", encoding="utf-8")
    knowledge.reload()
    with pytest.raises(knowledge.KnowledgeError, match=r"overlay\.yaml"):
        knowledge.gpus()


def test_oversized_and_looping_inputs(tmp_path, monkeypatch):
    from cuda2rocm.knowledge import overlay

    big = tmp_path / "big.yaml"
    big.write_text("gpus: {}\n" + "#" * 2048)
    monkeypatch.setattr(overlay, "MAX_BYTES", 1024)
    with pytest.raises(knowledge.KnowledgeError, match="larger than"):
        load_update(big)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    with pytest.raises(knowledge.KnowledgeError, match=r"loop\.yaml: cannot read"):
        load_update(loop)
