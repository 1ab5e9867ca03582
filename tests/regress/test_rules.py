from __future__ import annotations

from cuda2rocm.rules import by_family, load_all


def test_regress_rules_registered_with_full_docs():
    load_all()
    rules = by_family("regress")
    assert [r.id for r in rules] == sorted({r.id for r in rules}) and len(rules) >= 14
    for r in rules:
        assert r.id.startswith("C2R-R") and r.title
        for text in (r.what, r.why, r.example, r.instead):
            assert len(text.strip()) > 10, (r.id, text)
        assert r.references
