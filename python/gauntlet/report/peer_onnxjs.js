// Matrix worker for npm onnxjs (docs/matrix.md): the old onnxjs runtime's
// InferenceSession.loadModel on the CPU backend (it decodes with onnx-proto 4 and builds its
// own graph). It exposes no reading of its own, so it answers accepted or refused only.
'use strict';

const fs = require('fs');
const { moduleDirs, versionOf, serveReader } = require('./peer_reader.js');

const [dir] = moduleDirs('peer_onnxjs.js PEER_DIR/node_modules/onnxjs', 1);
const onnxjs = require(dir);

serveReader(versionOf(dir), async (file) => {
  const session = new onnxjs.InferenceSession({ backendHint: 'cpu' });
  await session.loadModel(fs.readFileSync(file));
  return session;
}, null);
