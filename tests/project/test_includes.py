"""The include graph: what a file sees from the headers it includes, honouring conditionals and include order;
scan and convert report cross-file constants as they report one-file ones, naming where they are defined."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from cuda2rocm.project.includes import Includes, file_events
from cuda2rocm.scan.api import scan
from cuda2rocm.source.tokens import tokenize
from cuda2rocm.translate.api import convert
from cuda2rocm.translate.options import Options


def _tree(root: Path, files: dict[str, str]) -> Includes:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return Includes({rel: root / rel for rel in files}, cache=root / ".cache")


def _seen(model: Includes, rel: str) -> dict[str, str]:
    inh = model.inherited(rel)
    return {name: " ".join(t.src for t in toks) for name, toks in inh.env.items()}


def test_values_come_with_their_origin(tmp_path: Path) -> None:
    model = _tree(tmp_path, {
        "include/cfg.h": "#pragma once\n#define WARP_SIZE 32\nconstexpr int kTile = 2 * 64;\n",
        "src/k.cu": '#include "../include/cfg.h"\n#define OWN 1\n',
    })
    inh = model.inherited("src/k.cu")
    assert {n: " ".join(t.src for t in v) for n, v in inh.env.items()} == {"WARP_SIZE": "32", "kTile": "2 * 64"}
    assert inh.origins == {"WARP_SIZE": ("include/cfg.h", 2), "kTile": ("include/cfg.h", 3)}
    assert inh.where("WARP_SIZE") == "WARP_SIZE = 32 at include/cfg.h:2"
    assert inh.headers == ("include/cfg.h",)


def test_resolution_order_and_ambiguity(tmp_path: Path) -> None:
    model = _tree(tmp_path, {
        "a/cfg.h": "#define A 1\n", "b/cfg.h": "#define B 1\n", "lib/x/cfg.h": "#define X 1\n",
        "a/k.cu": '#include "cfg.h"\n',  # beside the includer first
        "c/k.cu": '#include "cfg.h"\n',  # three candidates, none nearer: unresolved
        "d/k.cu": "#include <x/cfg.h>\n",  # a directory-qualified name: its unique suffix
        "e/k.cu": "#include <cfg.h>\n",  # a bare <...> name is a system header
    })
    assert model.resolve("a/k.cu", '"cfg.h"') == "a/cfg.h"
    assert model.resolve("c/k.cu", '"cfg.h"') is None
    assert model.resolve("d/k.cu", "<x/cfg.h>") == "lib/x/cfg.h"
    assert model.resolve("e/k.cu", "<cfg.h>") is None
    assert _seen(model, "d/k.cu") == {"X": "1"}


def test_conditionals_and_include_order(tmp_path: Path) -> None:
    model = _tree(tmp_path, {
        "wave.h": "#define USE_WAVE64\n",
        "cfg.h": ("#ifdef USE_WAVE64\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif\n"
                  "#if 0\n#define DEAD 1\n#endif\n"
                  "#ifndef TILE\n#define TILE 16\n#endif\n"
                  "#if defined(FROM_COMMAND_LINE)\n#define MAYBE_ONE 1\n#else\n#define MAYBE_TWO 2\n#endif\n"),
        "first.cu": '#include "wave.h"\n#include "cfg.h"\n',
        "second.cu": '#include "cfg.h"\n#include "wave.h"\n',
        "tiled.cu": '#define TILE 8\n#include "cfg.h"\n',
    })
    first = _seen(model, "first.cu")
    assert first["WARP_SIZE"] == "64"  # the #ifdef is known true: only its branch counts
    assert "DEAD" not in first  # #if 0
    assert first["TILE"] == "16"  # #ifndef of an unknown macro: maybe taken, nothing defined it before
    assert first["MAYBE_ONE"] == "1" and first["MAYBE_TWO"] == "2"  # unknown test: both branches may hold
    # USE_WAVE64 comes after cfg.h here: the #ifdef is unknown (it may come from -D), the first branch's
    # definition is the one a maybe-branch gives
    assert _seen(model, "second.cu")["WARP_SIZE"] == "64"
    assert "TILE" not in _seen(model, "tiled.cu")  # the file's own TILE: #ifndef TILE is false, and own names stay own


def test_cycles_and_self_includes_end(tmp_path: Path) -> None:
    model = _tree(tmp_path, {"a.h": '#include "b.h"\n#define A 1\n', "b.h": '#include "a.h"\n#define B 2\n',
                             "k.cu": '#include "a.h"\n#include "k.cu"\n'})
    assert _seen(model, "k.cu") == {"A": "1", "B": "2"}


def test_answers_shared_between_files_are_the_ones_each_would_get(tmp_path: Path) -> None:
    """Files of one folder with the same directives share one walk, except where the walk reaches one of them
    (a header including a source back): every answer equals a fresh model's for that file alone."""
    files = {
        "cfg.h": "#define WARP 32\n",
        "back.h": '#include "a.cu"\n#include "c.cu"\n#define BACK 1\n',
        "a.cu": '#include "cfg.h"\n#include "back.h"\n#define A_OWN 3\n',
        "b.cu": '#include "cfg.h"\n#include "back.h"\n',
        "c.cu": '#include "cfg.h"\n#include "back.h"\n',
        "sub/d.cu": '#include "cfg.h"\n',
        "sub/cfg.h": "#define WARP 64\n",
        "e.cu": '#include "cfg.h"\n',
    }
    model = _tree(tmp_path, files)
    for order in (sorted(files), sorted(files, reverse=True)):
        memo = Includes(dict(model.files), cache=tmp_path / ".cache")
        shared = {rel: memo.inherited(rel) for rel in order}
        for rel in files:
            alone = Includes(dict(model.files), cache=tmp_path / ".cache").inherited(rel)
            assert shared[rel] == alone, (rel, order)
    assert _seen(model, "sub/d.cu") == {"WARP": "64"} and _seen(model, "e.cu") == {"WARP": "32"}
    assert _seen(model, "b.cu") == {"WARP": "32", "BACK": "1", "A_OWN": "3"}  # a.cu read through back.h
    assert "A_OWN" not in _seen(model, "a.cu")
    assert "c.cu" in shared["b.cu"].headers and "c.cu" not in shared["c.cu"].headers


