"""Inline SVG charts for the conformance report, where a person would rather look than
read. Hand-written SVG keeps the page self-contained and the
dependency list short: no plotting library, no fonts, no network.
"""
from html import escape

COLORS = {
    "passed": "#2e7d32", "failed": "#c62828", "skipped": "#9e9e9e",
    "match": "#2e7d32", "accepted_spec_refuses": "#ef6c00", "refused_spec_accepts": "#6a1b9a",
    "wrong_kind": "#f9a825", "crashed": "#b71c1c", "timeout": "#283593",
}
SERIES = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#5d4037", "#ad1457"]


def _text(x, y, s, anchor="start", size=12, weight="normal", fill="#222"):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(str(s))}</text>')


def stacked_bars(title, rows, keys, labels=None, width=760):
    """rows: [(label, {key: count})]; one horizontal bar per row, segments in `keys` order."""
    labels = labels or {}
    bar_h, gap, top = 22, 10, 34
    left = min(max([len(str(label)) for label, _ in rows] + [8]) * 7 + 16, width // 2)
    legend_w = sum(24 + 7 * len((labels or {}).get(k, k)) for k in keys)
    legend_h = 26 + 18 * (legend_w // (width - 16))
    height = top + len(rows) * (bar_h + gap) + legend_h + 10
    plot_w = width - left - 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">',
           f'<title>{escape(title)}</title>', _text(8, 20, title, size=14, weight="bold")]
    for i, (label, counts) in enumerate(rows):
        y = top + i * (bar_h + gap)
        total = sum(counts.get(k, 0) for k in keys)
        out.append(_text(left - 8, y + bar_h * 0.7, label, anchor="end"))
        if total == 0:
            out.append(_text(left, y + bar_h * 0.7, "not run", fill="#777"))
            continue
        x = float(left)
        for k in keys:
            n = counts.get(k, 0)
            if n <= 0:
                continue
            w = plot_w * n / total
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}" '
                       f'fill="{COLORS.get(k, "#888")}"><title>{escape(labels.get(k, k))}: {n}</title></rect>')
            if w > 28:
                out.append(_text(x + w / 2, y + bar_h * 0.7, n, anchor="middle", fill="#fff", size=11))
            x += w
        out.append(_text(left + plot_w + 6, y + bar_h * 0.7, total, size=11, fill="#555"))
    # The legend wraps onto a second row rather than running off the picture.
    ly = top + len(rows) * (bar_h + gap) + 8
    lx = 8
    for k in keys:
        name = labels.get(k, k)
        step = 24 + 7 * len(name)
        if lx + step > width:
            lx, ly = 8, ly + 18
        out.append(f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{COLORS.get(k, "#888")}"/>')
        out.append(_text(lx + 16, ly + 10, name, size=11))
        lx += step
    out.append("</svg>")
    return "\n".join(out)


def line_chart(title, series, x_label, y_label, width=760, height=300, x_decimals=0):
    """series: [(name, [(x, y), ...])]; linear axes from 0, one colored line per series;
    x_decimals: digits after the point on the x axis (hours rather than seconds)."""
    left, right, top, bottom = 64, 170, 34, 42
    pw, ph = width - left - right, height - top - bottom
    points = [p for _, pts in series for p in pts]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">',
           f'<title>{escape(title)}</title>', _text(8, 20, title, size=14, weight="bold")]
    if not points:
        out.append(_text(left, top + 30, "no data", fill="#777"))
        out.append("</svg>")
        return "\n".join(out)
    xmax = max(x for x, _ in points) or 1
    ymax = max(y for _, y in points) or 1
    ymax = ymax * 1.05

    def sx(x):
        return left + pw * x / xmax

    def sy(y):
        return top + ph - ph * y / ymax

    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#bbb"/>')
    for i in range(5):
        yv = ymax * i / 4
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{sy(yv):.1f}" y2="{sy(yv):.1f}" stroke="#eee"/>')
        out.append(_text(left - 6, sy(yv) + 4, f"{yv:.0f}", anchor="end", size=10))
        xv = xmax * i / 4
        out.append(_text(sx(xv), top + ph + 14, f"{xv:.{x_decimals}f}", anchor="middle", size=10))
    out.append(_text(left + pw / 2, height - 8, x_label, anchor="middle", size=11))
    out.append(f'<text x="14" y="{top + ph / 2:.1f}" font-size="11" text-anchor="middle" '
               f'transform="rotate(-90 14 {top + ph / 2:.1f})">{escape(y_label)}</text>')
    for i, (name, pts) in enumerate(series):
        color = SERIES[i % len(SERIES)]
        if pts:
            path = " ".join(f"{'M' if j == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for j, (x, y) in enumerate(pts))
            out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"><title>{escape(name)}</title></path>')
        ly = top + 6 + i * 18
        out.append(f'<rect x="{left + pw + 12}" y="{ly}" width="12" height="12" fill="{color}"/>')
        out.append(_text(left + pw + 30, ly + 10, name, size=11))
    out.append("</svg>")
    return "\n".join(out)
