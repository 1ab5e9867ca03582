"""What the requirements of one ``pip install`` command line become in a deploy file (Dockerfile ``RUN``, scripts).

Each requirement word goes through :func:`cuda2rocm.migrate.pydeps.plan_spec`, the one decision ``migrate build``
makes for a requirements file's lines (torch pins to the ROCm index's releases, ``nvidia-*-cu12`` dropped,
``cupy-cuda12x`` replaced where a ROCm wheel exists for the target, else reported with the knowledge base's notes);
a PyTorch wheel file of a CUDA build (``.../cu124/torch-2.4.1%2Bcu124-...whl``) becomes the pin of the ROCm index's
release (:func:`cuda2rocm.migrate.pydeps.cuda_wheel`). A command that installs torch, torchvision or torchaudio and
names no wheel index would take them from PyPI (CUDA builds on Linux): PyTorch's ROCm index of the target stack is
added after ``install`` (``--index-url`` when the command installs only those, as PyTorch's install page writes it;
``--extra-index-url`` when other packages come from PyPI).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cuda2rocm.knowledge import wheels
from cuda2rocm.migrate import pydeps
from cuda2rocm.migrate.base import Collector
from cuda2rocm.model import Edit, Severity
from cuda2rocm.project.stack import Stack
from cuda2rocm.rules import Rule
from cuda2rocm.source.edits import word_removal
from cuda2rocm.source.formats.shell import Word

#: pip install options whose value is the next word (pip's reference, "pip install" options; checked 2026-12-07)
VALUE_OPTIONS = frozenset({*pydeps.INDEX_OPTIONS, *pydeps.INCLUDE_OPTIONS, "-e", "--editable", "-t", "--target",
                           "--prefix", "--root", "--src", "--platform", "--python-version", "--implementation",
                           "--abi", "--upgrade-strategy", "--only-binary", "--no-binary", "--progress-bar",
                           "--config-settings", "-C", "--global-option", "--trusted-host", "--cache-dir", "--log",
                           "--timeout", "--retries", "--proxy", "--cert", "--client-cert", "--exists-action",
                           "--report", "--python"})


@dataclass(frozen=True)
class PipChange:
    """``[start, end)`` of the command's words (their offsets) becomes ``replacement``; ``drop``: the word goes
    with a blank beside it; ``replacement`` None: reported only."""

    start: int
    end: int
    replacement: str | None
    rule: Rule | None  # None: the caller's rule for wheel indexes (M109 in a Dockerfile, M413 in a script)
    message: str
    severity: Severity | None = None
    drop: bool = False


def _inner(w: Word) -> int | None:
    """Where a word's value starts in its text: plain or quoted whole; None when it is built (``$V``, parts)."""
    if w.src == w.value:
        return w.offset
    if len(w.src) >= 2 and w.src[0] in "\"'" and w.src[-1] == w.src[0] and w.src[1:-1] == w.value:
        return w.offset + 1
    return None


def pip_changes(words: Sequence[Word], stack: Stack) -> list[PipChange]:
    """The changes of one pip install (``words``: the command's words, wrappers stripped)."""
    values = [w.value for w in words]
    tgt = pydeps.Target(wheels.index_for(stack.rocm))
    out: list[PipChange] = []
    install = words[values.index("install")]
    torch = others = has_index = False
    skip = False
    for w in words[values.index("install") + 1:]:
        value = w.value
        # PyTorch's index (a CUDA one becomes ROCm's: images.wheel_index_edits); a -r file names its own
        has_index |= bool(wheels.CUDA_INDEX.search(value) or wheels.ROCM_INDEX.search(value)) and (
            skip or value.startswith("-"))
        if skip:
            skip = False
            continue
        if value.startswith("-"):
            name = value.split("=", 1)[0]
            has_index |= name in pydeps.INCLUDE_OPTIONS
            skip = "=" not in value and name in VALUE_OPTIONS
            continue
        at = _inner(w)
        wheel = pydeps.cuda_wheel(value, tgt) if "://" in value else None
        if wheel is not None:
            spec, rule, message = wheel
            torch |= bool(spec)
            others |= not spec
            out.append(PipChange(w.offset, w.end, spec or None, rule, message, None if spec else Severity.MEDIUM))
            continue
        plan = pydeps.plan_spec(value, tgt) if at is not None and "://" not in value else None
        if plan is None:
            others = True
            continue
        torch |= plan.torch_family
        others |= not plan.torch_family
        assert at is not None
        for ch in plan.changes:
            out.append(PipChange(at + ch.start, at + ch.end, ch.replacement, ch.rule, ch.message, ch.severity))
        for rule, offset, message, severity in plan.reports:
            out.append(PipChange(at + offset, at + offset, None, rule, message, severity))
        if plan.drop is not None:
            out.append(PipChange(w.offset, w.end, "", plan.drop[0], plan.drop[1], drop=True))
    if torch and not has_index:
        option = "--extra-index-url" if others else "--index-url"
        out.append(PipChange(install.end, install.end, f" {option} {tgt.index.url}", None,
                             f"torch would come from PyPI, a CUDA build: {option} {tgt.index.url} (the target stack's "
                             "ROCm index) added"))
    return out


def place_pip_changes(out: Collector, text: str, words: Sequence[Word], stack: Stack, index_rule: Rule,
                      base: int = 0) -> None:
    """:func:`pip_changes` as edits and findings of ``out`` (``base``: where the words' offsets start in
    ``text``; ``index_rule``: the file kind's rule for the added wheel index)."""
    for ch in pip_changes(words, stack):
        rule = ch.rule or index_rule
        start, end = base + ch.start, base + ch.end
        if ch.replacement is None:
            out.report(rule, start, ch.message, severity=ch.severity)
        elif ch.drop:
            out.edit(rule, *word_removal(text, start, end), "", ch.message)
        else:
            edit = out.add_edit(Edit(start, end, ch.replacement, rule.id))
            if edit is not None:
                out.report(rule, start, ch.message, edit=edit, severity=ch.severity)
