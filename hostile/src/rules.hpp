// The sentences of the spec (000_527777944088ded5.txt) that the hostile cases exercise,
// quoted verbatim, so the manifest can say which sentence each file tests. Where the
// spec names a class of error without a kind, the project's decision (preamble) is
// marked "[decision: ...]".
#pragma once

#include "corpus.hpp"

namespace hostile::rules {

// 1. Protobuf reading
inline constexpr Rule range{"1", "The reader works on one contiguous byte range and never reads outside it."};
inline constexpr Rule key32{"1", "A key is a varint of at most 32 bits: field << 3 | wire."};
inline constexpr Rule field0{"1", "Field 0 is an error."};
inline constexpr Rule wire_read{"1", "Wire types 0 (varint), 1 (64-bit), 2 (length-delimited) and 5 (32-bit) are read."};
inline constexpr Rule wire_bad{"1", "Wire types 3 and 4 (groups) and 6 and 7 are errors."};
inline constexpr Rule tenth{"1", "The tenth byte may be 0 or 1; anything larger overflows 64 bits and is an error."};
inline constexpr Rule varint_cut{"1", "A varint cut off by the end of the data is an error."};
inline constexpr Rule overlong{"1", "Overlong encodings (0x81 0x80 0x00) are accepted, as the specification allows."};
inline constexpr Rule len64{"1", "A length is read as 64 bits and compared with the bytes that remain before any slice is taken."};
inline constexpr Rule len_big{"1", "A length larger than the remainder is an error."};
inline constexpr Rule int32{"1", "int32 and enum fields keep the low 32 bits of the varint, as protobuf does."};
inline constexpr Rule int64{"1", "int64 and uint64 keep all 64."};
inline constexpr Rule utf8{"1", "Strings (string fields) must be valid UTF-8; invalid bytes are an error."};
inline constexpr Rule bytes{"1", "bytes fields are never decoded."};
inline constexpr Rule packed{"1", "Repeated scalars are accepted packed (one length-delimited field) or unpacked (one key per element), mixed in any order."};
inline constexpr Rule unknown{"1", "Unknown fields, and known fields that arrive with the wrong wire type, are skipped."};
inline constexpr Rule last_wins{"1", "Repeated occurrences of a singular field: the last one wins."};
inline constexpr Rule no_merge{"1", "Singular message fields are not merged."};
inline constexpr Rule nesting{"1", "Reading stops with an error beyond MaxNesting levels (default 128, range 8 to 250)."};
inline constexpr Rule nesting3{"1", "A graph inside a node's attribute inside a graph costs three levels."};
inline constexpr Rule size{"1", "A model file can be at most 2^31 \u2212 1 bytes (protobuf's own limit)."};

// 2. Messages and fields used
inline constexpr Rule ir{"2", "ir_version must be present and at least 3; a larger version than any known is accepted (new fields are skipped)."};
inline constexpr Rule no_graph{"2", "A model without a graph is an error."};
inline constexpr Rule infer{"2", "If type is absent the type is inferred from the field that is set (f, i, s, t, g, sparse_tensor, tp, then the repeated fields in the order floats, ints, strings, tensors, graphs, sparse_tensors, type_protos)."};
inline constexpr Rule no_value{"2", "An attribute with neither a type nor a value (and no ref_attr_name) is an error."};
inline constexpr Rule scalar_absent{"2", "A scalar attribute whose field is absent reads as 0 or empty."};
inline constexpr Rule declared_absent{"2", "An attribute declared as tensor, graph, sparse tensor or type whose field is absent is an error."};
inline constexpr Rule ref_attr{"2", "An attribute with ref_attr_name (function bodies) carries no value."};
inline constexpr Rule attr_code{"2", "Attributes. [decision: an attribute type code outside AttributeProto.AttributeType (1..14) is an invalid model]"};
inline constexpr Rule no_type{"2", "A TypeProto with no member set is \"no type\"."};
inline constexpr Rule shape{"2", "A tensor type that has a shape field has a shape (possibly rank 0); one without it has unknown rank."};
inline constexpr Rule dim_unknown{"2", "A dimension with neither dim_value nor dim_param is unknown."};

// 3. Tensors
inline constexpr Rule elem_code{"3", "A tensor has an element type code (1 to 28, TensorProto.DataType), dimensions, and its values as little-endian bytes in the raw layout of TensorProto.raw_data."};
inline constexpr Rule dims_neg{"3", "Dimensions must be non-negative."};
inline constexpr Rule count{"3", "The element count is their product, which must not exceed 2^60."};
inline constexpr Rule byte_len{"3", "The expected byte length is ceil(count \u00d7 bits / 8) with bits: 32 for float, int32, uint32; 8 for uint8, int8, bool, the 8-bit floats; 16 for uint16, int16, float16, bfloat16; 64 for int64, uint64, double, complex64; 128 for complex128; 4 for the 4-bit types; 2 for the 2-bit types; 6 for the 6-bit floats."};
inline constexpr Rule sub_byte{"3", "Sub-byte elements are packed as onnx.proto describes."};
inline constexpr Rule too_big{"3", "A tensor that would need more than 2^31 \u2212 1 bytes is unsupported, and this is decided from the dimensions alone, before any data is read."};
inline constexpr Rule source_order{"3", "Where the values come from, in this order: data_location = EXTERNAL (section 5); else raw_data; else the typed field for the element type."};
inline constexpr Rule location_code{"3", "Where the values come from [decision: a data_location other than DEFAULT (0) or EXTERNAL (1) is an invalid model]"};
inline constexpr Rule mixing{"3", "Mixing sources is an error."};
inline constexpr Rule no_source{"3", "A tensor with elements and no source is an error (its byte length is zero)."};
inline constexpr Rule float_double_int64{"3", "float_data (float, complex64): 4 bytes per entry. double_data (double, complex128): 8 bytes. int64_data (int64): 8 bytes."};
inline constexpr Rule uint64_data{"3", "uint64_data serves uint64 (8 bytes) and uint32 (the low 32 bits, 4 bytes)."};
inline constexpr Rule int32_data{"3", "int32_data serves every other numeric type, one element per entry: int32 as is; 16-bit types keep the low 16 bits; 8-bit types and bool keep the low 8 bits (bool: any non-zero entry becomes 1)."};
inline constexpr Rule int32_packed{"3", "For 4-bit and 2-bit types an entry's low byte is one packed byte."};
inline constexpr Rule int32_six{"3", "For the 6-bit types an entry's low 6 bits are one element and the elements are packed into the 4-in-3-bytes bit stream."};
inline constexpr Rule not_own{"3", "A typed field that does not belong to the element type is an error."};
inline constexpr Rule typed_len{"3", "The resulting byte length must equal the expected length."};
inline constexpr Rule strings{"3", "Strings (type 8) live only in string_data, one entry per element; the count must equal the element count."};
inline constexpr Rule segments{"3", "Segments (segment) are not supported."};
inline constexpr Rule raw_len{"3", "raw_data must have exactly the expected length."};
inline constexpr Rule little_endian{"3", "Values are not byte-swapped; raw data is little-endian by definition."};
inline constexpr Rule sparse{"3", "A sparse tensor is imported as written (values, indices, dense dims) and is not converted to dense."};

// 4. The graph
inline constexpr Rule values{"4", "Per graph, in this order: each input (name must be non-empty and unique); each initializer (an initializer whose name is an input that has no initializer yet becomes that input's default value, which is how IR versions before 4 list initializers; any other repeated name is an error); each sparse initializer; each non-empty node output."};
inline constexpr Rule twice{"4", "A name defined twice is an error."};
inline constexpr Rule empty_name{"4", "An empty name among inputs or outputs of a node means \"omitted optional\" and gives no value."};
inline constexpr Rule scope{"4", "A subgraph (an attribute of type graph or graphs) resolves after its enclosing graph has defined all its values, and sees them; names it defines itself shadow outer names."};
inline constexpr Rule captures{"4", "A subgraph's Captures list the outer values it (or its own subgraphs) reads."};
inline constexpr Rule refs{"4", "Every non-empty node input, and every graph output, must name a defined value. Otherwise: error, naming the node."};
inline constexpr Rule opset{"4", "A node's opset version is the version imported for its domain; the empty domain and ai.onnx are the same domain."};
inline constexpr Rule domain{"4", "A node whose domain is not imported is an error."};
inline constexpr Rule fn_body{"4", "Function bodies are not resolved."};
inline constexpr Rule types{"4", "Types come from input and output declarations first, and from value_info for values that still have none."};
inline constexpr Rule vi_ignored{"4", "A value_info for a name that is not defined is ignored."};
inline constexpr Rule order_kept{"4", "Input in that order is kept as is."};
inline constexpr Rule order_sort{"4", "Otherwise nodes are sorted: repeatedly take the node with the smallest file index whose inputs (including values read by its subgraphs) are all produced; the flag NodesWereReordered records that this happened."};
inline constexpr Rule cycle{"4", "A cycle is an error."};
inline constexpr Rule consumers{"4", "For each value, the nodes that read it in sorted order, each once; a node counts as a reader of what its subgraphs read."};
inline constexpr Rule functions{"4", "Functions are imported as written (name, domain, overload, formal inputs, outputs and attributes, attribute defaults, body nodes by name, opset imports). They are not expanded."};

// 5. External data
inline constexpr Rule entries{"5", "Entries of external_data: location (required), offset (default 0), length (default: the tensor's expected length), checksum (ignored)."};
inline constexpr Rule relative{"5", "location must be a relative path: not empty, no NUL, not starting with / or \\, not X:-prefixed, not rooted on the platform, and with no .. segment when split at either / or \\."};
inline constexpr Rule joined{"5", "It is joined to the external-data directory (for a file path, the model's directory; for a stream or byte array, only if the caller names one) and every symbolic link on the way is resolved."};
inline constexpr Rule inside{"5", "The resolved file must lie inside the resolved directory and be a file. Otherwise: external-data error."};
inline constexpr Rule decimal{"5", "offset and length must be non-negative decimal integers."};
inline constexpr Rule length_eq{"5", "length, if given, must equal the expected length."};
inline constexpr Rule range_end{"5", "offset + length must not exceed the file's size (checked in 64 bits)."};
inline constexpr Rule mapped{"5", "The file is memory-mapped where the platform allows it (one mapping per file, shared by its tensors) and the tensor is a view into it."};

// 6 and 7
inline constexpr Rule closed{"6", "Disposing the model releases the mappings; reading tensor data afterwards throws."};
inline constexpr Rule kinds{"7", "Everything wrong with the input is one exception type carrying a kind (Malformed for bytes that are not valid protobuf, InvalidModel for valid protobuf that is not a valid model, Unsupported, ExternalData, Io), the input's name, the byte offset when one is known, and the field path (ModelProto.graph.node[3].attribute[1].t)."};

}  // namespace hostile::rules
