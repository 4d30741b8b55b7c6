// Matrix worker for npm onnx-buf (docs/matrix.md): protobuf-es 2 (`@bufbuild/protobuf`)
// decoding onnx.ModelProto with fromBinary.
'use strict';

const fs = require('fs');
const path = require('path');
const { moduleDirs, versionOf, serveReader, readSummary } = require('./peer_reader.js');

const [dir] = moduleDirs('peer_onnx_buf.js PEER_DIR/node_modules/onnx-buf', 1);
const { ModelProtoSchema } = require(dir);
const { fromBinary } = require(path.join(path.dirname(dir), '@bufbuild', 'protobuf'));

serveReader(versionOf(dir), (file) => fromBinary(ModelProtoSchema, fs.readFileSync(file)), readSummary.fromProto);
