// The ONNX Runtime side of tools/ort_conformance.sh: one long-lived node process that
// asks ONNX Runtime (npm onnxruntime-node) to write the .ort of each model it is given,
// so node startup and loading libonnxruntime.so are paid once. The driver restarts it
// after a crash or a timeout.
//
// Protocol: one JSON request per line on stdin, {"src": "model.onnx", "dst": "model.ort"};
// one JSON answer per line on stdout, {"ok": true} or {"ok": false, "message": ...}.
// It writes {"ready": true, "version": ...} once the runtime is loaded.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const moduleDir = process.argv[2];
if (!moduleDir) {
  process.stderr.write('usage: node write_ort.js PEER_DIR/node_modules/onnxruntime-node\n');
  process.exit(2);
}
const ort = require(path.resolve(moduleDir));
const version = require(path.join(path.resolve(moduleDir), 'package.json')).version;

// No graph optimization: the .ort should hold the model as written, up to the
// normalizations ONNX Runtime applies anyway (docs/ort-normalizations.md). The .ort
// suffix of optimizedModelFilePath selects the format. One thread, no log chatter.
const options = (dst) => ({
  graphOptimizationLevel: 'disabled',
  optimizedModelFilePath: dst,
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  logSeverityLevel: 3,
  executionProviders: ['cpu'],
});

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const queue = [];
let busy = false;

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length > 0) {
    const { src, dst } = queue.shift();
    try {
      fs.mkdirSync(path.dirname(dst), { recursive: true });
      const session = await ort.InferenceSession.create(src, options(dst));
      if (typeof session.release === 'function') await session.release();
      if (!fs.existsSync(dst)) throw new Error('the session was created but no .ort file was written');
      reply({ ok: true });
    } catch (err) {
      reply({ ok: false, message: String(err && err.message ? err.message : err) });
    }
  }
  busy = false;
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  try {
    queue.push(JSON.parse(line));
  } catch (err) {
    reply({ ok: false, message: 'bad request line' });
    return;
  }
  drain();
});
rl.on('close', () => process.exit(0));

reply({ ready: true, version });
