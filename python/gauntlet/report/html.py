"""The pages of the report: one style sheet, the frame every page shares, and safe file
names and writes (render.py and its section modules)."""
import os
from html import escape


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:22px} header p{margin:4px 0 0;color:#cfd8dc;font-size:13px}
main{padding:8px 24px 40px;max-width:1400px}
h2{border-bottom:2px solid #cfd8dc;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;font-size:13px;margin:8px 0;background:#fff}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eceff1;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{background:#e8f5e9} .fail{background:#ffebee} .skip{background:#f5f5f5;color:#666}
.notrun{color:#8d6e63;font-style:italic}
.cell-match{background:#c8e6c9} .cell-mismatch{background:#ffcdd2} .cell-crash{background:#b71c1c;color:#fff}
.cell-timeout{background:#283593;color:#fff} .cell-none{background:#eee;color:#777}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;min-width:170px}
.card .big{font-size:24px;font-weight:bold} .card .label{font-size:12px;color:#555}
.card.bad{border-color:#c62828} .card.good{border-color:#2e7d32}
code.path{word-break:break-all}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto}
.hex .hit{background:#ffeb3b;font-weight:bold}
details>summary{cursor:pointer;color:#1565c0}
.msg{max-width:520px;word-break:break-word} td.path{max-width:360px;word-break:break-all}
nav a{margin-right:14px;color:#90caf9}
"""


def page(title, body, depth=0):
    up = "../" * depth
    nav = (f'<nav><a href="{up}index.html">summary</a><a href="{up}index.html#sweep">sweep</a>'
           f'<a href="{up}index.html#hostile">hostile</a><a href="{up}index.html#matrix">matrix</a>'
           f'<a href="{up}findings.html">findings</a><a href="{up}index.html#fuzz">fuzz</a>'
           f'<a href="{up}index.html#campaigns">campaigns</a></nav>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>{escape(title)}</title><style>{CSS}</style></head><body>'
            f'<header><h1>{escape(title)}</h1>{nav}</header><main>{body}</main></body></html>\n')


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def safe_name(name):
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def not_run(section):
    return f'<p class="notrun">not run: {escape(section.get("reason") or "no reason recorded")}</p>'
