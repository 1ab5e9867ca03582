"""Small inline-SVG charts for the HTML report (no plotting library, no scripts, escaped labels)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def bar_chart(labels: Sequence[str], values: Sequence[float], limits: Sequence[float | None] = (),
              *, title: str = "", width: int = 720) -> str:
    """Horizontal bars on a log10 axis (errors span many decades); a tick marks each bar's limit."""
    row, left, top = 16, 260, 24
    height = top + row * len(labels) + 30
    logs = [_log(v) for v in values] + [_log(x) for x in limits if x]
    lo, hi = math.floor(min(logs, default=-8)), math.ceil(max(logs, default=0)) + 0.001
    scale = (width - left - 20) / (hi - lo)
    parts = [_svg_open(width, height), f'<text x="4" y="16" font-weight="bold">{escape(title)}</text>']
    for i, (label, v) in enumerate(zip(labels, values, strict=True)):
        y = top + i * row
        limit = limits[i] if i < len(limits) else None
        bad = limit is not None and v > limit
        w = max(1.0, (_log(v) - lo) * scale)
        parts.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{escape(label[-40:])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{w:.1f}" height="{row - 4}" '
                     f'fill="{PALETTE[1] if bad else PALETTE[0]}"><title>{escape(label)}: {v:.3g}</title></rect>')
        if limit:
            x = left + (_log(limit) - lo) * scale
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + row}" stroke="black"/>')
    parts += _x_axis(lo, hi, left, scale, height - 24)
    return "".join(parts) + "</svg>"


def line_chart(series: Sequence[tuple[str, Sequence[float], Sequence[float]]], *, title: str = "",
               width: int = 720, height: int = 300) -> str:
    """Overlay of (name, xs, ys) series, linear axes."""
    xs = [x for _, sx, _ in series for x in sx]
    ys = [y for _, _, sy in series for y in sy if math.isfinite(y)]
    if not xs or not ys:
        return _svg_open(width, 40) + f'<text x="4" y="20">{escape(title)}: no data</text></svg>'
    x0, x1, y0, y1 = min(xs), max(xs) or 1.0, min(ys), max(ys)
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)
    left, top, w, h = 60, 24, width - 80, height - 50

    def px(x: float, y: float) -> str:
        return f"{left + (x - x0) / (x1 - x0) * w:.1f},{top + h - (y - y0) / (y1 - y0) * h:.1f}"

    parts = [_svg_open(width, height), f'<text x="4" y="16" font-weight="bold">{escape(title)}</text>',
             f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#999"/>',
             f'<text x="{left - 4}" y="{top + 8}" text-anchor="end">{y1:.3g}</text>',
             f'<text x="{left - 4}" y="{top + h}" text-anchor="end">{y0:.3g}</text>',
             f'<text x="{left}" y="{top + h + 14}">{x0:g}</text>',
             f'<text x="{left + w}" y="{top + h + 14}" text-anchor="end">{x1:g}</text>']
    for i, (name, sx, sy) in enumerate(series):
        pts = " ".join(px(x, y) for x, y in zip(sx, sy, strict=True) if math.isfinite(y))
        color = PALETTE[i % len(PALETTE)]
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{pts}"/>')
        parts.append(f'<text x="{left + 8}" y="{top + 14 + 14 * i}" fill="{color}">{escape(name)}</text>')
    return "".join(parts) + "</svg>"


def ratio_chart(labels: Sequence[str], ratios: Sequence[float], intervals: Sequence[tuple[float, float]],
                worse: Sequence[bool] = (), *, title: str = "", width: int = 720) -> str:
    """Candidate/baseline ratios as dots with their confidence intervals as whiskers, on a linear axis that
    always shows 1.0 (no change) as a dashed line; ``worse`` marks ratios in red."""
    row, left, top = 18, 260, 24
    height = top + row * len(labels) + 30
    finite = [v for v in (*ratios, *(x for ci in intervals for x in ci)) if math.isfinite(v)]
    lo, hi = min([1.0, *finite]), max([1.0, *finite])
    pad = (hi - lo) * 0.08 or 0.1
    lo, hi = max(0.0, lo - pad), hi + pad
    scale = (width - left - 20) / (hi - lo)

    def x(v: float) -> float:
        return left + (v - lo) * scale

    parts = [_svg_open(width, height), f'<text x="4" y="16" font-weight="bold">{escape(title)}</text>',
             f'<line x1="{x(1.0):.1f}" x2="{x(1.0):.1f}" y1="{top}" y2="{height - 26}" stroke="#999" '
             'stroke-dasharray="4 3"/>']
    for i, (label, v) in enumerate(zip(labels, ratios, strict=True)):
        y = top + i * row + row / 2
        color = PALETTE[1] if i < len(worse) and worse[i] else PALETTE[0]
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(label[-40:])}</text>')
        low, high = intervals[i] if i < len(intervals) else (math.nan, math.nan)
        if math.isfinite(low) and math.isfinite(high):
            parts.append(f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{color}" '
                         'stroke-width="2"/>')
        if math.isfinite(v):
            parts.append(f'<circle cx="{x(v):.1f}" cy="{y:.1f}" r="4" fill="{color}"><title>{escape(label)}: '
                         f'{v:.3f} [{low:.3f}, {high:.3f}]</title></circle>')
    for t in (lo, 1.0, hi):
        parts.append(f'<text x="{x(t):.1f}" y="{height - 10}" text-anchor="middle">{t:.2f}</text>')
    return "".join(parts) + "</svg>"


def _svg_open(width: int, height: int) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">')


def _log(v: float) -> float:
    return math.log10(v) if v > 0 and math.isfinite(v) else (-12.0 if v <= 0 else 12.0)


def _x_axis(lo: float, hi: float, left: int, scale: float, y: int) -> list[str]:
    ticks = range(int(lo), math.floor(hi) + 1)
    return [f'<text x="{left + (t - lo) * scale:.1f}" y="{y + 14}" text-anchor="middle">1e{t}</text>'
            for t in ticks]
