// The imported model: the messages of onnx.proto as read (spec section 2), tensors as
// views (sections 3 and 6), and the graph proper built by resolution (section 4).
//
// Buffer lifetime
// ---------------
// A Model owns everything its views point into: the mapped or read model file (or, for
// import_bytes, nothing: the caller's array is used in place and must outlive the
// Model), the mappings of external-data files, converted typed-field data and an arena
// holding every message object and repeated field (List). Strings are views into the
// model input itself, not copies (except a tensor's name and doc_string, which sit next to
// its weights: read_tensor.cpp); they stay valid until the Model is destroyed.
// Tensor bytes stay valid until close() is called, after which TensorView::bytes() throws.
//
// Every type here is trivially copyable and destructible (they live in the arena; see
// list.hpp): copying a message copies views, not the data behind them.
#pragma once

#include <onnximport/data_type.hpp>
#include <onnximport/list.hpp>
#include <onnximport/value_index.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport {

namespace detail {
struct Storage;
}

struct StringStringEntry {
    std::string_view key;
    std::string_view value;
};

struct OperatorSetId {
    std::string_view domain;
    int64_t version = 0;
};

// ---- Out-of-line fields --------------------------------------------------------------
//
// Fields that real models rarely set (doc strings, metadata, overloads, denotations, a
// string attribute's value, ...) live in a separate arena block that a message points to,
// allocated only when one of them is read: a 200,000-node graph then holds 200,000 nodes
// of 128 bytes, not of 168. Their accessors return an empty value when the block is absent.

// ---- Types (TypeProto) --------------------------------------------------------------

/// 16 bytes: a graph of 200,000 values with two dimensions each holds 400,000 of them.
struct Dimension {
    enum class Kind : uint8_t { Unknown, Value, Param };

    Kind kind() const noexcept { return kind_; }  ///< neither dim_value nor dim_param: unknown
    /// dim_value; 0 unless kind() is Value.
    int64_t value() const noexcept { return kind_ == Kind::Value ? value_ : 0; }
    /// dim_param; empty unless kind() is Param.
    std::string_view param() const noexcept {
        return kind_ == Kind::Param ? std::string_view(param_data_, param_size_) : std::string_view();
    }

    void set_value(int64_t v) noexcept {
        value_ = v;
        kind_ = Kind::Value;
    }
    void set_param(std::string_view p) noexcept {
        param_data_ = p.data();
        param_size_ = static_cast<uint32_t>(p.size());  // a model's strings are < 2^31 bytes
        kind_ = Kind::Param;
    }

private:
    // The two are a oneof, so they share 8 bytes: 16 bytes a dimension, not 24 (a graph
    // with value_info has one or more per value).
    union {
        int64_t value_ = 0;
        const char* param_data_;
    };
    uint32_t param_size_ = 0;
    Kind kind_ = Kind::Unknown;
};

/// TypeProto's rarely set fields.
struct TypeFields {
    std::string_view opaque_domain;
    std::string_view opaque_name;
    std::string_view denotation;
    List<std::string_view> dim_denotations;  ///< by dimension index; may be shorter than shape
};

struct TypeProto {
    /// Which member of the value oneof is set; None is "no type".
    enum class Kind : uint8_t { None, Tensor, Sequence, Map, Optional, SparseTensor, Opaque };
    Kind kind = Kind::None;
    bool has_shape = false; ///< Tensor and SparseTensor: false means unknown rank
    int32_t elem_type = 0;  ///< Tensor and SparseTensor: element type; Map: key_type
    List<Dimension> shape;
    /// Sequence and Optional: elem_type; Map: value_type. Null when absent.
    const TypeProto* elem = nullptr;
    TypeFields* fields = nullptr;

