// Matrix worker for ONNX Runtime web's JavaScript model loader (docs/matrix.md): the
// compiled lib/onnxjs/model.js of npm onnxruntime-web, `new Model().load(bytes, undefined,
// isOrt)`; protobufjs static code for `.onnx`, generated flatbuffers code (no verifier) for
// `.ort`. The package's `exports` hide the subpath, so it is required by absolute path.
// What it read comes from the same generated code the loader used.
'use strict';

const fs = require('fs');
const path = require('path');
const { moduleDirs, versionOf, serveReader, readSummary } = require('./peer_reader.js');

const [dir] = moduleDirs('peer_ort_web_js.js PEER_DIR/node_modules/onnxruntime-web', 1);
const lib = path.join(dir, 'lib', 'onnxjs');
const { Model } = require(path.join(lib, 'model.js'));
const { onnx } = require(path.join(lib, 'ort-schema', 'protobuf', 'onnx.js'));
const ortFbs = require(path.join(lib, 'ort-schema', 'flatbuffers', 'ort-generated.js'));
const flatbuffers = require(require.resolve('flatbuffers', { paths: [dir] }));

function load(file) {
  const bytes = fs.readFileSync(file);
  const isOrt = file.endsWith('.ort');
  new Model().load(bytes, undefined, isOrt);
  return { bytes, isOrt };
}

function summarize({ bytes, isOrt }) {
  if (!isOrt) return readSummary.fromProto(onnx.ModelProto.decode(bytes));
  const session = ortFbs.InferenceSession.getRootAsInferenceSession(new flatbuffers.ByteBuffer(bytes));
  return readSummary.fromOrt(session.model());
}

serveReader(versionOf(dir), load, summarize);
