"""The .ort shared-object table names each case's verdict and keeps an error row."""
import unittest

from gauntlet.bench import ort_shared


def timed(failed, error=""):
    return {"median": 0.004, "bytes": 2 * 2**20, "ms_per_budget_mib": 2.0, "peak_rss_kib": 10240, "failed": failed,
            "first_error": error}


class Table(unittest.TestCase):
    def test_a_refusal_shows_its_kind_and_a_valid_file_ok(self):
        lines = ort_shared.markdown({
            "a.ort": timed(1, "a.ort: Unsupported: a.ort at byte 9 (InferenceSession.model): too often"),
            "b.ort": timed(0)})
        self.assertIn("| a.ort | 2.10 | 4.00 | 2.00 | 10 | Unsupported |", lines)
        self.assertIn("| b.ort | 2.10 | 4.00 | 2.00 | 10 | ok |", lines)

    def test_an_error_row_is_a_row(self):
        lines = ort_shared.markdown({"c.ort": {"error": "timeout after 600 s"}})
        self.assertIn("| c.ort | - | - | - | - | ERROR timeout after 600 s |", lines)


if __name__ == "__main__":
    unittest.main()
