"""Generate docs/rules.md from the rule registry.

python tools/gen_rule_docs.py          # write docs/rules.md (atomically)
python tools/gen_rule_docs.py --check  # exit 1 if docs/rules.md is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuda2rocm.fsio import write_text_atomic
from cuda2rocm.report.rules_doc import rules_document
from cuda2rocm.rules import load_all

TARGET = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def generate() -> str:
    return rules_document(load_all().values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/rules.md is out of date")
    args = parser.parse_args(argv)
    text = generate()
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if args.check:
        if current != text:
            print(f"{TARGET} is stale; run python tools/gen_rule_docs.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        write_text_atomic(TARGET, text)
    print(f"{TARGET}: {len(load_all())} rules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
