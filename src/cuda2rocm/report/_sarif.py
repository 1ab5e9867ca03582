"""SARIF 2.1.0 for GitHub code scanning and other viewers; built from plain dicts.

Levels follow severity (critical/high -> error, medium -> warning, low/info -> note). Rule metadata comes
from the registry; ``helpUri`` points at the rule's anchor in docs/rules.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from cuda2rocm import __version__
from cuda2rocm.model import Finding, Fix, InputProblem, Severity
from cuda2rocm.report._data import RULES_DOC_URL, rule_url
from cuda2rocm.rules import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

_LEVELS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
_PRECISION = {1: "low", 2: "medium", 3: "high"}


def level(severity: Severity) -> str:
    return _LEVELS[severity]


def sarif_log(
    findings: Sequence[Finding],
    rules: Mapping[str, Rule],
    *,
    root: str = "",
    problems: Sequence[InputProblem] = (),
    properties: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete SARIF log with one run."""
    ordered = sorted(findings, key=Finding.sort_key)
    rule_ids = sorted({f.rule for f in ordered})
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    run: dict[str, Any] = {
        "tool": {"driver": _driver([_descriptor(i, rules.get(i)) for i in rule_ids])},
        "invocations": [_invocation(problems)],
        "results": _results(ordered, index),
        "columnKind": "unicodeCodePoints",
    }
    if PurePosixPath(root).is_absolute():
        run["originalUriBaseIds"] = {SRCROOT: {"uri": PurePosixPath(root).as_uri().rstrip("/") + "/"}}
    if properties:
        run["properties"] = dict(properties)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _driver(descriptors: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "cuda2rocm",
        "version": __version__,
        "informationUri": RULES_DOC_URL.rsplit("/blob/", 1)[0],
        "rules": descriptors,
    }


def _descriptor(rule_id: str, rule: Rule | None) -> dict[str, Any]:
    help_uri = rule_url(rule_id)
    if rule is None:
        return {"id": rule_id, "shortDescription": {"text": rule_id}, "helpUri": help_uri}
    return {
        "id": rule.id,
        "name": _camel(rule.title),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.what.strip()},
        "help": {"text": _help_text(rule), "markdown": _help_markdown(rule)},
        "helpUri": help_uri,
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {
            "tags": [rule.family, str(rule.layer)],
            "precision": _PRECISION[int(rule.confidence)],
            "problem.severity": "recommendation" if level(rule.severity) == "note" else level(rule.severity),
        },
    }


def _camel(title: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in title.replace("-", " ").split() if word.isalnum())


def _help_text(rule: Rule) -> str:
    parts = [rule.what.strip(), "Why it matters on AMD: " + rule.why.strip(), "Use instead: " + rule.instead.strip()]
    return "\n\n".join(parts)


def _help_markdown(rule: Rule) -> str:
    example = f"```\n{rule.example.strip()}\n```" if rule.example.strip() else ""
    parts = [
        rule.what.strip(),
        "**Why it matters on AMD.** " + rule.why.strip(),
        example,
        "**Use instead.** " + rule.instead.strip(),
    ]
    return "\n\n".join(p for p in parts if p)


def _results(findings: list[Finding], index: dict[str, int]) -> list[dict[str, Any]]:
    seen: dict[tuple[str, str, str], int] = {}
    results = []
    for f in findings:
        key = (f.rule, f.path, f.message)
        seen[key] = seen.get(key, 0) + 1
        results.append(_result(f, index[f.rule], _fingerprint(*key, seen[key])))
    return results


def _result(f: Finding, rule_index: int, fingerprint: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": level(f.severity),
        "message": {"text": message_text(f.message, f.fix)},
        "locations": [{"physicalLocation": _physical(f.path, f.line, f.col)}],
        "partialFingerprints": {"cuda2rocm/v1": fingerprint},
        "properties": {"severity": str(f.severity), "confidence": str(f.confidence), "layer": str(f.layer),
                       **({"fix": f.fix} if f.fix else {})},
    }
    if f.remedy is not None and f.remedy.edits:
        result["fixes"] = [_fix(f.path, f.remedy)]
    return result


def message_text(message: str, fix: str) -> str:
    """The result's message: the finding's message as a sentence, then ``Fix: ...`` as one."""
    if not fix:
        return message
    return f"{_sentence(message)} Fix: {_sentence(fix)}"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?:;" else text + "."


def _fix(path: str, remedy: Fix) -> dict[str, Any]:
    """A SARIF ``fix``: the edits as replacements (character offsets) in the finding's file."""
    replacements = [
        {"deletedRegion": {"charOffset": e.start, "charLength": e.end - e.start},
         "insertedContent": {"text": e.replacement}}
        for e in sorted(remedy.edits, key=lambda e: (e.start, e.end))
    ]
    return {
        "description": {"text": remedy.message},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(path), "uriBaseId": SRCROOT},
                             "replacements": replacements}],
        "properties": {"applicability": str(remedy.applicability)},
    }


def _physical(path: str, line: int, col: int) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(path), "uriBaseId": SRCROOT}}
    if line > 0:
        physical["region"] = {"startLine": line, **({"startColumn": col} if col > 0 else {})}
    return physical


def _uri(path: str) -> str:
    """A relative URI reference for a '/'-separated path (percent-encoding what URIs may not hold)."""
    return quote(path.replace("\\", "/"), safe="/-._~")


def _fingerprint(rule: str, path: str, message: str, occurrence: int) -> str:
    """Stable across line moves: rule, file, message and which occurrence of that triple it is."""
    digest = hashlib.sha256(f"{rule}\0{path}\0{message}\0{occurrence}".encode()).hexdigest()
    return digest[:32]


def _invocation(problems: Sequence[InputProblem]) -> dict[str, Any]:
    notes = [
        {
            "level": "warning",
            "message": {"text": p.message},
            "locations": [{"physicalLocation": _physical(p.path, p.line, 0)}],
        }
        for p in problems
    ]
    return {"executionSuccessful": True, "toolExecutionNotifications": notes}
