// Matrix worker for npm tractjs (docs/matrix.md): tract-onnx compiled to WebAssembly, run in
// a web worker; `load` parses the file and builds tract's model. It exposes no reading of
// its own, so it answers accepted or refused only.
'use strict';

const { moduleDirs, versionOf, serveReader } = require('./peer_reader.js');

const [dir] = moduleDirs('peer_tractjs.js PEER_DIR/node_modules/tractjs', 1);
const tractjs = require(dir);

serveReader(versionOf(dir), async (file) => {
  const model = await tractjs.load(file, { format: 'onnx' });
  await model.destroy();  // its memory lives in the web worker until then
  return model;
}, null);
