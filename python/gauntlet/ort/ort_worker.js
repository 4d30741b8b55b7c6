// What every long-lived ONNX Runtime worker of this project shares (write_ort.js,
// run_models.js, python/gauntlet/report/peer_ort.js): loading npm onnxruntime-node from the peer
// folder, the session options, and the line protocol. The Python side starts the worker
// once, so node startup and loading libonnxruntime.so are paid once, and restarts it
// after a crash or a timeout.
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on stdout, in
// order; {"ready": true, "version": ...} first, once the runtime is loaded.
'use strict';

const path = require('path');
const readline = require('readline');

// The onnxruntime-node module and its version, from the folder named on the command line.
function loadRuntime(usage) {
  const moduleDir = process.argv[2];
  if (!moduleDir) {
    process.stderr.write(`usage: node ${usage} PEER_DIR/node_modules/onnxruntime-node\n`);
    process.exit(2);
  }
  const dir = path.resolve(moduleDir);
  return { ort: require(dir), version: require(path.join(dir, 'package.json')).version };
}

// One thread each (the second core belongs to whatever runs beside us), the CPU provider,
// warnings and errors only; `extra` adds or overrides per worker.
function sessionOptions(extra) {
  return {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    logSeverityLevel: 3,
    executionProviders: ['cpu'],
    ...extra,
  };
}

function errorText(err) {
  return String(err && err.message ? err.message : err);
}

// What a refusal adds about what was thrown: its class (TypeError, RangeError, Error, ...) and
// language, by which the matrix tells a reader tripping over the input from one refusing it
// (docs/matrix.md, "Internal errors").
function whatWasThrown(err) {
  const name = err && typeof err.name === 'string' ? err.name : typeof err;  // an error of another realm too
  return { error_type: name, language: 'javascript' };
}

// Releasing each session keeps memory flat across a few thousand models.
async function release(session) {
  if (session && typeof session.release === 'function') await session.release();
}

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const BAD = Symbol('bad request line');

async function answer(handle, request, badLine) {
  if (request === BAD) return badLine;
  try {
    return await handle(request);
  } catch (err) {  // a request of the wrong shape
    return { ...badLine, detail: errorText(err) };
  }
}

// Answers each request line with `await handle(request)`, strictly one at a time and in
// order: the driver waits for each answer. A line that is not JSON gets `badLine`.
function serve(version, handle, badLine) {
  const queue = [];
  let busy = false;
  let closed = false;
  async function drain() {
    if (busy) return;
    busy = true;
    while (queue.length > 0) reply(await answer(handle, queue.shift(), badLine));
    busy = false;
    if (closed) process.exit(0);
  }
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    try {
      queue.push(JSON.parse(line));
    } catch (err) {
      queue.push(BAD);
    }
    drain();
  });
  // The end of stdin ends the worker once the requests already read are answered.
  rl.on('close', () => {
    closed = true;
    if (!busy) process.exit(0);
  });
  reply({ ready: true, version });
}

module.exports = { loadRuntime, sessionOptions, errorText, whatWasThrown, release, serve };
