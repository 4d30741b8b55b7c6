// Matrix worker for ONNX Runtime's WebAssembly build (docs/matrix.md): npm onnxruntime-web's
// Node entry, InferenceSession.create(file, {executionProviders: ['wasm']}), one thread.
// Same answers as peer_ort.js (the native build): outcome, and the output hashes of a
// graph without inputs.
'use strict';

const { serve, errorText, whatWasThrown, release } = require('../ort/ort_worker.js');
const { moduleDirs, versionOf } = require('./peer_reader.js');
const { outputHashes } = require('./peer_outputs.js');

const [dir] = moduleDirs('peer_ort_web.js PEER_DIR/node_modules/onnxruntime-web', 1);
const ort = require(dir);
ort.env.wasm.numThreads = 1;  // the second core belongs to the other worker
ort.env.logLevel = 'fatal';

async function load(request) {
  const file = typeof request === 'string' ? request : request.path;
  try {
    const session = await ort.InferenceSession.create(file, { executionProviders: ['wasm'], logSeverityLevel: 4 });
    const answer = { outcome: 'accepted', message: '' };
    if (session.inputNames.length === 0) Object.assign(answer, await outputHashes(session, errorText));
    await release(session);
    return answer;
  } catch (err) {
    return { outcome: 'refused', message: errorText(err).slice(0, 400), ...whatWasThrown(err) };
  }
}

serve(versionOf(dir), load, { outcome: 'error', message: 'bad request line' });
