#!/usr/bin/env bash
# Installs clang, libFuzzer and AFL++ and builds the fuzz targets:
#   build-fuzz/bin/TARGET        libFuzzer + ASan + UBSan, with the structure-aware mutator
#   build-fuzz/bin/TARGET_plain  the same without the custom mutator (for comparisons)
#   build-fuzz/afl/bin/TARGET    AFL++ instrumentation + ASan + UBSan   (with --afl)
#   build-fuzz/bin/fuzz_planted  the planted crash of the campaign's own tests (with --test-targets)
# Environment: FUZZ_BUILD (default build-fuzz), JOBS (default: nproc), CMAKE_ARGS (more
# configure options, e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
set -euo pipefail
cd "$(dirname "$0")/.."

afl=0 test_targets=0
for arg in "$@"; do
  case $arg in
    --afl) afl=1 ;;
    --test-targets) test_targets=1 ;;
    *) echo "usage: tools/setup_fuzz.sh [--afl] [--test-targets]" >&2; exit 2 ;;
  esac
done

# clang and its libFuzzer runtime (libclang-rt), AFL++, zip for seed archives.
tools/install_deps.sh clang llvm libclang-rt-14-dev afl++ zip

build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-$(nproc)}
# Every target with a corpus/TARGET.options, the list the nightly and OSS-Fuzz use.
targets=()
for options in corpus/*.options; do targets+=("$(basename "$options" .options)"); done

if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUNTLET_FUZZ=ON -DGAUNTLET_SANITIZE=address,undefined ${CMAKE_ARGS:-}
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("$t" "${t}_plain" "${t}_replay"); done
[ "$test_targets" -eq 0 ] || build_targets+=(fuzz_planted)
cmake --build "$build" -j "$jobs" --target "${build_targets[@]}"

if [ "$afl" -eq 1 ]; then
  # afl-clang-fast turns -fsanitize=fuzzer into AFL++'s libFuzzer-compatible driver.
  if [ ! -f "$build/afl/build.ninja" ]; then
    cmake -S . -B "$build/afl" -G Ninja -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_CXX_COMPILER=afl-clang-fast++ \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUNTLET_FUZZ=ON -DGAUNTLET_SANITIZE=address,undefined ${CMAKE_ARGS:-}
  fi
  cmake --build "$build/afl" -j "$jobs" --target "${targets[@]}"
fi
echo "setup_fuzz: targets in $build/bin$([ "$afl" -eq 1 ] && echo " and $build/afl/bin")"
