"""The published tables render every row, also a child that failed."""
import unittest

from gauntlet.bench import markdown


def timed(median):
    return {"median": median, "min": median, "max": median, "peak_above_baseline_kib": 2048}


class ColdTable(unittest.TestCase):
    def render(self, cold):
        return markdown.cold_table({"repeat": 3, "models": {"big": {"cold": cold}}})

    def test_a_ratio_is_protobuf_over_ours(self):
        lines = self.render({"protobuf": timed(0.030), "ours-map": timed(0.010)})
        self.assertIn("| big | ours-map | 10.0 (10.0-10.0) | 2.0 | 3.0x |", lines)

    def test_an_error_row_is_a_row_and_no_ratio_is_taken_from_it(self):
        lines = self.render({"protobuf": {"error": "exit 1: out of memory"}, "ours-map": timed(0.010)})
        self.assertIn("| big | protobuf | error: exit 1: out of memory | | |", lines)
        self.assertIn("| big | ours-map | 10.0 (10.0-10.0) | 2.0 | - |", lines)


if __name__ == "__main__":
    unittest.main()
