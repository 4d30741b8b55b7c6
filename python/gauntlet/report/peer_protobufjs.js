// Matrix worker for an independent JavaScript protobuf decoder (issue 20): protobufjs
// decoding onnx.ModelProto with the schema the project already uses (Debian's
// libonnx-dev onnx.proto, the one the libprotobuf peers are generated from). It checks
// the wire format and the schema's types only, not the model: a yardstick for what plain
// protobuf decoding accepts.
//
// Protocol as peer_ort.js: a JSON request {"path": ...} per line, an answer per line
// {"outcome":"accepted"|"refused","message":...}; {"ready":true,"version":...} first.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const [moduleDir, protoPath] = process.argv.slice(2);
if (!moduleDir || !protoPath) {
  process.stderr.write('usage: node peer_protobufjs.js PEER_DIR/node_modules/protobufjs onnx.proto\n');
  process.exit(2);
}
const protobuf = require(path.resolve(moduleDir));
const version = require(path.join(path.resolve(moduleDir), 'package.json')).version;
const ModelProto = protobuf.loadSync(protoPath).lookupType('onnx.ModelProto');

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let file;
  try {
    file = JSON.parse(line).path;
  } catch (err) {
    reply({ outcome: 'error', message: 'bad request line' });
    return;
  }
  try {
    ModelProto.decode(fs.readFileSync(file));
    reply({ outcome: 'accepted', message: '' });
  } catch (err) {
    reply({ outcome: 'refused', message: String(err && err.message ? err.message : err).slice(0, 400) });
  }
});
rl.on('close', () => process.exit(0));

reply({ ready: true, version });