def test_facts_are_cached_by_content(tmp_path: Path) -> None:
    model = _tree(tmp_path, {"cfg.h": "#define WARP_SIZE 32\n", "k.cu": '#include "cfg.h"\n'})
    assert _seen(model, "k.cu") == {"WARP_SIZE": "32"}
    digest = hashlib.sha256(b"#define WARP_SIZE 32\n").hexdigest()
    entries = list((tmp_path / ".cache").rglob(f"{digest}.json"))  # named by the content's hash
    assert len(entries) == 1 and json.loads(entries[0].read_text())[0][:2] == ["define", "WARP_SIZE"]
    # a fresh model (a second run) reads the header's facts from the cache: the same answer
    again = Includes(dict(model.files), cache=tmp_path / ".cache")
    assert _seen(again, "k.cu") == {"WARP_SIZE": "32"}
    # changed content is a new entry, never the stale one
    (tmp_path / "cfg.h").write_text("#define WARP_SIZE 64\n", encoding="utf-8")
    assert _seen(Includes(dict(model.files), cache=tmp_path / ".cache"), "k.cu") == {"WARP_SIZE": "64"}
    # a corrupt entry is read again from the file
    for entry in (tmp_path / ".cache").rglob("*.json"):
        entry.write_text("{not json", encoding="utf-8")
    assert _seen(Includes(dict(model.files), cache=tmp_path / ".cache"), "k.cu") == {"WARP_SIZE": "64"}


def test_file_events_reads_only_file_scope_constants() -> None:
    text = "constexpr int kW = 32;\n__device__ int f() { const int local = 5; return local; }\n"
    assert [(e.kind, e.name) for e in file_events(tokenize(text), text)] == [("const", "kW")]