    std::string_view opaque_domain() const noexcept { return fields ? fields->opaque_domain : std::string_view(); }
    std::string_view opaque_name() const noexcept { return fields ? fields->opaque_name : std::string_view(); }
    std::string_view denotation() const noexcept { return fields ? fields->denotation : std::string_view(); }
    /// The denotation of shape[i].
    std::string_view dim_denotation(size_t i) const noexcept {
        return fields && i < fields->dim_denotations.size() ? fields->dim_denotations[i] : std::string_view();
    }
};

/// ValueInfoProto's and NodeProto's rarely set fields.
struct DocFields {
    std::string_view doc_string;
    std::string_view overload;  ///< NodeProto only
    List<StringStringEntry> metadata_props;
};

struct ValueInfo {
    std::string_view name;
    TypeProto type;
    uint64_t offset = 0;  ///< of the message in the input
    DocFields* fields = nullptr;

    std::string_view doc_string() const noexcept { return fields ? fields->doc_string : std::string_view(); }
    const List<StringStringEntry>& metadata_props() const noexcept {
        return fields ? fields->metadata_props : List<StringStringEntry>::none();
    }
};

// ---- Tensors ------------------------------------------------------------------------

/// Where a tensor's bytes came from (spec section 3, "Where the values come from").
enum class TensorSource : uint8_t {
    None,      ///< no elements and no source: zero bytes
    Raw,       ///< raw_data, a view into the model's storage
    Typed,     ///< a typed field, converted into a small owned array
    External,  ///< data_location = EXTERNAL, a view into the external file's mapping
    Strings,   ///< string_data (element type STRING); bytes() is empty
};

class TensorView {
public:
    std::string_view name;
    std::string_view doc_string;
    int32_t data_type = 0;
    TensorSource source = TensorSource::None;
    int32_t data_location = 0;                  ///< 0 DEFAULT, 1 EXTERNAL
    List<int64_t> dims;
    uint64_t element_count = 0;
    List<StringStringEntry> external_data;      ///< as written
    List<StringStringEntry> metadata_props;
    List<std::string_view> strings;             ///< STRING tensors: one entry per element
    uint64_t offset = 0;                        ///< of the TensorProto in the input
    std::string_view field_path;                ///< set for external tensors only

    /// Length in bytes of the raw layout: ceil(element_count * bits / 8).
    uint64_t byte_size() const noexcept { return size_; }
    /// The raw-layout bytes, little-endian. Empty for external tensors not loaded.
    /// @throws ImportError(Io) after Model::close().
    std::span<const std::byte> bytes() const;
    /// Copies the bytes out: the only step that allocates a tensor's bytes.
    std::vector<std::byte> to_tensor() const;
    /// True when the bytes are available (false for external tensors not loaded).
    bool has_bytes() const noexcept { return data_ != nullptr || size_ == 0; }

    // Set by the importer.
    void set_bytes(const std::byte* data, uint64_t size, const detail::Storage* storage) noexcept {
        data_ = data;
        size_ = size;
        storage_ = storage;
    }
    void set_expected_size(uint64_t size, const detail::Storage* storage) noexcept {
        data_ = nullptr;
        size_ = size;
        storage_ = storage;
    }

private:
    const std::byte* data_ = nullptr;
    uint64_t size_ = 0;
    const detail::Storage* storage_ = nullptr;
};

struct SparseTensor {
    TensorView values;
    TensorView indices;
    List<int64_t> dims;
    uint64_t offset = 0;
};

// ---- Graphs, nodes, attributes ------------------------------------------------------

struct Graph;

/// AttributeProto.AttributeType codes.
enum class AttributeType : uint8_t {
    Undefined = 0, Float = 1, Int = 2, String = 3, Tensor = 4, Graph = 5, Floats = 6, Ints = 7,
    Strings = 8, Tensors = 9, Graphs = 10, SparseTensor = 11, SparseTensors = 12, TypeProto = 13,
    TypeProtos = 14,
};

