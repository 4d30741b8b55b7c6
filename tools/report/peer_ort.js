// Matrix worker for ONNX Runtime (issue 8, cross-importer matrix): one long-lived node
// process that answers one request per line on stdin, so node startup and loading
// libonnxruntime.so are paid once, not once per file. The driver (matrix.py) restarts
// it after a crash or a timeout.
//
// Protocol: the driver writes a JSON string (the model path) per line; the worker
// answers one JSON object per line: {"outcome":"accepted"|"refused","message":...}.
// It writes {"ready":true,"version":...} once the runtime is loaded.
'use strict';

const path = require('path');
const readline = require('readline');

const moduleDir = process.argv[2];
if (!moduleDir) {
  process.stderr.write('usage: node peer_ort.js PEER_DIR/node_modules/onnxruntime-node\n');
  process.exit(2);
}
const ort = require(path.resolve(moduleDir));
const version = require(path.join(path.resolve(moduleDir), 'package.json')).version;

// One thread and no log chatter: the matrix measures whether the file is accepted,
// not how fast, and a second core belongs to the other peer running beside us.
const sessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  logSeverityLevel: 4,
  executionProviders: ['cpu'],
};

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// Requests are handled strictly one at a time: the driver waits for each answer.
const queue = [];
let busy = false;

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length > 0) {
    const file = queue.shift();
    try {
      const session = await ort.InferenceSession.create(file, sessionOptions);
      // Releasing the session keeps memory flat across a few hundred files.
      if (typeof session.release === 'function') await session.release();
      reply({ outcome: 'accepted', message: '' });
    } catch (err) {
      reply({ outcome: 'refused', message: String(err && err.message ? err.message : err) });
    }
  }
  busy = false;
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let file;
  try {
    file = JSON.parse(line);
  } catch (err) {
    reply({ outcome: 'error', message: 'bad request line' });
    return;
  }
  queue.push(file);
  drain();
});
rl.on('close', () => process.exit(0));

reply({ ready: true, version });
