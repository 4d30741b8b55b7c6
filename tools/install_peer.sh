#!/usr/bin/env bash
# Installs the npm peers of the cross-importer matrix (issues 8 and 20): onnxruntime-node
# and protobufjs, pinned by tools/peer/package.json and package-lock.json, into DEST
# (default build/peer).
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

# The lock file pins every package: an install whose lock equals ours, with both
# packages present, is current.
if cmp -s "$here/peer/package-lock.json" "$dest/package-lock.json" &&
   [ -f "$dest/node_modules/onnxruntime-node/package.json" ] && [ -f "$dest/node_modules/protobufjs/package.json" ]; then
  exit 0
fi

echo "install_peer: installing the pinned onnxruntime-node and protobufjs into $dest"
cp "$here/peer/package.json" "$here/peer/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

# Session creation is what the matrix calls; prove it works here before anyone relies on it.
node -e "require('$dest/node_modules/onnxruntime-node'); console.log('install_peer: onnxruntime-node ' + require('$dest/node_modules/onnxruntime-node/package.json').version + ' loads')"
node -e "require('$dest/node_modules/protobufjs'); console.log('install_peer: protobufjs ' + require('$dest/node_modules/protobufjs/package.json').version + ' loads')"
