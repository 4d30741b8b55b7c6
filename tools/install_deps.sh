#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks for the build and the tests (apt only;
# the npm peer is installed by tools/install_peer.sh where the report needs it).
# Fast when everything is present: it asks dpkg first and runs apt-get only for what
# is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang llvm lld libclang-rt-14-dev
  libboost-test-dev libssl-dev nlohmann-json3-dev pkgconf
  libflatbuffers-dev flatbuffers-compiler
  libprotobuf-dev protobuf-compiler libonnx-dev
  python3-onnx python3-numpy python3-yaml valgrind
  libbenchmark-dev libprotozero-dev universal-ctags
  afl++  # the nightly's second engine, proven end to end by ctest nightly_triage
  ccache  # shared object cache for developers' worktrees (CMAKE_ARGS=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
)
extra=("$@")  # callers may ask for more (chromium, ...)

missing=()
for p in "${packages[@]}" "${extra[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install_deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