/// The fields of an AttributeProto beyond its name, int and float. Most attributes of
/// real models carry one int or float, so these live out of line: an Attribute is 40
/// bytes, and this block is allocated only for an attribute that has one of them.
struct AttributeFields {
    std::string_view s;  ///< bytes, not decoded
    std::string_view doc_string;
    std::string_view ref_attr_name;  ///< function bodies: a reference, no value
    TensorView* t = nullptr;
    Graph* g = nullptr;
    SparseTensor* sparse_tensor = nullptr;
    TypeProto* tp = nullptr;
    List<float> floats;
    List<int64_t> ints;
    List<std::string_view> strings;
    List<TensorView> tensors;
    List<Graph> graphs;
    List<SparseTensor> sparse_tensors;
    List<TypeProto> type_protos;
};

/// Unlike the other messages, an attribute records no offset: a graph has several per
/// node (800,000 in the 200,000-node bench model), 8 bytes each. Errors found in one carry
/// their offset (ImportError); the node's offset locates it afterwards.
struct Attribute {
    std::string_view name;
    int64_t i = 0;
    float f = 0;
    AttributeType type = AttributeType::Undefined;  ///< declared, or inferred (spec section 2)
    bool type_declared = false;
    /// Null when the attribute has none of the fields of AttributeFields.
    AttributeFields* fields = nullptr;

    // The out-of-line fields, empty (or null) when absent.
    std::string_view s() const noexcept { return fields ? fields->s : std::string_view(); }
    std::string_view doc_string() const noexcept { return fields ? fields->doc_string : std::string_view(); }
    std::string_view ref_attr_name() const noexcept { return fields ? fields->ref_attr_name : std::string_view(); }
    TensorView* t() const noexcept { return fields ? fields->t : nullptr; }
    Graph* g() const noexcept { return fields ? fields->g : nullptr; }
    SparseTensor* sparse_tensor() const noexcept { return fields ? fields->sparse_tensor : nullptr; }
    TypeProto* tp() const noexcept { return fields ? fields->tp : nullptr; }
    const List<float>& floats() const noexcept { return fields ? fields->floats : List<float>::none(); }
    const List<int64_t>& ints() const noexcept { return fields ? fields->ints : List<int64_t>::none(); }
    const List<std::string_view>& strings() const noexcept { return fields ? fields->strings : List<std::string_view>::none(); }
    const List<TensorView>& tensors() const noexcept { return fields ? fields->tensors : List<TensorView>::none(); }
    List<Graph>& graphs() const noexcept { return fields ? fields->graphs : List<Graph>::none(); }
    const List<SparseTensor>& sparse_tensors() const noexcept { return fields ? fields->sparse_tensors : List<SparseTensor>::none(); }
    const List<TypeProto>& type_protos() const noexcept { return fields ? fields->type_protos : List<TypeProto>::none(); }
};

/// Two cache lines: what resolution reads and writes of every node is in the first, so its
/// walks over a large graph's nodes load one line per node, not two or three.
struct alignas(64) Node {
    List<std::string_view> inputs;
    List<std::string_view> outputs;
    std::string_view domain;

    // Resolution (spec section 4).
    int64_t opset_version = 0;  ///< version imported for the node's domain
    uint32_t file_index = 0;    ///< position in the file; nodes are kept in resolved order

    /// An attribute holds a graph (type GRAPH with g, or GRAPHS): set by the reader, so that
    /// resolution looks at the attributes of these nodes only.
    bool has_subgraphs = false;

    std::string_view name;
    std::string_view op_type;
    List<Attribute> attributes;
    uint64_t offset = 0;
    DocFields* fields = nullptr;

    std::string_view overload() const noexcept { return fields ? fields->overload : std::string_view(); }
    std::string_view doc_string() const noexcept { return fields ? fields->doc_string : std::string_view(); }
    const List<StringStringEntry>& metadata_props() const noexcept {
        return fields ? fields->metadata_props : List<StringStringEntry>::none();
    }
};

