"""Figures derived from a bench run's results (gauntlet/bench/run.py): peak above the
process baseline, metadata throughput and the ratios to the peers, like with like."""
import statistics


def peer_with_map(peer_name: str, row: str) -> bool:
    """Whether libprotobuf's map + parse is the peer's time like with like: for our rows that
    open and read or map the file inside the clock; its parse alone for the others."""
    return peer_name == "protobuf" and row.startswith("ours-") and row != "ours-memory"


def peer_time(peer_name: str, peer: dict, row: str) -> float:
    """The peer's time like with like (peer_with_map)."""
    return peer.get("median_total", peer["median"]) if peer_with_map(peer_name, row) else peer["median"]


def child_medians(r: dict, key: str) -> list:
    """The median of each child's runs under `key` ("times" or "total_times"), in round order
    (processes.merge_rounds keeps them so); empty when the runs do not split evenly."""
    runs, children = r.get(key), r.get("children")
    if not runs or not children or len(runs) % children:
        return []
    k = len(runs) // children
    return [statistics.median(runs[i * k:(i + 1) * k]) for i in range(children)]


def by_round(over: list, under: list) -> str:
    """The median over rounds of over[i] / under[i] (the two rows' children of round i), stated
    beside the ratio of the rows' medians: a slow spell of the host that catches one child of a
    round moves that round's ratio only (docs/performance-history.md, "Rounds as short as the machine's
    spells"). Empty when the rounds do not pair up."""
    if not over or len(over) != len(under):
        return ""
    return f"; by round {statistics.median(o / u for o, u in zip(over, under)):.2f}x"


def rows_by_round(over: dict, under: dict) -> str:
    """by_round of two rows' own times, child by child (our rows against each other)."""
    return by_round(child_medians(over, "times"), child_medians(under, "times"))


def derive(models: dict) -> None:
    """Per result: peak above baseline, metadata throughput, ratios to the peers."""
    for m in models.values():
        res = m["results"]
        if not res:
            continue
        ref = res.get("ours-map") or next(iter(res.values()))
        meta = max(1, ref.get("input_bytes", 0) - ref.get("payload_bytes", 0))
        m["metadata_bytes"] = meta
        for imp, r in res.items():
            if "error" in r:
                continue
            r["peak_above_baseline_kib"] = r["peak_rss_kib"] - r["baseline_rss_kib"]
            r["metadata_mb_per_s"] = meta / r["median"] / 1e6 if r["median"] > 0 else None
            for peer in ("protobuf", "python"):
                pr = res.get(peer)
                if pr and "error" not in pr and r["median"] > 0:
                    r[f"time_ratio_{peer}"] = peer_time(peer, pr, imp) / r["median"]
                    r[f"peak_ratio_{peer}"] = r["peak_rss_kib"] / pr["peak_rss_kib"]

