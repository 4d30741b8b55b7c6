// Matrix worker for ONNX Runtime (issue 8, cross-importer matrix): a long-lived worker
// (python/gauntlet/ort/ort_worker.js) that creates a session for each file it is given.
//
// Request {"path": ...} (or the path as a JSON string); answer
// {"outcome":"accepted"|"refused","message":...,"tensors":...}. A session without inputs
// (the canary cases output their initializer) is also run once and `tensors` holds the
// SHA-256 of each output's bytes, so a read from outside the model's folder shows.
'use strict';

const crypto = require('crypto');
const worker = require('../ort/ort_worker.js');

const { ort, version } = worker.loadRuntime('peer_ort.js');

// No log chatter: the matrix measures whether the file is accepted, not how fast.
const sessionOptions = worker.sessionOptions({ logSeverityLevel: 4 });

async function outputHashes(session) {
  try {
    const outputs = await session.run({});
    const tensors = {};
    for (const [name, t] of Object.entries(outputs)) {
      const data = t.data;
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      tensors[name] = crypto.createHash('sha256').update(bytes).digest('hex');
    }
    return { tensors };
  } catch (err) {
    return { run_error: worker.errorText(err).slice(0, 200) };
  }
}

async function load(request) {
  const file = typeof request === 'string' ? request : request.path;
  try {
    const session = await ort.InferenceSession.create(file, sessionOptions);
    const answer = { outcome: 'accepted', message: '' };
    if (session.inputNames.length === 0) Object.assign(answer, await outputHashes(session));
    await worker.release(session);
    return answer;
  } catch (err) {
    return { outcome: 'refused', message: worker.errorText(err) };
  }
}

worker.serve(version, load, { outcome: 'error', message: 'bad request line' });
