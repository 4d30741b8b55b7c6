// The ONNX Runtime side of python3 -m gauntlet ort conformance: a long-lived worker (ort_worker.js)
// that asks ONNX Runtime (npm onnxruntime-node) to write the .ort of each model it is given.
//
// Request {"src": "model.onnx", "dst": "model.ort"}; answer {"ok": true} or
// {"ok": false, "message": ...}.
'use strict';

const fs = require('fs');
const path = require('path');
const worker = require('./ort_worker.js');

const { ort, version } = worker.loadRuntime('write_ort.js');

// No graph optimization: the .ort should hold the model as written, up to the
// normalizations ONNX Runtime applies anyway (docs/ort-normalizations.md). The .ort
// suffix of optimizedModelFilePath selects the format.
const options = (dst) => worker.sessionOptions({ graphOptimizationLevel: 'disabled', optimizedModelFilePath: dst });

async function write({ src, dst }) {
  try {
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    await worker.release(await ort.InferenceSession.create(src, options(dst)));
    if (!fs.existsSync(dst)) throw new Error('the session was created but no .ort file was written');
    return { ok: true };
  } catch (err) {
    return { ok: false, message: worker.errorText(err) };
  }
}

worker.serve(version, write, { ok: false, message: 'bad request line' });
