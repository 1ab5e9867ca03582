"""Regenerate the precision/recall table in docs/hazards.md from the labelled corpus.

    python3 scripts/hazards_table.py            # rewrite the table between the markers
    python3 scripts/hazards_table.py --check    # exit 1 if docs/hazards.md is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from cuda2rocm.hazards.docs import render_table, update_doc

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    doc = ROOT / "docs" / "hazards.md"
    table = render_table(ROOT / "tests" / "hazards" / "corpus")
    text = doc.read_text(encoding="utf-8")
    new = update_doc(text, table)
    if "--check" in argv:
        return 0 if new == text else 1
    if new != text:
        tmp = doc.with_suffix(".md.tmp")
        tmp.write_text(new, encoding="utf-8")
        tmp.replace(doc)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
