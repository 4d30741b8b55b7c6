#!/bin/bash -eu
# ClusterFuzzLite build: the same script as OSS-Fuzz (ci/oss-fuzz/build.sh).
exec "$SRC/onnx-gauntlet/ci/oss-fuzz/build.sh"