_PROJECT = {
    "include/cfg.h": ("#pragma once\n#define TILE 160\n#define BLOCK 96\nconstexpr int kWarpSize = 32;\n"),
    "src/reduce.cu": ('#include <cuda_runtime.h>\n#include "cfg.h"\n\n'
                      "__global__ void reduce(float* out, const float* in) {\n"
                      "  __shared__ float tile[TILE][TILE];\n"
                      "  int warp = threadIdx.x / kWarpSize;\n"
                      "  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];\n"
                      "  out[warp] = __shfl_down_sync(0xffffffffffffffffULL, tile[0][0], 1);\n}\n"
                      "void run(float* o, const float* i) { reduce<<<1, BLOCK>>>(o, i); }\n"),
}
_EXPECTED = {
    ("include/cfg.h", 4, "C2R-K106"),
    ("src/reduce.cu", 5, "C2R-K401"),  # 160 * 160 * 4 bytes from the header's TILE
    ("src/reduce.cu", 6, "C2R-K101"),  # the header's warp width used in the kernel
    ("src/reduce.cu", 10, "C2R-K105"),  # a block of the header's 96 threads
}


def _write(root: Path) -> None:
    for rel, text in _PROJECT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("jobs", [1, 2])
def test_scan_finds_cross_file_hazards(tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA2ROCM_CACHE_DIR", str(tmp_path / "cache"))
    _write(tmp_path / "p")
    if jobs > 1:  # enough files that the scan really uses its workers
        for k in range(6):
            (tmp_path / "p" / f"pad{k}.py").write_text("x = 1\n", encoding="utf-8")
    result = scan(tmp_path / "p", jobs=jobs)
    got = {(f.path, f.line, f.rule) for f in result.findings if f.rule.startswith("C2R-K")}
    assert got == _EXPECTED
    by_rule = {f.rule: f.message for f in result.findings}
    assert "(TILE = 160 at include/cfg.h:2)" in by_rule["C2R-K401"]
    assert "(kWarpSize = 32 at include/cfg.h:4)" in by_rule["C2R-K101"]
    assert "(BLOCK = 96 at include/cfg.h:3)" in by_rule["C2R-K105"]


def test_convert_reports_and_marks_them_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA2ROCM_CACHE_DIR", str(tmp_path / "cache"))
    _write(tmp_path / "p")
    report = convert([tmp_path / "p"], tmp_path / "out", Options(fix_hazards=True))
    got = {(f.path, f.line, f.rule) for f in report.findings if f.rule.startswith("C2R-K")}
    assert got == _EXPECTED
    out = (tmp_path / "out" / "src" / "reduce.hip").read_text(encoding="utf-8")
    # the header's constant is not this file's to fix: the use is marked, not rewritten
    assert "/* cuda2rocm: C2R-K101" in out and "threadIdx.x / kWarpSize" in out


def test_warp_synchronous_kernels_of_headers_are_known_where_launched(tmp_path: Path) -> None:
    files = {
        "include/k.cuh": "#pragma once\n#if 0\n"
                         "__global__ void dead(float* p) { p[0] = __shfl_xor_sync(~0u, p[0], 1); }\n#endif\n"
                         "__global__ void norm(float* p) { p[0] += __shfl_xor_sync(0xffffffffu, p[0], 1); }\n"
                         "__global__ void plain(float* p) { p[0] = 1; }\n",
        "src/run.cu": '#include "../include/k.cuh"\n'
                      "void run(float* p) { norm<<<1, 96>>>(p); plain<<<1, 96>>>(p); dead<<<1, 96>>>(p); }\n",
    }
    model = _tree(tmp_path, files)
    assert model.inherited("src/run.cu").warp_functions == {"norm"}
    found = [(f.path, f.line, f.rule) for f in scan(tmp_path).findings if f.rule == "C2R-K105"]
    assert found == [("src/run.cu", 2, "C2R-K105")]  # one: `norm` is warp-synchronous, `dead` is compiled out
