#!/usr/bin/env bash
# Compares two structural dumps (sweep/DUMP_FORMAT.md; spec section 8): the importer's
# and python/gauntlet/sweep/onnx_dump.py's for the same model. The dumps are compared byte for byte, so
# floats compare as bit patterns and tensors as SHA-256 of their raw-layout bytes.
#   compare_onnx_dump.sh A B   exit 0 when identical; 1 and a unified diff otherwise;
#                              2 when a file cannot be read or on a usage error
set -uo pipefail
if [ $# -ne 2 ] || [ "${1:-}" = "--help" ]; then
  echo "usage: compare_onnx_dump.sh DUMP_A DUMP_B" >&2
  exit 2
fi
for f in "$1" "$2"; do
  if [ ! -r "$f" ] || [ -d "$f" ]; then
    echo "compare_onnx_dump: cannot read $f" >&2
    exit 2
  fi
done
# diff's own status is the contract: 0 same, 1 different, 2 trouble.
diff -u -- "$1" "$2"
