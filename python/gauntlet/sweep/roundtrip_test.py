"""python/gauntlet/sweep/roundtrip.py's comparison can fail (ctest roundtrip_can_fail): setting storage
aside (data_location, external_data, an external source read as raw) must not hide a
changed hash, size, type, dims, name, a typed tensor turned raw, or a lost tensor; and its
alignment check must catch an offset that is not a multiple. Ends `N passed, N failed`."""
import sys

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

failures = 0
checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL: " + what)


check(roundtrip.storage_blind(EXTERNAL) == roundtrip.storage_blind(ORIGINAL), "external storage is set aside")
for name, (old, new) in CHANGES.items():
    assert old in EXTERNAL, name
    changed = EXTERNAL.replace(old, new, 1)
    check(roundtrip.storage_blind(changed) != roundtrip.storage_blind(ORIGINAL), "a changed %s is still seen" % name)
offsets = [int(m.group(1)) for m in map(roundtrip.OFFSET_LINE.match, EXTERNAL.replace('"4096"', '"4100"').splitlines())
           if m]
check(offsets == [4100] and offsets[0] % 4096 != 0, "an offset off the alignment is found")
print("%d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