/// A value of a graph after resolution: one cache line (resolution visits a large graph's
/// values several times, each visit one load).
struct alignas(64) Value {
    enum class Source : uint8_t { Input, Initializer, SparseInitializer, NodeOutput };
    std::string_view name;
    const TypeProto* type = nullptr;             ///< from declarations, then value_info
    const TensorView* initializer = nullptr;     ///< dense initializer (or an input's default)
    const SparseTensor* sparse_initializer = nullptr;
    int32_t producer = -1;                       ///< node index (resolved order) for NodeOutput
    Source source = Source::Input;
    List<uint32_t> consumers;                    ///< node indices in resolved order, each once
};

using ValueIndex = NameIndex<Value>;

struct Graph {
    std::string_view name;
    std::string_view doc_string;
    List<Node> nodes;  ///< file order as read; resolved order after resolution
    List<TensorView> initializers;
    List<SparseTensor> sparse_initializers;
    List<ValueInfo> inputs;
    List<ValueInfo> outputs;
    List<ValueInfo> value_info;
    List<StringStringEntry> metadata_props;
    uint64_t offset = 0;
    /// The inputs and outputs of all nodes, counted by the reader as it reads each node:
    /// resolution sizes its tables with them instead of walking the nodes once more.
    uint32_t node_input_count = 0;
    uint32_t node_output_count = 0;

    // Resolution (spec section 4).
    bool resolved = false;
    bool nodes_were_reordered = false;
    List<Value> values;
    ValueIndex value_index;  ///< name -> index into values
    List<std::string_view> captures;  ///< outer values read here or by own subgraphs

    const Value* find_value(std::string_view value_name) const {
        uint32_t i = value_index.find(value_name);
        return i == ValueIndex::npos ? nullptr : &values[i];
    }
};

struct Function {
    std::string_view name;
    std::string_view domain;
    std::string_view overload;
    List<std::string_view> inputs;
    List<std::string_view> outputs;
    List<std::string_view> attributes;    ///< attribute names without defaults
    List<Attribute> attribute_protos;     ///< attributes with default values
    List<Node> nodes;                     ///< body, as written, not resolved
    List<OperatorSetId> opset_import;
    List<ValueInfo> value_info;
    std::string_view doc_string;
    List<StringStringEntry> metadata_props;
    uint64_t offset = 0;
};

struct TrainingInfo {
    Graph* initialization = nullptr;
    Graph* algorithm = nullptr;
    List<StringStringEntry> initialization_binding;
    List<StringStringEntry> update_binding;
};

// ---- The model ----------------------------------------------------------------------

class Model {
public:
    Model();
    ~Model();
    /// Moves the storage with its views. A moved-from Model may only be assigned to or
    /// destroyed: its fields still point into the storage it gave away.
    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;

    bool has_ir_version = false;
    int64_t ir_version = 0;
    List<OperatorSetId> opset_import;
    std::string_view producer_name;
    std::string_view producer_version;
    std::string_view domain;
    int64_t model_version = 0;
    std::string_view doc_string;
    Graph* graph = nullptr;  ///< in the arena; null only for a model refused before reading it
    List<StringStringEntry> metadata_props;
    List<TrainingInfo> training_info;
    List<Function> functions;

    /// The name given to the import (file path or caller's name).
    const std::string& source_name() const noexcept;
    /// Size of the model input in bytes.
    uint64_t input_size() const noexcept;
    /// True when the model file is memory-mapped.
    bool is_mapped() const noexcept;

    /// Releases the tensor data: external-data mappings and converted arrays are freed and
    /// the model file's resident pages dropped; reading tensor bytes afterwards throws.
    /// Names and other strings stay valid (they view the model input, kept until the
    /// Model is destroyed).
    void close() noexcept;
    bool is_closed() const noexcept;

    detail::Storage& storage() noexcept { return *storage_; }

private:
    std::unique_ptr<detail::Storage> storage_;
};

}  // namespace onnximport
