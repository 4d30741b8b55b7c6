"""What corpus/campaigns.jsonl adds up to, per target: campaigns, CPU-seconds as the kernel
counted them, executions, edges and features after the last campaign, the longest
campaign's peak RSS (with its first and last libFuzzer `rss:`), and open findings.

  python/gauntlet/fuzz/summary.py [RECORDS]      (default corpus/campaigns.jsonl)
"""
import sys

from gauntlet.fuzz import paths
from gauntlet.fuzz import records


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else paths.CAMPAIGNS
    recs = records.load(path)
    if not recs:
        print(f"summary: no records in {path}")
        return 1
    last = {}
    for r in recs:
        last[r["target"]] = r
    print(f"{'target':<20} {'runs':>4} {'cpu-s':>9} {'cpu-h':>6} {'execs':>12} {'edges':>6} {'ft':>7} "
          f"{'longest: cpu-s':>14} {'peak MiB':>8} {'rss first->last':>16} findings")
    total = 0.0
    for name, t in sorted(records.totals(recs).items()):
        lg = t["longest"]
        findings = sorted({f["signature"] for r in recs if r["target"] == name for f in r.get("findings", [])})
        total += t["cpu_seconds"]
        print(f"{name:<20} {t['campaigns']:>4} {t['cpu_seconds']:>9.0f} {t['cpu_seconds'] / 3600:>6.2f} "
              f"{t['execs']:>12} {last[name].get('edges_after')!s:>6} {last[name].get('features_after')!s:>7} "
              f"{lg.get('cpu_seconds', 0):>14.0f} {lg.get('peak_rss_mb')!s:>8} "
              f"{str(lg.get('rss_start_mb')) + '->' + str(lg.get('rss_end_mb')):>16} {'; '.join(findings) or 'none'}")
    print(f"total: {total:.0f} CPU-seconds ({total / 3600:.2f} CPU-hours) in {len(recs)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
