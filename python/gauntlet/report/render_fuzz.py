"""The fuzz sections of the report: the smoke run of every target (one detail page each)
and the campaign records of corpus/campaigns.jsonl."""
import os
from html import escape

from gauntlet.report.html import not_run, page, safe_name, write


def render_fuzz(report, out_dir):
    fz = report.get("fuzz", {})
    parts = ['<section id="fuzz"><h2>Fuzz smoke</h2>']
    if fz.get("status") != "run":
        parts.append(not_run(fz) + "</section>")
        return "".join(parts)
    rows = []
    for t in fz["targets"]:
        rel = f'details/fuzz/{safe_name(t["name"])}.html'
        body = (f'<p>status: {escape(t["status"])}; {t.get("execs", 0):,} execs in {t.get("seconds", 0)} s; '
                f'cov {t.get("coverage", "?")}, ft {t.get("features", "?")}, corpus {t.get("corpus", "?")}; '
                f'crashes {t.get("crashes", 0)}</p>'
                + (f'<p>{escape(t["reason"])}</p>' if t.get("reason") else "")
                + f'<h3>campaign output (tail)</h3><pre>{escape(t.get("log_tail", ""))}</pre>')
        write(os.path.join(out_dir, rel), page(f'fuzz target {t["name"]}', body, depth=2))
        cls = "pass" if t["status"] == "ok" else "fail"
        rows.append(f'<tr class="{cls}"><td><a href="{rel}">{escape(t["name"])}</a></td><td>{escape(t["status"])}</td>'
                    f'<td class="num">{t.get("execs", 0):,}</td><td class="num">{t.get("exec_per_sec", 0):,}</td>'
                    f'<td class="num">{t.get("coverage", "")}</td><td class="num">{t.get("features", "")}</td>'
                    f'<td class="num">{t.get("corpus", "")}</td><td class="num">{t.get("crashes", 0)}</td></tr>')
    parts.append(f'<p>Each target ran {fz.get("seconds_per_target", "?")} s (FUZZ_SECONDS) through '
                 f'<code>python3 -m gauntlet fuzz --no-merge</code>; coverage is libFuzzer\'s own count of covered edges (cov) and '
                 f'features (ft).</p>'
                 '<table id="fuzz-table"><tr><th>target</th><th>status</th><th>execs</th><th>exec/s</th><th>cov</th>'
                 '<th>ft</th><th>corpus</th><th>crashes</th></tr>' + "".join(rows) + "</table></section>")
    return "".join(parts)


CAMPAIGN_ROWS = 200  # the newest records in the table; the totals and the plot use them all


def render_campaigns(report):
    c = report.get("campaigns", {})
    parts = ['<section id="campaigns"><h2>Fuzz campaigns</h2>']
    if c.get("status") != "run":
        parts.append(not_run(c) + "</section>")
        return "".join(parts)
    trows = []
    for t in c["totals"]:
        longest = t.get("longest") or {}
        cls = "fail" if t["findings"] else "pass"
        trows.append(f'<tr class="{cls}"><td>{escape(t["target"])}</td><td class="num">{t["campaigns"]}</td>'
                     f'<td class="num">{t["cpu_seconds"]:,.0f}</td><td class="num">{t["cpu_seconds"] / 3600:.2f}</td>'
                     f'<td class="num">{t["execs"]:,}</td><td class="num">{t.get("edges", "")}</td>'
                     f'<td class="num">{t.get("features", "")}</td>'
                     f'<td class="num">{longest.get("peak_rss_mb", "")}</td>'
                     f'<td>{escape("; ".join(t["findings"])) or "none"}</td></tr>')
    total_cpu = sum(t["cpu_seconds"] for t in c["totals"])
    rows = []
    for r in c["records"][-CAMPAIGN_ROWS:][::-1]:
        findings = r.get("findings", [])
        cls = "fail" if findings else "pass"
        rows.append(f'<tr class="{cls}"><td>{escape(str(r.get("date", "")))}</td><td>{escape(r["target"])}</td>'
                    f'<td>{escape(str(r.get("engine", "")))}</td><td class="num">{r.get("jobs", "")}</td>'
                    f'<td class="num">{(r.get("cpu_seconds") or 0):,.0f}</td><td class="num">{(r.get("execs") or 0):,}</td>'
                    f'<td class="num">{r.get("edges_before", "")} &rarr; {r.get("edges_after", "")}</td>'
                    f'<td class="num">{r.get("features_before", "")} &rarr; {r.get("features_after", "")}</td>'
                    f'<td class="num">{r.get("new_inputs", "")}</td><td class="num">{r.get("peak_rss_mb", "")}</td>'
                    f'<td>{escape("; ".join(f.get("signature", "?") for f in findings)) or "none"}</td>'
                    f'<td><code>{escape(str(r.get("commit", ""))[:12])}</code></td></tr>')
    parts.append(f'<p>{len(c["records"])} campaign records in <code>corpus/campaigns.jsonl</code> (<code>make nightly</code>), '
                 f'{total_cpu:,.0f} CPU-seconds ({total_cpu / 3600:.2f} CPU-hours) in all, as the kernel counted '
                 'them for the engines\' processes. Edges and features are those of the merged corpus, counted by '
                 'the target\'s libFuzzer binary before and after each campaign.</p>'
                 '<table id="campaign-totals"><tr><th>target</th><th>campaigns</th><th>CPU-s</th><th>CPU-h</th>'
                 '<th>execs</th><th>edges</th><th>features</th><th>peak RSS MiB (longest)</th><th>findings</th></tr>'
                 + "".join(trows) + "</table>"
                 '<table id="campaign-table"><tr><th>date</th><th>target</th><th>engine</th><th>jobs</th><th>CPU-s</th>'
                 '<th>execs</th><th>edges</th><th>features</th><th>new inputs</th><th>peak RSS MiB</th><th>findings</th>'
                 '<th>commit</th></tr>' + "".join(rows) + "</table></section>")
    return "".join(parts)
