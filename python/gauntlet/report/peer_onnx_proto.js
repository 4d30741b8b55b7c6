// Matrix worker for npm onnx-proto (docs/matrix.md): protobufjs 6 static code generated from
// its own copy of onnx.proto, decoding onnx.ModelProto.
'use strict';

const fs = require('fs');
const { moduleDirs, versionOf, serveReader, readSummary } = require('./peer_reader.js');

const [dir] = moduleDirs('peer_onnx_proto.js PEER_DIR/node_modules/onnx-proto', 1);
const pkg = require(dir);
const onnx = pkg.onnx || pkg;

serveReader(versionOf(dir), (file) => onnx.ModelProto.decode(fs.readFileSync(file)), readSummary.fromProto);
