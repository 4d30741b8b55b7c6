#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script (docs/fuzzing.md): builds every fuzz target (each
# corpus/TARGET.options) through CMake with the engine's $CC, $CXX, $CFLAGS, $CXXFLAGS and
# $LIB_FUZZING_ENGINE (GAUNTLET_FUZZERS_ONLY: the library and the targets, no CLI or tests),
# and ships into $OUT: the fuzzers, TARGET_seed_corpus.zip from corpus/TARGET/ and
# corpus/regression/, TARGET.dict and TARGET.options. $WORK holds the build.
#
# ctest oss_fuzz_build runs it as OSS-Fuzz does, with the local clang (ci/oss-fuzz/check_build.sh).
#
# fuzz_diff_protobuf needs libprotobuf built with the same C++ library as the fuzzers
# (OSS-Fuzz builds with libc++, Ubuntu's and Debian's libprotobuf use libstdc++): it is
# skipped, with a message, when it does not link.
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?set OUT to the output folder}" "${WORK:?set WORK to a scratch folder}"
: "${CC:=clang}" "${CXX:=clang++}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
build=$WORK/gauntlet-build
generator=(); command -v ninja > /dev/null && generator=(-G Ninja)
# CMake reads $CFLAGS and $CXXFLAGS itself. -DONNXIMPORT_SMALL_PARALLEL_WORK: the parallel
# payload work on every input (io/payloads.hpp), as in tools/setup_fuzz.sh's build.
CC=$CC CXX=$CXX cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DGAUNTLET_FUZZ=ON -DGAUNTLET_FUZZERS_ONLY=ON -DGAUNTLET_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$build/bin" ${GAUNTLET_CMAKE_ARGS:-}

built=()
for options in "$root"/corpus/*.options; do
  t=$(basename "$options" .options)
  if cmake --build "$build" -j "$(nproc)" --target "$t"; then
    built+=("$t")
  elif [ "$t" = fuzz_diff_protobuf ]; then
    echo "build.sh: fuzz_diff_protobuf skipped (no libprotobuf and protoc, or they do not link with these flags)" >&2
  else
    exit 1
  fi
  [ ! -x "$build/bin/$t" ] || cp "$build/bin/$t" "$OUT/"
done

# Seed corpora, dictionaries and options next to each fuzzer.
for t in "${built[@]}"; do
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$root/corpus" && zip -q -r -j "$OUT/${t}_seed_corpus.zip" "$t" regression -x '*.txt' '*.md')
  cp "$root/corpus/$t.dict" "$root/corpus/$t.options" "$OUT/"
done
echo "build.sh: built ${built[*]} into $OUT"
