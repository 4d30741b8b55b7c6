// Matrix worker for ONNX Runtime (issue 8, cross-importer matrix): one long-lived node
// process that answers one request per line on stdin, so node startup and loading
// libonnxruntime.so are paid once, not once per file. The driver (matrix.py) restarts
// it after a crash or a timeout.
//
// Protocol: the driver writes a JSON object {"path": ...} per line; the worker answers
// one JSON object per line: {"outcome":"accepted"|"refused","message":...,"tensors":...}.
// A session without inputs (the canary cases output their initializer) is also run once
// and `tensors` holds the SHA-256 of each output's bytes, so a read from outside the
// model's folder shows. It writes {"ready":true,"version":...} once the runtime is loaded.
'use strict';

const crypto = require('crypto');
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
      const answer = { outcome: 'accepted', message: '' };
      if (session.inputNames.length === 0) {
        try {
          const outputs = await session.run({});
          answer.tensors = {};
          for (const [name, t] of Object.entries(outputs)) {
            const data = t.data;
            const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
            answer.tensors[name] = crypto.createHash('sha256').update(bytes).digest('hex');
          }
        } catch (err) {
          answer.run_error = String(err && err.message ? err.message : err).slice(0, 200);
        }
      }
      // Releasing the session keeps memory flat across a few hundred files.
      if (typeof session.release === 'function') await session.release();
      reply(answer);
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
    const request = JSON.parse(line);
    file = typeof request === 'string' ? request : request.path;
  } catch (err) {
    reply({ outcome: 'error', message: 'bad request line' });
    return;
  }
  queue.push(file);
  drain();
});
rl.on('close', () => process.exit(0));

reply({ ready: true, version });
