"""python/gauntlet/sweep/roundtrip.py's comparison can fail (ctest roundtrip_can_fail): setting storage
aside (data_location, external_data, an external source read as raw) must not hide a
changed hash, size, type, dims, name, a typed tensor turned raw, or a lost tensor; and its
alignment check must catch an offset that is not a multiple. Ends `N passed, N failed`."""
import unittest

from gauntlet.sweep import roundtrip

ORIGINAL = """onnx-gauntlet-dump 1
graph
  initializer
    name "W"
    data_type 1 FLOAT
    dims 2
    data_location 0
    source raw
    bytes 8
    sha256 aaaa
  initializer
    name "T"
    data_type 7 INT64
    dims 1
    data_location 0
    source typed
    bytes 8
    sha256 bbbb
"""
EXTERNAL = ORIGINAL.replace("""    data_location 0
    source raw""", """    data_location 1
    external_data "location" "model.data"
    external_data "offset" "4096"
    external_data "length" "8"
    source external""", 1)

CHANGES = {
    "hash": ("sha256 aaaa", "sha256 aaab"),
    "size": ("bytes 8\n    sha256 aaaa", "bytes 9\n    sha256 aaaa"),
    "type": ("data_type 1 FLOAT", "data_type 10 FLOAT16"),
    "dims": ("dims 2", "dims 1 2"),
    "name": ('name "W"', 'name "V"'),
    "typed-to-raw": ("source typed", "source raw"),
    "lost-tensor": ('  initializer\n    name "T"', '  value_info\n    name "T"'),
}


class StorageBlindComparison(unittest.TestCase):
    def test_external_storage_is_set_aside(self):
        self.assertEqual(roundtrip.storage_blind(EXTERNAL), roundtrip.storage_blind(ORIGINAL))

    def test_each_change_is_still_seen(self):
        for name, (old, new) in CHANGES.items():
            with self.subTest(change=name):
                self.assertIn(old, EXTERNAL)
                changed = EXTERNAL.replace(old, new, 1)
                self.assertNotEqual(roundtrip.storage_blind(changed), roundtrip.storage_blind(ORIGINAL))

    def test_an_offset_off_the_alignment_is_found(self):
        moved = EXTERNAL.replace('"4096"', '"4100"').splitlines()
        offsets = [int(m.group(1)) for m in map(roundtrip.OFFSET_LINE.match, moved) if m]
        self.assertEqual(offsets, [4100])
        self.assertNotEqual(offsets[0] % 4096, 0)
