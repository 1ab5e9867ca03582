"""The commit a project's checkout is at, read from ``.git`` itself (no ``git`` process, nothing executed)."""

from __future__ import annotations

import re
from pathlib import Path

_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


def git_commit(path: str | Path) -> str | None:
    """HEAD's commit id of the repository containing ``path``, or ``None`` (not a checkout, unborn, unreadable)."""
    try:
        start = Path(path).resolve()
        for folder in (start, *start.parents):
            dotgit = folder / ".git"
            if dotgit.exists():
                return _head(_git_dir(dotgit))
    except (OSError, ValueError):
        return None
    return None


def _git_dir(dotgit: Path) -> Path:
    if dotgit.is_dir():
        return dotgit
    text = dotgit.read_text(encoding="utf-8").strip()  # a worktree or submodule: "gitdir: <path>"
    if not text.startswith("gitdir:"):
        raise ValueError(f"{dotgit}: not a gitdir link")
    target = Path(text[len("gitdir:"):].strip())
    return target if target.is_absolute() else (dotgit.parent / target).resolve()


def _head(git_dir: Path) -> str | None:
    head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    if _SHA.match(head):
        return head
    if not head.startswith("ref:"):
        return None
    ref = head[len("ref:"):].strip()
    common = git_dir
    if (git_dir / "commondir").is_file():
        common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    for base in dict.fromkeys((git_dir, common)):
        loose = base / ref
        if loose.is_file():
            sha = loose.read_text(encoding="utf-8").strip()
            return sha if _SHA.match(sha) else None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _SHA.match(sha):
                return sha
    return None
