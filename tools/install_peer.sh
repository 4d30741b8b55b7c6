#!/usr/bin/env bash
# Installs the npm peers of the cross-importer matrix (docs/matrix.md): onnxruntime-node,
# protobufjs, onnxruntime-web, tractjs, onnx-proto, onnx-buf and onnxjs, pinned by
# tools/peer/package.json and package-lock.json, into DEST (default build/peer).
#
# --ignore-scripts: the package ships libonnxruntime.so for linux-x64 inside the npm
# tarball; its postinstall script only fetches optional GPU bits from elsewhere, which
# this machine cannot reach and the matrix does not need (CPU session creation only).
# Fast when the pinned version is already there.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:-$here/../build/peer}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  "$here/install_deps.sh" nodejs npm
fi

packages=(onnxruntime-node protobufjs onnxruntime-web tractjs onnx-proto onnx-buf onnxjs)

# The lock file pins every package: an install whose lock equals ours, with every
# package present, is current.
current() {
  cmp -s "$here/peer/package-lock.json" "$dest/package-lock.json" || return 1
  for p in "${packages[@]}"; do [ -f "$dest/node_modules/$p/package.json" ] || return 1; done
}
if current; then
  exit 0
fi

echo "install_peer: installing the pinned ${packages[*]} into $dest"
cp "$here/peer/package.json" "$here/peer/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

# Session creation is what the matrix calls; prove it works here before anyone relies on it.
node -e "require('$dest/node_modules/onnxruntime-node'); console.log('install_peer: onnxruntime-node ' + require('$dest/node_modules/onnxruntime-node/package.json').version + ' loads')"
for p in "${packages[@]:1}"; do
  # process.exit: tractjs starts a web worker that would keep node alive.
  node -e "require('$dest/node_modules/$p'); console.log('install_peer: $p ' + require('$dest/node_modules/$p/package.json').version + ' loads'); process.exit(0)"
done
