// The ONNX Runtime side of python/gauntlet/ort/run_conformance.py: a long-lived worker
// (ort_worker.js) that loads a model file, feeds it the tensors it is given and hands
// back the outputs, as ONNX Runtime returns them.
//
// Request {"model": FILE, "inputs": [TENSOR, ...]}: the i-th tensor feeds the session's
// i-th input (the order of the backend test's input_<i>.pb); "optimization": "disabled"
// turns ONNX Runtime's graph optimizations off for that session. A TENSOR is
// {"type": ONNX Runtime's type name, "dims": [...], "data": base64 of the little-endian
// bytes} or, for "string", {"type": "string", "dims": [...], "strings": [...]}.
// Answer {"ok": true, "outputs": [{"name": ..., TENSOR}, ...]} in the session's output
// order, or {"ok": false, "stage": "load" | "run", "message": ONNX Runtime's error}.
'use strict';

const worker = require('./ort_worker.js');

const { ort, version } = worker.loadRuntime('run_models.js');

// The backend tests run with ONNX Runtime's default graph optimizations, as a user
// loads a model; one thread keeps the run deterministic on a busy machine.
const sessionOptions = worker.sessionOptions({});
// Off for a comparison of two files of one model (ort_to_onnx.py): it optimizes a .onnx it loads and
// not a .ort written unoptimized, and a fused kernel (FusedMatMul) rounds otherwise (docs/ort.md).
const unoptimized = worker.sessionOptions({ graphOptimizationLevel: 'disabled' });

// The typed array ONNX Runtime's JavaScript API takes for each type (onnxruntime-common's
// tensor type mapping): float16 as its bit patterns, bool one byte each. The Node.js
// binding takes no other type (test_data.py says which tests that leaves out).
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

function toTensor({ type, dims, data, strings }) {
  if (type === 'string') return new ort.Tensor('string', strings, dims);
  const Typed = ARRAYS[type];
  if (!Typed) throw new Error(`no typed array for element type ${type}`);
  // A copy into a fresh buffer: the decoded bytes need not sit at the element's alignment.
  const bytes = Buffer.from(data, 'base64');
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new ort.Tensor(type, new Typed(copy.buffer), dims);
}

function fromTensor(name, t) {
  if (t.type === 'string') return { name, type: t.type, dims: t.dims, strings: Array.from(t.data) };
  const data = t.data;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return { name, type: t.type, dims: t.dims, data: bytes.toString('base64') };
}

async function runOnce(session, inputs) {
  // Fewer tensors than inputs is ONNX Runtime's to judge (an omitted optional input).
  if (inputs.length > session.inputNames.length) {
    throw new Error(`the session has ${session.inputNames.length} inputs, the test data ${inputs.length}`);
  }
  const feeds = {};
  inputs.forEach((tensor, i) => { feeds[session.inputNames[i]] = toTensor(tensor); });
  const results = await session.run(feeds);
  return session.outputNames.map((name) => fromTensor(name, results[name]));
}

async function run({ model, inputs, optimization }) {
  let session;
  try {
    session = await ort.InferenceSession.create(model, optimization === 'disabled' ? unoptimized : sessionOptions);
  } catch (err) {
    return { ok: false, stage: 'load', message: worker.errorText(err) };
  }
  try {
    return { ok: true, outputs: await runOnce(session, inputs) };
  } catch (err) {
    return { ok: false, stage: 'run', message: worker.errorText(err) };
  } finally {
    await worker.release(session);
  }
}

worker.serve(version, run, { ok: false, stage: 'request', message: 'bad request line' });
