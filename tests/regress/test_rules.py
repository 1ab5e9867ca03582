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


def test_package_api_is_lazy_and_complete():
    import subprocess
    import sys

    code = ("import sys, cuda2rocm.regress as r; assert 'torch' not in sys.modules; "
            "[getattr(r, n) for n in r._LAZY]; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
