#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: builds the same fuzz targets as
# harness/fuzz/CMakeLists.txt with the engine's $CC $CXX $CFLAGS $CXXFLAGS and
# $LIB_FUZZING_ENGINE, and ships into $OUT: the fuzzers, TARGET_seed_corpus.zip from
# corpus/TARGET/ (plus corpus/regression/), TARGET.dict and TARGET.options.
#
# Local check (what `ci/oss-fuzz/build.sh` is verified with):
#   CC=clang CXX=clang++ CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="-fsanitize=address,fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/oss-out ci/oss-fuzz/build.sh
#
# fuzz_diff_protobuf needs libprotobuf built with the same C++ library as the fuzzers
# and the reference schema: harness/fuzz/onnx_reference.proto, the repository's own
# (ONNX 1.12's messages and field numbers; ONNX_PROTO names another), so the build needs
# no ONNX sources. It is skipped, with a message, when libprotobuf cannot link (OSS-Fuzz
# builds with libc++, Ubuntu's and Debian's libprotobuf use libstdc++).
root=${GAUNTLET_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${OUT:?set OUT to the output folder}"
: "${CXX:=clang++}" "${CXXFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
work=${WORK:-$(mktemp -d)}/gauntlet-build
mkdir -p "$OUT" "$work/obj"

# -DONNXIMPORT_SMALL_PARALLEL_WORK: the parallel payload work on every input (io/payloads.hpp).
flags=(-std=c++20 -pthread -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -DONNXIMPORT_SMALL_PARALLEL_WORK
       -I"$root/importer/include" -I"$root/importer/src")

# The .ort schema's generated header (as CMakeLists.txt makes it): FLATC and
# FLATBUFFERS_INCLUDE name a flatc and headers of the same flatbuffers version (2.0.8+).
"${FLATC:-flatc}" --cpp --scoped-enums --reflect-names -o "$work/generated" "$root/importer/schema/ort.fbs"
flags+=(-I"$work/generated" -I"$root/importer/schema" -I"$root/harness/support")
[ -n "${FLATBUFFERS_INCLUDE:-}" ] && flags+=(-I"$FLATBUFFERS_INCLUDE")

# The library, every source under importer/src (as the CMake glob does), and the dump.
objs=()
while IFS= read -r src; do
  obj=$work/obj/$(echo "${src#"$root"/}" | tr '/' '_').o
  # shellcheck disable=SC2086
  $CXX $CXXFLAGS "${flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done < <(find "$root/importer/src" "$root/importer/dump" -name '*.cpp' | sort)
ar rcs "$work/libonnximport.a" "${objs[@]}"

targets=(fuzz_model fuzz_tensor fuzz_wire fuzz_external fuzz_roundtrip)
for t in "${targets[@]}"; do
  # shellcheck disable=SC2086
  $CXX $CXXFLAGS "${flags[@]}" "$root/harness/fuzz/$t.cpp" "$root/harness/fuzz/proto_mutator.cpp" \
    "$work/libonnximport.a" $LIB_FUZZING_ENGINE -lcrypto -o "$OUT/$t"
done
# fuzz_ort has its own structure-aware mutator.
# shellcheck disable=SC2086
$CXX $CXXFLAGS "${flags[@]}" "$root/harness/fuzz/fuzz_ort.cpp" "$root/harness/fuzz/ort_mutator.cpp" \
  "$work/libonnximport.a" $LIB_FUZZING_ENGINE -lcrypto -o "$OUT/fuzz_ort"
targets+=(fuzz_ort)

# The differential target, where libprotobuf and protoc are available.
proto=${ONNX_PROTO:-$root/harness/fuzz/onnx_reference.proto}
if [ -f "$proto" ] && command -v protoc > /dev/null; then
  gen=$work/reference && mkdir -p "$gen"
  sed -e 's/^option.optimize_for.*LITE_RUNTIME.*//' "$proto" > "$gen/onnx_reference.proto"
  protoc --cpp_out="$gen" -I"$gen" "$gen/onnx_reference.proto"
  # shellcheck disable=SC2086
  # As in harness/fuzz/CMakeLists.txt: the shared mutator under another name, steered by
  # diff_mutator.cpp towards inputs both parsers read.
  if $CXX $CXXFLAGS -std=c++20 -w -I"$gen" -c "$gen/onnx_reference.pb.cc" -o "$work/onnx_reference.o" &&
     $CXX $CXXFLAGS "${flags[@]}" -DLLVMFuzzerCustomMutator=gauntlet_proto_mutator \
       -c "$root/harness/fuzz/proto_mutator.cpp" -o "$work/diff_proto_mutator.o" &&
     $CXX $CXXFLAGS "${flags[@]}" -I"$gen" "$root/harness/fuzz/fuzz_diff_protobuf.cpp" \
       "$root/harness/fuzz/diff_mutator.cpp" "$work/diff_proto_mutator.o" "$work/onnx_reference.o" \
       "$work/libonnximport.a" $LIB_FUZZING_ENGINE -lprotobuf -lcrypto -o "$OUT/fuzz_diff_protobuf"; then
    targets+=(fuzz_diff_protobuf)
  else
    echo "build.sh: fuzz_diff_protobuf skipped (libprotobuf does not link with these flags)" >&2
  fi
else
  echo "build.sh: fuzz_diff_protobuf skipped (no onnx.proto or protoc)" >&2
fi

# Seed corpora, dictionaries and options next to each fuzzer.
for t in "${targets[@]}"; do
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$root/corpus" && zip -q -r -j "$OUT/${t}_seed_corpus.zip" "$t" regression -x '*.txt' '*.md')
  cp "$root/corpus/$t.dict" "$root/corpus/$t.options" "$OUT/"
done
echo "build.sh: built ${targets[*]} into $OUT"
