"""The plot draws like with like: libprotobuf's map + parse from its row's times with the mapping,
our rows from memory beside its parse from memory, and nothing for a row that did not run."""
import unittest

from gauntlet.bench import plot


def row(median, low, high, peak_kib=2048, **extra):
    return {"median": median, "min": low, "max": high, "peak_rss_kib": peak_kib, **extra}


RESULTS = {
    "machine": {"cpu": "test", "cores": 2, "kernel": "6"},
    "date": "2026-12-06",
    "models": {
        "backend": {"results": {
            "ours-memory": row(0.003, 0.002, 0.004),
            "ours-map": row(0.018, 0.017, 0.020),
            "protobuf": row(0.007, 0.006, 0.008, median_total=0.015, total_times=[0.016, 0.014, 0.015]),
            "python": {"error": "no onnx"},
        }},
        "writers": {"results": {}},
    },
}


class Series(unittest.TestCase):
    def test_models_in_plot_order_and_only_those_with_rows(self):
        models, _ = plot.series(RESULTS)
        self.assertEqual(models, ["backend"])

    def test_map_and_parse_is_the_protobuf_rows_times_with_the_mapping(self):
        _, drawn = plot.series(RESULTS)
        self.assertEqual(drawn["protobuf map+parse"], [(0, 0.015, 0.014, 0.016, None)])
        self.assertEqual(drawn["protobuf"], [(0, 0.007, 0.006, 0.008, 2.0)])

    def test_our_memory_row_is_drawn_and_failed_rows_are_not(self):
        _, drawn = plot.series(RESULTS)
        self.assertEqual(drawn["ours-memory"], [(0, 0.003, 0.002, 0.004, 2.0)])
        self.assertNotIn("python", drawn)
        self.assertNotIn("protozero", drawn)

    def test_parses_from_memory_come_before_the_file_rows(self):
        names = [name for name, _ in plot.IMPORTERS]
        self.assertLess(names.index("protobuf"), names.index("ours-map"))
        self.assertLess(names.index("ours-memory"), names.index("protobuf map+parse"))


if __name__ == "__main__":
    unittest.main()
