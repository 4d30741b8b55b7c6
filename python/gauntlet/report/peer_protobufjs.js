// Matrix worker for an independent JavaScript protobuf decoder (docs/matrix.md): protobufjs
// decoding onnx.ModelProto with the schema the project already uses (Debian's libonnx-dev
// onnx.proto, the one the libprotobuf peers are generated from). It checks the wire format
// and the schema's types only, not the model: a yardstick for what plain protobuf decoding
// accepts, and what it read.
'use strict';

const fs = require('fs');
const { moduleDirs, versionOf, serveReader, readSummary } = require('./peer_reader.js');

const [dir, protoPath] = moduleDirs('peer_protobufjs.js PEER_DIR/node_modules/protobufjs onnx.proto', 2);
const protobuf = require(dir);
const ModelProto = protobuf.loadSync(protoPath).lookupType('onnx.ModelProto');

serveReader(versionOf(dir), (file) => ModelProto.decode(fs.readFileSync(file)), readSummary.fromProto);
