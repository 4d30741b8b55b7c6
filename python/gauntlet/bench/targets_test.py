"""The speed rows compare like with like: ours from memory against libprotobuf's parse alone,
ours from files against its map + parse; a row is met at its floor and says when the target is."""
import unittest

from gauntlet.bench import targets


def row(median, total=None):
    r = {"median": median}
    if total is not None:
        r["median_total"] = total
    return r


def models(**rows):
    return {model: {"results": results} for model, results in rows.items()}


class SpeedTargets(unittest.TestCase):
    def by_target(self, m):
        return {t["target"].split(":")[0]: t for t in targets.speed_targets(m)}

    def test_from_files_divides_map_and_parse_and_from_memory_the_parse_alone(self):
        m = models(backend={"ours-memory": row(0.010), "ours-read": row(0.020),
                            "protobuf": row(0.025, total=0.030)})
        got = self.by_target(m)
        memory = got["backend, from memory, against ParseFromArray"]
        files = got["backend, from files, against map + parse"]
        self.assertTrue(memory["value"].startswith("2.50x"), memory)
        self.assertTrue(memory["met"])
        self.assertNotIn("the target too", memory["value"])
        self.assertTrue(files["value"].startswith("1.50x"), files)
        self.assertIn("the target too", files["value"])

    def test_wide_takes_the_faster_of_heap_and_arena_and_the_floor_decides_met(self):
        m = models(wide={"ours-memory": row(0.050), "protobuf": row(0.400), "protobuf-arena": row(0.150),
                         "protozero": row(0.040)})
        got = self.by_target(m)
        wide = got["wide, from memory, against the faster parse"]
        self.assertTrue(wide["value"].startswith("3.00x"), wide)
        self.assertFalse(wide["met"])
        self.assertTrue(got["wide, from memory"]["met"])  # 1.25x the protozero walk

    def test_by_round_pairs_the_children_of_a_round_and_leaves_the_verdict_to_the_medians(self):
        # Three rounds of two runs each. A slow spell catches our second child, and libprotobuf's
        # second and third: the rows' medians give 4.0x (0.010 against 0.040), round by round
        # 2.0, 2.0 and 4.0, median 2.0x.
        ours = {"median": 0.010, "times": [0.010, 0.010, 0.020, 0.020, 0.010, 0.010], "children": 3}
        pb = {"median": 0.040, "median_total": 0.030, "children": 3,
              "times": [0.020, 0.020, 0.040, 0.040, 0.040, 0.040],
              "total_times": [0.030, 0.030, 0.030, 0.030, 0.090, 0.090]}
        got = self.by_target(models(backend={"ours-memory": ours, "ours-read": dict(ours), "protobuf": pb}))
        memory = got["backend, from memory, against ParseFromArray"]
        self.assertTrue(memory["value"].startswith("4.00x"), memory)
        self.assertIn("; by round 2.00x", memory["value"])
        self.assertTrue(memory["met"])
        # From files the peer's time is map + parse: rounds 3.0, 1.5 and 9.0, median 3.0x.
        self.assertIn("; by round 3.00x", got["backend, from files, against map + parse"]["value"])
        # Runs that do not split into the children evenly give no such note.
        uneven = dict(ours, times=[0.010] * 5)
        got = self.by_target(models(backend={"ours-memory": uneven, "protobuf": pb}))
        self.assertNotIn("by round", got["backend, from memory, against ParseFromArray"]["value"])

    def test_reversed_and_the_ort_rows_state_their_ratio_by_round_too(self):
        # Three rounds of one run each. A slow spell catches wide's second child and the third
        # of reversed and of the .ort import too: the medians give 3.00x (0.030 against 0.010),
        # round by round 1.0, 1.0 and 3.0, median 1.00x; the verdict stays the medians'.
        def timed(*times):
            return {"median": sorted(times)[1], "times": list(times), "children": 3, "peak_rss_kib": 1024}
        m = models(wide={"ours-map": timed(0.010, 0.030, 0.010), "ours-map-ort": timed(0.010, 0.030, 0.030)},
                   reversed={"ours-map": timed(0.010, 0.030, 0.030)})
        got = {t["target"]: t for t in targets.wide_targets(m) + targets.bench_ort.targets(m)}
        reversed_row = got["reversed within 1.5x of wide"]
        self.assertEqual(reversed_row["value"], "3.00x; by round 1.00x")
        self.assertFalse(reversed_row["met"])
        ort_row = got["wide, mapped: .ort / .onnx import time <= 1.0 (1.5 the floor)"]
        self.assertTrue(ort_row["value"].startswith("3.00x ("), ort_row)
        self.assertTrue(ort_row["value"].endswith("; by round 1.00x)"), ort_row)
        self.assertFalse(ort_row["met"])

    def test_wide_as_onnx_runtime_writes_it_states_its_ratio_from_memory_without_a_verdict(self):
        m = models(wide={"ours-memory": row(0.040)}, **{"wide-ort": {"ours-memory": row(0.140)}})
        got = {t["target"]: t for t in targets.bench_ort.targets(m)}
        ort_row = got["wide as ONNX Runtime writes it, from memory: .ort / .onnx import time (stated, no threshold)"]
        self.assertEqual(ort_row["value"], "3.50x (140.0 vs 40.0 ms)")
        self.assertTrue(ort_row["met"])
        del m["wide-ort"]
        self.assertEqual(targets.bench_ort.targets(m), [])

    def test_a_missing_or_failed_row_gives_no_target(self):
        m = models(chain={"ours-memory": {"error": "exit 1"}, "protobuf": row(0.1)})
        self.assertEqual(targets.speed_targets(m), [])


if __name__ == "__main__":
    unittest.main()
