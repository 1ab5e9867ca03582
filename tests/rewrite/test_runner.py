"""The shared rewrite runner on a toy transform: every mode, refusals, backups, atomic writes, stale temps."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest

from cuda2rocm.fsio import InputError, clean_stale_temps, write_text_atomic
from cuda2rocm.rewrite.plan import Job
from cuda2rocm.rewrite.runner import Mode, Rewrite, WritePolicy, rewrite_file, rewrite_paths


def upper(job: Job, text: str) -> Rewrite[str]:
    """cuda -> hip; a file containing FAIL fails."""
    if "FAIL" in text:
        return Rewrite("failed", failed=True)
    new = text.replace("cuda", "hip")
    return Rewrite("changed" if new != text else "same", new if new != text else None)


def unreadable(job: Job, exc: InputError) -> str:
    return f"unreadable: {exc.message}"


def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text("cudaMalloc\n")
    (src / "sub" / "b.txt").write_text("nothing to do\n")
    (src / "bad.txt").write_bytes(b"\xff\xfe not utf-8")
    return src


def run(src: Path, mode: Mode, **kw: object):  # type: ignore[no-untyped-def]
    return rewrite_paths([src], lambda rel: rel.endswith(".txt"), upper, unreadable, mode, **kw)  # type: ignore[arg-type]


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("mode", [Mode.DIFF, Mode.CHECK, Mode.DRY_RUN])
def test_modes_that_write_nothing(tmp_path: Path, mode: Mode) -> None:
    src = tree(tmp_path)
    before = snapshot(tmp_path)
    done = run(src, mode, output=tmp_path / "out")
    assert snapshot(tmp_path) == before
    assert [f.job.display for f in done.changed] == ["a.txt"]
    assert {f.job.display: f.detail for f in done.files} == {
        "a.txt": "changed", "bad.txt": "unreadable: not valid UTF-8 (byte 0xff at offset 0)", "sub/b.txt": "same"}
    diff = done.changed[0].diff()
    if mode is Mode.DIFF:
        assert "-cudaMalloc\n+hipMalloc\n" in diff and diff.startswith("--- a/a.txt\n+++ b/a.txt\n")
    else:
        assert done.changed[0].original == ""  # the source text is kept only for diffs
    if mode is Mode.DRY_RUN:
        assert {f.job.dest for f in done.files} == {tmp_path / "out" / n for n in ("a.txt", "bad.txt", "sub/b.txt")}


def test_mirror_writes_a_copy_of_the_tree(tmp_path: Path) -> None:
    src = tree(tmp_path)
    done = run(src, Mode.MIRROR, output=tmp_path / "out")
    assert snapshot(tmp_path / "out") == {"a.txt": b"hipMalloc\n", "sub/b.txt": b"nothing to do\n"}
    assert snapshot(src)["a.txt"] == b"cudaMalloc\n"
    assert {f.job.display: f.written for f in done.files} == {"a.txt": True, "bad.txt": False, "sub/b.txt": True}


def test_mirror_refuses_to_clobber_without_force(tmp_path: Path) -> None:
    src = tree(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.txt").write_text("mine")
    done = run(src, Mode.MIRROR, output=tmp_path / "out")
    refused = [f for f in done.files if f.write_error]
    assert [f.job.display for f in refused] == ["a.txt"] and "exists (use --force" in refused[0].write_error
    assert (tmp_path / "out" / "a.txt").read_text() == "mine"
    run(src, Mode.MIRROR, output=tmp_path / "out", force=True)
    assert (tmp_path / "out" / "a.txt").read_text() == "hipMalloc\n"


def test_in_place_backs_up_changed_files_only(tmp_path: Path) -> None:
    src = tree(tmp_path)
    os.chmod(src / "a.txt", 0o640)
    run(src, Mode.IN_PLACE)
    assert snapshot(src) == {"a.txt": b"hipMalloc\n", "a.txt.orig": b"cudaMalloc\n", "bad.txt": b"\xff\xfe not utf-8",
                             "sub/b.txt": b"nothing to do\n"}
    assert (src / "a.txt").stat().st_mode & 0o777 == 0o640
    (src / "a.txt").write_text("cudaFree\n")
    again = run(src, Mode.IN_PLACE)  # the backup exists: refused, source untouched
    assert "backup" in next(f for f in again.files if f.job.display == "a.txt").write_error
    assert (src / "a.txt").read_text() == "cudaFree\n"
    run(src, Mode.IN_PLACE, force=True)
    assert (src / "a.txt.orig").read_text() == "cudaFree\n" and (src / "a.txt").read_text() == "hipFree\n"
    (src / "a.txt").write_text("cudaX\n")
    run(src, Mode.IN_PLACE, backup=False)
    assert (src / "a.txt").read_text() == "hipX\n" and (src / "a.txt.orig").read_text() == "cudaFree\n"


def test_failed_transform_writes_nothing(tmp_path: Path) -> None:
    src = tree(tmp_path)
    (src / "f.txt").write_text("cuda FAIL\n")
    done = run(src, Mode.IN_PLACE)
    f = next(f for f in done.files if f.job.display == "f.txt")
    assert f.detail == "failed" and not f.written and (src / "f.txt").read_text() == "cuda FAIL\n"
    assert not (src / "f.txt.orig").exists()


def test_in_place_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "k.txt"
    path.write_text("cuda one\n")

    def edits_meanwhile(job: Job, text: str) -> Rewrite[str]:
        path.write_text("cuda two, typed by the user meanwhile\n")  # the editor saves while we translate
        return upper(job, text)

    done = rewrite_file(Job(path, "k.txt", path), edits_meanwhile, unreadable, WritePolicy(), 2**20)
    assert "changed since it was read" in done.write_error and not done.written
    assert done.digest == hashlib.sha256(b"cuda one\n").hexdigest()  # of the bytes the transform saw
    assert path.read_text() == "cuda two, typed by the user meanwhile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.txt"]  # no backup, no temporary


def test_writes_are_atomic_for_a_concurrent_reader(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    old, new = "a" * 2**20, "b" * 2**20
    write_text_atomic(path, old)
    stop = threading.Event()
    seen: set[str] = set()

    def reader() -> None:
        while not stop.is_set():
            data = path.read_text()
            seen.add("old" if data == old else "new" if data == new else f"torn ({len(data)} chars)")

    t = threading.Thread(target=reader)
    t.start()
    try:
        for i in range(40):
            write_text_atomic(path, new if i % 2 == 0 else old, durable=False)
    finally:
        stop.set()
        t.join()
    assert seen <= {"old", "new"} and seen


def test_stale_temps_of_dead_writers_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    dead = _dead_pid()
    stale = tmp_path / f".a.txt.orig.c2r{dead}-x1y2.tmp"
    live = tmp_path / f".a.txt.c2r{os.getpid()}-z3.tmp"
    foreign = tmp_path / ".a.txt.abc.tmp"  # not named as ours: never touched
    for p in (stale, live, foreign):
        p.write_text("partial")
    assert clean_stale_temps(tmp_path) == [stale]
    assert not stale.exists() and live.exists() and foreign.exists()


def test_a_run_that_writes_cleans_the_temps_a_killed_run_left(tmp_path: Path) -> None:
    src = tree(tmp_path)
    stale = src / "sub" / f".b.txt.c2r{_dead_pid()}-q.tmp"
    stale.write_text("half")
    assert run(src, Mode.CHECK).removed_temps == [] and stale.exists()  # a run that writes nothing leaves it
    done = run(src, Mode.IN_PLACE, backup=False)
    assert done.removed_temps == [stale] and not stale.exists()


def _dead_pid() -> int:
    """A process id that exists no more (a child that has been reaped)."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_mirror_needs_an_output(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="output"):
        run(tree(tmp_path), Mode.MIRROR)


def test_workers_give_the_same_outcomes(tmp_path: Path) -> None:
    src = tree(tmp_path)
    for i in range(6):
        (src / f"n{i}.txt").write_text(f"cuda{i}\n")
    one = run(src, Mode.DIFF)
    two = rewrite_paths([src], _is_txt, upper, unreadable, Mode.DIFF, workers=2)
    assert [(f.job, f.detail, f.text) for f in one.files] == [(f.job, f.detail, f.text) for f in two.files]


def _is_txt(rel: str) -> bool:
    return rel.endswith(".txt")
