"""What corpus/campaigns.jsonl adds up to, per target: campaigns, CPU-seconds as the kernel
counted them, executions, edges and features after the last campaign, the longest
campaign's peak RSS (with its first and last libFuzzer `rss:`), and open findings; then per
target and engine: campaigns, CPU-seconds, executions a CPU-second and findings filed.

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
    print(f"{'target':<20} {'runs':>4} {'cpu-s':>9} {'cpu-h':>6} {'execs':>12} {'edges':>6} {'ft':>7} "
          f"{'longest: cpu-s':>14} {'peak MiB':>8} {'rss first->last':>16} findings")
    total = 0.0
    for name, t in sorted(records.totals(recs).items()):
        lg = t["longest"]
        total += t["cpu_seconds"]
        print(f"{name:<20} {t['campaigns']:>4} {t['cpu_seconds']:>9.0f} {t['cpu_seconds'] / 3600:>6.2f} "
              f"{t['execs']:>12} {t['edges']!s:>6} {t['features']!s:>7} "
              f"{lg.get('cpu_seconds', 0):>14.0f} {lg.get('peak_rss_mb')!s:>8} "
              f"{str(lg.get('rss_start_mb')) + '->' + str(lg.get('rss_end_mb')):>16} {'; '.join(t['signatures']) or 'none'}")
    print(f"total: {total:.0f} CPU-seconds ({total / 3600:.2f} CPU-hours) in {len(recs)} records")
    print_engines(recs)
    return 0


def print_engines(recs):
    """What each engine got from a CPU-second here, per target. Both run ASan and UBSan builds; AFL++
    mutates bytes without the targets' structure-aware mutators (docs/fuzzing.md, "2026-12-06: the
    first AFL++ campaigns"), so its executions are cheaper and more of them refused early."""
    print(f"\n{'target':<20} {'engine':<10} {'runs':>4} {'cpu-s':>9} {'execs':>12} {'per cpu-s':>9} findings")
    by_engine = records.totals(recs, key=lambda r: (r["target"], r.get("engine", "libfuzzer")))
    for (name, engine), t in sorted(by_engine.items()):
        rate = t["execs"] / t["cpu_seconds"] if t["cpu_seconds"] else 0
        print(f"{name:<20} {engine:<10} {t['campaigns']:>4} {t['cpu_seconds']:>9.0f} {t['execs']:>12} {rate:>9.0f} "
              f"{t['findings']}")


if __name__ == "__main__":
    sys.exit(main())
