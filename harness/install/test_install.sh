#!/usr/bin/env bash
# The library as others use it, in a scratch folder under BUILD_DIR:
#   package       cmake --install BUILD_DIR into a temporary prefix: the public headers
#                 (not testing/), the libraries, the CLI, the CMake package and the pkg-config
#                 files in place; a consumer built through find_package and through pkg-config
#                 with OpenSSL out of sight (only the dump needs it), and a consumer of the dump
#   subdirectory  a project that add_subdirectory()s the source tree builds the library and
#                 its own program, and no test, fuzzer or tool, also with OpenSSL out of sight
# usage: test_install.sh package|subdirectory SOURCE_DIR BUILD_DIR
set -euo pipefail
mode=$1 src=$(cd "$2" && pwd) build=$(cd "$3" && pwd)
here=$src/harness/install
work=$(mktemp -d "$build/install-test-$mode.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
version=$(sed -nE 's/^#define ONNXIMPORT_VERSION_(MAJOR|MINOR|PATCH) ([0-9]+)$/\2/p' \
  "$src/importer/include/onnximport/version.hpp" | paste -sd.)

# The consumer's two lines: the model it imported and the kind of the cut one's refusal.
check_consumer() {
  local out
  out=$("$@") || fail "$* exited with $?"
  [[ $out == "onnximport $version ("*"): 1 node, Relu, producer consumer"$'\n'"cut model: Malformed" ]] ||
    fail "$*: unexpected output: $out"
  echo "ok: $*"
}

# The dump consumer's output: the dump of the same model.
check_dump_consumer() {
  local out
  out=$("$@") || fail "$* exited with $?"
  [[ $out == "onnx-gauntlet-dump 1"$'\n'"ir_version 9"$'\n'"producer_name \"consumer\""* ]] ||
    fail "$*: unexpected dump: ${out:0:200}"
  echo "ok: $*"
}

# OpenSSL out of sight of a configure: the library alone must not ask for it.
no_openssl=(-DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON)

configure_and_build() {  # SOURCE BINARY [cmake args...]
  local s=$1 b=$2; shift 2
  cmake -S "$s" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE= "$@" > "$b.log" 2>&1 || { cat "$b.log"; fail "configure $s"; }
  cmake --build "$b" -j 2 >> "$b.log" 2>&1 || { cat "$b.log"; fail "build $s"; }
}

package() {
  local prefix=$work/prefix
  cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "cmake --install"
  for h in import.hpp model.hpp error.hpp options.hpp dump.hpp version.hpp; do
    [ -f "$prefix/include/onnximport/$h" ] || fail "include/onnximport/$h not installed"
  done
  [ ! -e "$prefix/include/onnximport/testing" ] || fail "include/onnximport/testing installed (not public API)"
  local config pc
  config=$(find "$prefix" -name onnximportConfig.cmake -path '*/cmake/onnximport/*')
  pc=$(find "$prefix" -name onnximport.pc -path '*/pkgconfig/*')
  [ -n "$config" ] || fail "no CMake package installed"
  [ -n "$pc" ] || fail "no pkg-config file installed"
  find "$prefix" -name 'libonnximport.*' | grep -q . || fail "no library installed"
  [ "$("$prefix/bin/onnximport" --version)" = "onnximport $version" ] || fail "installed CLI: --version"

  configure_and_build "$here/consumer" "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" "${no_openssl[@]}"
  check_consumer "$work/consumer/consumer"
  configure_and_build "$here/consumer" "$work/consumer-dump" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_DUMP=ON
  check_dump_consumer "$work/consumer-dump/dump_consumer"

  export PKG_CONFIG_PATH=${pc%/*}
  [ "$(pkg-config --modversion onnximport)" = "$version" ] || fail "pkg-config --modversion"
  ! pkg-config --print-requires --print-requires-private onnximport | grep -q . ||
    fail "pkg-config: onnximport requires $(pkg-config --print-requires onnximport)"
  local libdir
  libdir=$(pkg-config --variable=libdir onnximport)
  # shellcheck disable=SC2046  # the flags are words
  ${CXX:-c++} -std=c++20 "$here/consumer/main.cpp" -o "$work/consumer-pc" $(pkg-config --cflags --libs onnximport) ||
    fail "the consumer does not build with pkg-config's flags"
  LD_LIBRARY_PATH=$libdir check_consumer "$work/consumer-pc"
  # shellcheck disable=SC2046
  ${CXX:-c++} -std=c++20 "$here/consumer/dump_main.cpp" -o "$work/dump-consumer-pc" \
    $(pkg-config --cflags --libs onnximport-dump) || fail "the dump consumer does not build with pkg-config's flags"
  LD_LIBRARY_PATH=$libdir check_dump_consumer "$work/dump-consumer-pc"
}

subdirectory() {
  local b=$work/sub
  configure_and_build "$here/subproject" "$b" -DONNXIMPORT_SOURCE_DIR="$src" "${no_openssl[@]}"
  check_consumer "$b/consumer"
  # What was built: the consumer and the library, nothing else.
  local built
  built=$(cd "$b" && find . -path ./CMakeFiles -prune -o -type f \( -perm -u+x -o -name '*.a' -o -name '*.so*' \) \
    -not -path '*/CMakeFiles/*' -print | sort | paste -sd' ')
  [ "$built" = "./consumer ./onnximport/libonnximport.a" ] || fail "built more than the library and the consumer: $built"
  local tests
  tests=$(cd "$b" && ctest -N | sed -n 's/^Total Tests: //p')
  [ "${tests:-0}" = 0 ] || fail "$tests tests defined under add_subdirectory"
  if cmake --build "$b" --target help | grep -E '(^| )(unit_tests|cli_unit_tests|onnximport_cli|hostile-gen|dump-all|fuzz_[a-z_]+)(:| |$)'; then
    fail "test or tool targets defined under add_subdirectory"
  fi
  echo "ok: add_subdirectory gives the library alone"
}

case $mode in
  package) package ;;
  subdirectory) subdirectory ;;
  *) fail "unknown mode $mode" ;;
esac
