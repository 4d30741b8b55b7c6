// What a JavaScript reader read (docs/matrix.md, "What each importer read"): the same summary
// as read_summary.py, from a ModelProto decoded by protobufjs (any version: 64-bit integers
// as Long or number) or protobuf-es (bigint), and from an ONNX Runtime `.ort` flatbuffer.
// 64-bit integers are decimal strings, so nothing is rounded through a double.
'use strict';

const crypto = require('crypto');

// elem_type -> [typed field, bytes per element in the raw layout] (docs/matrix.md: typed
// fields become the bytes raw_data would hold; sub-byte and string types have no hash).
const TYPED = {
  1: ['floatData', 4], 14: ['floatData', 4],
  2: ['int32Data', 1], 3: ['int32Data', 1], 9: ['int32Data', 1],
  17: ['int32Data', 1], 18: ['int32Data', 1], 19: ['int32Data', 1], 20: ['int32Data', 1], 24: ['int32Data', 1],
  4: ['int32Data', 2], 5: ['int32Data', 2], 10: ['int32Data', 2], 16: ['int32Data', 2],
  6: ['int32Data', 4],
  7: ['int64Data', 8],
  11: ['doubleData', 8], 15: ['doubleData', 8],
  12: ['uint64Data', 4], 13: ['uint64Data', 8],
};
const EXTERNAL = 1;  // TensorProto.DataLocation.EXTERNAL
const BOOL = 9;  // a BOOL's int32_data value is true when not 0 (docs/rules.md T12): hashed as 1

function int(value) {
  if (value === undefined || value === null) return '0';
  return BigInt(String(value)).toString();
}

function sha256(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

// The typed values as little-endian bytes of `size` each (two's complement, low bits kept).
function typedBytes(field, size, values) {
  const out = Buffer.alloc(values.length * size);
  values.forEach((v, i) => {
    if (field === 'floatData') out.writeFloatLE(Number(v), i * 4);
    else if (field === 'doubleData') out.writeDoubleLE(Number(v), i * 8);
    else writeLow(out, i * size, size, v);
  });
  return out;
}

function writeLow(out, at, size, v) {
  let n = BigInt.asUintN(size * 8, BigInt(String(v)));
  for (let b = 0; b < size; b++, n >>= 8n) out[at + b] = Number(n & 0xffn);
}

function tensorHash(t) {
  if (Number(t.dataLocation || 0) === EXTERNAL) return null;
  const raw = t.rawData;
  if (raw && raw.length > 0) return sha256(raw);
  const typed = TYPED[Number(t.dataType || 0)];
  if (!typed) return null;
  let values = Array.from(t[typed[0]] || []);
  if (Number(t.dataType) === BOOL) values = values.map((v) => (String(v) === '0' ? 0 : 1));
  return sha256(typedBytes(typed[0], typed[1], values));
}

function fromProto(model) {
  const graph = model.graph || {};
  const nodes = graph.node || [];
  return {
    ir_version: int(model.irVersion),
    opsets: (model.opsetImport || []).map((o) => [o.domain || '', int(o.version)]),
    nodes: nodes.length,
    op_types: nodes.map((n) => n.opType || ''),
    initializers: (graph.initializer || []).map((t) => ({
      name: t.name || '', elem_type: Number(t.dataType || 0), dims: Array.from(t.dims || []).map(int),
      sha256: tensorHash(t),
    })),
  };
}

function listOf(length, at) {
  const out = [];
  for (let i = 0; i < length; i++) out.push(at(i));
  return out;
}

// An `.ort` file read with the flatbuffers code ONNX Runtime web generated (ort-generated.js).
function fromOrt(model) {
  const graph = model.graph();
  const nodes = graph ? listOf(graph.nodesLength(), (i) => graph.nodes(i)) : [];
  const tensorOf = (t) => {
    const raw = t.rawDataArray();
    return {
      name: t.name() || '', elem_type: Number(t.dataType()), dims: listOf(t.dimsLength(), (d) => int(t.dims(d))),
      sha256: raw && raw.length > 0 ? sha256(raw) : null,
    };
  };
  return {
    ir_version: int(model.irVersion()),
    opsets: listOf(model.opsetImportLength(), (i) => model.opsetImport(i))
      .map((o) => [o.domain() || '', int(o.version())]),
    nodes: nodes.length,
    op_types: nodes.map((n) => (n && n.opType()) || ''),
    initializers: graph ? listOf(graph.initializersLength(), (i) => tensorOf(graph.initializers(i))) : [],
  };
}

module.exports = { fromProto, fromOrt };
