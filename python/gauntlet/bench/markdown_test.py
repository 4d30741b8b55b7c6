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


class StepsTable(unittest.TestCase):
    STEPS = {"read": 0.030, "external": 0.0, "define": 0.034, "references": 0.014, "types": 0.0, "order": 0.0,
             "consumers": 0.006}

    def test_a_model_with_a_steps_row_gets_a_line_in_ms(self):
        res = {"models": {"chain": {"results": {"ours-steps": dict(timed(0.090), steps=self.STEPS)}}}}
        self.assertIn("| chain | 90.0 | 30.0 | 0.0 | 34.0 | 14.0 | 0.0 | 0.0 | 6.0 |", markdown.steps_table(res))

    def test_no_table_without_steps_and_a_failed_child_is_no_line(self):
        failed = {"models": {"chain": {"results": {"ours-steps": {"error": "exit 1"}}},
                             "wide": {"results": {"ours-memory": timed(0.050)}}}}
        self.assertEqual(markdown.steps_table(failed), [])


if __name__ == "__main__":
    unittest.main()
