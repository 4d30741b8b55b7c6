// Matrix worker for ONNX Runtime (cross-importer matrix): a long-lived worker
// (python/gauntlet/ort/ort_worker.js) that creates a session for each file it is given.
//
// Request {"path": ...} (or the path as a JSON string); answer
// {"outcome":"accepted"|"refused","message":...,"tensors":...}. A session without inputs
// (the canary cases output their initializer) is also run once and `tensors` holds the
// SHA-256 of each output's bytes, so a read from outside the model's folder shows.
'use strict';

const worker = require('../ort/ort_worker.js');
const { outputHashes } = require('./peer_outputs.js');

const { ort, version } = worker.loadRuntime('peer_ort.js');

// No log chatter: the matrix measures whether the file is accepted, not how fast.
const sessionOptions = worker.sessionOptions({ logSeverityLevel: 4 });

async function load(request) {
  const file = typeof request === 'string' ? request : request.path;
  try {
    const session = await ort.InferenceSession.create(file, sessionOptions);
    const answer = { outcome: 'accepted', message: '' };
    if (session.inputNames.length === 0) Object.assign(answer, await outputHashes(session, worker.errorText));
    await worker.release(session);
    return answer;
  } catch (err) {
    return { outcome: 'refused', message: worker.errorText(err), ...worker.whatWasThrown(err) };
  }
}

worker.serve(version, load, { outcome: 'error', message: 'bad request line' });
