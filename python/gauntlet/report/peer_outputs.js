// The SHA-256 of each output of an ONNX Runtime session without inputs, run once
// (docs/matrix.md, reads outside the folder): the canary cases output their initializer,
// so bytes read from outside the model's folder show. Shared by the native and wasm workers.
'use strict';

const crypto = require('crypto');

async function outputHashes(session, errorText) {
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
    return { run_error: errorText(err).slice(0, 200) };
  }
}

module.exports = { outputHashes };
