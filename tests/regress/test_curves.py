from __future__ import annotations

import json
import math

import pytest

from cuda2rocm.cli.main import main
from cuda2rocm.regress.curves import Band, compare_curves, read_curves
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.regress.metrics import Threshold, compare_metrics
from cuda2rocm.results.regress import Curve


def _loss(n=50, scale=1.0, stall=False):
    return [(s, (2.0 if stall else 2.0 * math.exp(-s / 15)) * scale + 0.1) for s in range(n)]


def _csv(path, rows, header="step,loss"):
    path.write_text(header + "\n" + "".join(f"{s},{v}\n" for s, v in rows))
    return path


def _jsonl(path, rows):
    path.write_text("".join(json.dumps({"step": s, "loss": v, "lr": 0.1}) + "\n" for s, v in rows))
    return path


def test_csv_and_jsonl_same_curve_pass(tmp_path):
    a = _csv(tmp_path / "a.csv", _loss())
    b = _jsonl(tmp_path / "b.jsonl", _loss())
    assert main(["compare", str(a), str(b), "--tag", "loss"]) == 0
    assert set(read_curves(b)) == {"loss", "lr"}


@pytest.mark.parametrize(("scale", "ok"), [(1.049, True), (1.051, False)])
def test_band_edge(tmp_path, scale, ok):
    base = Curve("loss", tuple(float(s) for s in range(10)), tuple(1.0 for _ in range(10)))
    cand = Curve("loss", base.steps, tuple(scale for _ in range(10)))
    report = compare_curves(base, cand, Band(rtol=0.05, final_rtol=1.0))
    assert report.band_ok is ok
    assert report.first_outside_step == (None if ok else 0.0)


def test_convergence_failure_and_nan(tmp_path):
    base = read_curves(_csv(tmp_path / "a.csv", _loss()))["loss"]
    stalled = read_curves(_csv(tmp_path / "b.csv", _loss(stall=True)))["loss"]
    report = compare_curves(base, stalled, Band(rtol=100.0))
    assert report.band_ok and not report.converged and "did not improve" in report.reasons[0]
    worse = Curve("loss", base.steps, tuple(v * 1.2 for v in base.values))
    assert any("final" in r for r in compare_curves(base, worse, Band(rtol=10.0)).reasons)
    nan = Curve("loss", base.steps, (*base.values[:-1], float("nan")))
    assert "NaN" in compare_curves(base, nan, Band(rtol=10.0)).reasons[-1]


def test_higher_is_better_and_smoothing(tmp_path):
    acc = [(s, 0.5 + 0.01 * s) for s in range(40)]
    noisy = [(s, v + (0.04 if s % 2 else -0.04)) for s, v in acc]
    a, b = _csv(tmp_path / "a.csv", acc, "step,acc"), _csv(tmp_path / "b.csv", noisy, "step,acc")
    assert main(["compare", str(a), str(b), "--higher-is-better", "--band-rtol", "0.02"]) == 1
    cfg = tmp_path / "c.yaml"
    cfg.write_text("curves:\n  smooth: 2\n  rtol: 0.02\n  max_outside_fraction: 0.05\n")
    assert main(["compare", str(a), str(b), "--higher-is-better", "--config", str(cfg)]) == 0


def test_tensorboard_event_files(tmp_path):
    pytest.importorskip("tensorboard")
    from torch.utils.tensorboard import SummaryWriter

    for name, scale in (("base", 1.0), ("cand", 1.3)):
        with SummaryWriter(str(tmp_path / name)) as w:
            for s, v in _loss(scale=scale):
                w.add_scalar("train/loss", v, s)
    curves = read_curves(tmp_path / "base")
    assert len(curves["train/loss"].values) == 50
    assert main(["compare", str(tmp_path / "base"), str(tmp_path / "base")]) == 0
    html = tmp_path / "r.html"
    assert main(["compare", str(tmp_path / "base"), str(tmp_path / "cand"), "--html", str(html)]) == 1
    assert "<polyline" in html.read_text()


def test_corrupt_event_file_clear_error(tmp_path, capsys):
    pytest.importorskip("tensorboard")
    bad = tmp_path / "events.out.tfevents.1.host"
    bad.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00garbage-not-a-record" * 3)
    assert main(["compare", str(bad), str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "Traceback" not in err


@pytest.mark.parametrize(("name", "text", "message"), [
    ("x.csv", "step,loss\n1,0.5\n2,abc\n", "x.csv:3: loss: not a number"),
    ("x.jsonl", '{"step": 1, "loss": 1}\n{oops\n', "x.jsonl:2: malformed JSON line"),
    ("x.csv", "", "empty CSV"),
    ("x.jsonl", "[1, 2]\n", "must be a JSON object"),
])
def test_bad_curve_files(tmp_path, name, text, message, capsys):
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(RegressInputError, match=message.replace(".", r"\.")):
        read_curves(p)
    assert main(["compare", str(p), str(p)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_no_shared_steps_or_tag(tmp_path):
    a = _csv(tmp_path / "a.csv", [(1, 1.0)])
    b = _csv(tmp_path / "b.csv", [(2, 1.0)])
    assert main(["compare", str(a), str(b)]) == 2
    assert main(["compare", str(a), str(a), "--tag", "nope"]) == 2


@pytest.mark.parametrize(("cand", "ok"), [(0.905, True), (0.8949, False)])
def test_metric_thresholds(tmp_path, cand, ok):
    thresholds = {"accuracy": Threshold(max_drop_abs=0.005, max_drop_rel=None)}
    [report] = compare_metrics({"accuracy": 0.9}, {"accuracy": cand}, thresholds)
    assert report.ok is ok


def test_metrics_cli_lower_is_better_and_missing(tmp_path):
    (tmp_path / "b.json").write_text(json.dumps({"perplexity": 10.0, "accuracy": 0.9, "bleu": 30}))
    (tmp_path / "c.json").write_text(json.dumps({"perplexity": 10.05, "accuracy": 0.9}))
    cfg = tmp_path / "t.yaml"
    cfg.write_text("metrics:\n  perplexity: {higher_is_better: false, max_drop_rel: 0.01}\n")
    argv = ["compare", "--metrics", str(tmp_path / "b.json"), str(tmp_path / "c.json"), "--config", str(cfg)]
    assert main(argv) == 1  # bleu missing in candidate
    reports = {m.name: m for m in compare_metrics({"perplexity": 10.0}, {"perplexity": 10.2},
                                                  {"perplexity": Threshold(higher_is_better=False)})}
    assert not reports["perplexity"].ok and "rose" in reports["perplexity"].reason
    (tmp_path / "bad.json").write_text('{"accuracy": "high"}')
    assert main(["compare", "--metrics", str(tmp_path / "bad.json"), str(tmp_path / "c.json")]) == 2
