"""The shared planner: gitignore, links that leave the tree, an output directory inside the input."""

from __future__ import annotations

import os
from pathlib import Path

from cuda2rocm.rewrite.plan import plan


def _txt(rel: str) -> bool:
    return rel.endswith(".txt")


def test_gitignored_files_are_left_out_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n*.gen.txt\n")
    for name in ("a.txt", "x.gen.txt", "build/b.txt"):
        (tmp_path / name).write_text("x")
    assert [j.display for j in plan([tmp_path], _txt).jobs] == ["a.txt"]
    assert [j.display for j in plan([tmp_path], _txt, gitignore=False).jobs] == ["a.txt", "build/b.txt",
                                                                                  "x.gen.txt"]


def test_named_files_are_planned_whatever_their_name(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("x")
    assert [j.display for j in plan([tmp_path / "notes.md"], _txt).jobs] == ["notes.md"]


def test_links_leaving_the_tree_are_reported_with_their_targets(tmp_path: Path) -> None:
    src, outside = tmp_path / "src", tmp_path / "elsewhere"
    src.mkdir()
    outside.mkdir()
    (outside / "o.txt").write_text("x")
    (src / "real.txt").write_text("x")
    (src / "out.txt").symlink_to(outside / "o.txt")
    (src / "dir").symlink_to(outside, target_is_directory=True)
    (src / "gone.txt").symlink_to(tmp_path / "missing.txt")
    (src / "same.txt").symlink_to(src / "real.txt")  # inside the tree: one job, under the real name
    planned = plan([src], _txt, output=tmp_path / "out")
    assert [(j.display, j.dest) for j in planned.jobs] == [("real.txt", tmp_path / "out" / "real.txt")]
    problems = {p.path: p.message for p in planned.problems}
    assert set(problems) == {"dir", "gone.txt", "out.txt"}
    assert str(outside) in problems["dir"] and str(outside / "o.txt") in problems["out.txt"]
    assert "broken symlink" in problems["gone.txt"] and str(tmp_path / "missing.txt") in problems["gone.txt"]


def test_output_directory_inside_the_input_is_not_input(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "hip" / "hip").mkdir(parents=True)
    (tmp_path / "hip" / "a.txt").write_text("first run's output")
    (tmp_path / "hip" / "hip" / "a.txt").write_text("x")
    assert [j.display for j in plan([tmp_path], _txt, output=tmp_path / "hip").jobs] == ["a.txt"]
    # the same directory as output and input: nothing is left out (outputs go beside their sources)
    assert len(plan([tmp_path / "hip"], _txt, output=tmp_path / "hip").jobs) == 2


def test_a_file_reached_twice_is_planned_once(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("x")
    planned = plan([tmp_path, tmp_path / "sub", tmp_path / "sub" / "a.txt"], _txt, in_place=True)
    assert [(j.display, j.dest) for j in planned.jobs] == [("sub/a.txt", tmp_path / "sub" / "a.txt")]


def test_many_files_plan_in_walk_order(tmp_path: Path) -> None:
    for i in range(300):
        d = tmp_path / f"d{i % 7}"
        d.mkdir(exist_ok=True)
        (d / f"f{i:03d}.txt").write_text("x")
    displays = [j.display for j in plan([tmp_path], _txt).jobs]
    assert displays == sorted(displays) and len(set(displays)) == 300
    assert all(os.path.isfile(tmp_path / d) for d in displays)
