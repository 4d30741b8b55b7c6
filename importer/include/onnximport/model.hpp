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
// A moved-from Model is empty: it owns nothing and hands out an empty ModelProto.
//
// Every message type is trivially copyable and destructible (they live in the arena; see
// list.hpp): copying one copies views, not the data behind them. Users read them through
// const references; the importer writes them through detail::ModelAccess.
#pragma once

#include <onnximport/data_type.hpp>
#include <onnximport/list.hpp>

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
struct ModelAccess;  ///< how the importer writes what users only read
class ValueIndex;    ///< a resolved graph's name -> value table
}  // namespace detail

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
// string attribute's value, ...) live in a separate block, allocated only when one of them
// is read (docs/performance.md); their accessors return an empty value when it is absent.

// ---- Types (TypeProto) --------------------------------------------------------------

/// One dimension of a shape: a value, a parameter name, or unknown.
struct Dimension {
    enum class Kind : uint8_t { Unknown, Value, Param };

    Kind kind() const noexcept { return kind_; }  ///< neither dim_value nor dim_param: unknown
    /// dim_value; 0 unless kind() is Value.
    int64_t value() const noexcept { return kind_ == Kind::Value ? value_ : 0; }
    /// dim_param; empty unless kind() is Param.
    std::string_view param() const noexcept {
        return kind_ == Kind::Param ? std::string_view(param_data_, param_size_) : std::string_view();
    }

private:
    friend struct detail::ModelAccess;
    // The two are a oneof, so they share 8 bytes.
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

    std::string_view opaque_domain() const noexcept { return fields_ ? fields_->opaque_domain : std::string_view(); }
    std::string_view opaque_name() const noexcept { return fields_ ? fields_->opaque_name : std::string_view(); }
    std::string_view denotation() const noexcept { return fields_ ? fields_->denotation : std::string_view(); }
    /// The denotation of shape[i].
    std::string_view dim_denotation(size_t i) const noexcept {
        return fields_ && i < fields_->dim_denotations.size() ? fields_->dim_denotations[i] : std::string_view();
    }

private:
    friend struct detail::ModelAccess;
    TypeFields* fields_ = nullptr;
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

    std::string_view doc_string() const noexcept { return fields_ ? fields_->doc_string : std::string_view(); }
    const List<StringStringEntry>& metadata_props() const noexcept {
        return fields_ ? fields_->metadata_props : List<StringStringEntry>::none();
    }

private:
    friend struct detail::ModelAccess;
    DocFields* fields_ = nullptr;
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

    /// Length in bytes of the raw layout: ceil(element_count * bits / 8).
    uint64_t byte_size() const noexcept { return size_; }
    /// The raw-layout bytes, little-endian. Empty for external tensors not loaded.
    /// @throws ImportError(Io) after Model::close().
    std::span<const std::byte> bytes() const;
    /// Copies the bytes out: the only step that allocates a tensor's bytes.
    std::vector<std::byte> to_tensor() const;
    /// True when the bytes are available (false for external tensors not loaded).
    bool has_bytes() const noexcept { return data_ != nullptr || size_ == 0; }

private:
    friend struct detail::ModelAccess;
    const std::byte* data_ = nullptr;
    uint64_t size_ = 0;
    const detail::Storage* storage_ = nullptr;
    std::string_view field_path_;  ///< external tensors: where the loader reports from
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

/// The fields of an AttributeProto beyond its name, int and float: most attributes of real
/// models carry one int or float, so these live out of line.
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

/// Unlike the other messages, an attribute records no offset (a graph has several per
/// node): errors found in one carry their offset; the node's offset locates it afterwards.
struct Attribute {
    std::string_view name;
    int64_t i = 0;
    float f = 0;
    AttributeType type = AttributeType::Undefined;  ///< declared, or inferred (spec section 2)
    bool type_declared = false;

    // The out-of-line fields, empty (or null) when absent.
    std::string_view s() const noexcept { return fields_ ? fields_->s : std::string_view(); }
    std::string_view doc_string() const noexcept { return fields_ ? fields_->doc_string : std::string_view(); }
    std::string_view ref_attr_name() const noexcept { return fields_ ? fields_->ref_attr_name : std::string_view(); }
    const TensorView* t() const noexcept { return fields_ ? fields_->t : nullptr; }
    const Graph* g() const noexcept { return fields_ ? fields_->g : nullptr; }
    const SparseTensor* sparse_tensor() const noexcept { return fields_ ? fields_->sparse_tensor : nullptr; }
    const TypeProto* tp() const noexcept { return fields_ ? fields_->tp : nullptr; }
    const List<float>& floats() const noexcept { return fields_ ? fields_->floats : List<float>::none(); }
    const List<int64_t>& ints() const noexcept { return fields_ ? fields_->ints : List<int64_t>::none(); }
    const List<std::string_view>& strings() const noexcept {
        return fields_ ? fields_->strings : List<std::string_view>::none();
    }
    const List<TensorView>& tensors() const noexcept { return fields_ ? fields_->tensors : List<TensorView>::none(); }
    const List<Graph>& graphs() const noexcept { return fields_ ? fields_->graphs : List<Graph>::none(); }
    const List<SparseTensor>& sparse_tensors() const noexcept {
        return fields_ ? fields_->sparse_tensors : List<SparseTensor>::none();
    }
    const List<TypeProto>& type_protos() const noexcept {
        return fields_ ? fields_->type_protos : List<TypeProto>::none();
    }

private:
    friend struct detail::ModelAccess;
    AttributeFields* fields_ = nullptr;  ///< null when the attribute has none of them
};

/// Two cache lines: what resolution reads and writes of every node is in the first.
struct alignas(64) Node {
    List<std::string_view> inputs;
    List<std::string_view> outputs;
    std::string_view domain;

    // Resolution (spec section 4).
    int64_t opset_version = 0;  ///< version imported for the node's domain
    uint32_t file_index = 0;    ///< position in the file; nodes are kept in resolved order

private:
    friend struct detail::ModelAccess;
    /// An attribute holds a graph: resolution looks at the attributes of these nodes only.
    bool has_subgraphs_ = false;

public:
    std::string_view name;
    std::string_view op_type;
    List<Attribute> attributes;
    uint64_t offset = 0;

    std::string_view overload() const noexcept { return fields_ ? fields_->overload : std::string_view(); }
    std::string_view doc_string() const noexcept { return fields_ ? fields_->doc_string : std::string_view(); }
    const List<StringStringEntry>& metadata_props() const noexcept {
        return fields_ ? fields_->metadata_props : List<StringStringEntry>::none();
    }

private:
    DocFields* fields_ = nullptr;
};

/// A value of a graph after resolution: one cache line.
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

    // Resolution (spec section 4).
    bool resolved = false;
    bool nodes_were_reordered = false;
    List<Value> values;
    List<std::string_view> captures;  ///< outer values read here or by own subgraphs

    /// The value of this graph named `value_name` (not of enclosing graphs), or null.
    const Value* find_value(std::string_view value_name) const noexcept;

private:
    friend struct detail::ModelAccess;
    /// The inputs and outputs of all nodes, counted as read: resolution sizes its tables.
    uint32_t node_input_count_ = 0;
    uint32_t node_output_count_ = 0;
    const detail::ValueIndex* value_index_ = nullptr;
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
    const Graph* initialization() const noexcept { return initialization_; }  ///< null when absent
    const Graph* algorithm() const noexcept { return algorithm_; }            ///< null when absent
    List<StringStringEntry> initialization_binding;
    List<StringStringEntry> update_binding;

private:
    friend struct detail::ModelAccess;
    Graph* initialization_ = nullptr;
    Graph* algorithm_ = nullptr;
};

// ---- The model ----------------------------------------------------------------------

/// ModelProto's fields as read.
struct ModelProto {
    bool has_ir_version = false;
    int64_t ir_version = 0;
    List<OperatorSetId> opset_import;
    std::string_view producer_name;
    std::string_view producer_version;
    std::string_view domain;
    int64_t model_version = 0;
    std::string_view doc_string;
    List<StringStringEntry> metadata_props;
    List<TrainingInfo> training_info;
    List<Function> functions;

    const Graph* graph() const noexcept { return graph_; }  ///< null only in an empty Model

private:
    friend struct detail::ModelAccess;
    Graph* graph_ = nullptr;
};

/// An imported model: owns its storage; everything it hands out is a const view into it.
class Model {
public:
    /// An empty model (no graph), as a moved-from one is.
    Model() noexcept;
    ~Model();
    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;

    /// The model's messages; an empty ModelProto for an empty (or moved-from) Model.
    const ModelProto& proto() const noexcept;
    /// The main graph, resolved unless ImportOptions::resolve was off; null when empty.
    const Graph* graph() const noexcept { return proto().graph(); }

    /// The name given to the import (file path or caller's name).
    std::string_view source_name() const noexcept;
    /// Size of the model input in bytes.
    uint64_t input_size() const noexcept;
    /// True when the model file is memory-mapped.
    bool is_mapped() const noexcept;

    /// Releases the tensor data: external-data mappings and converted arrays are freed (those
    /// of 64 bytes or less live with the model's other objects until it is destroyed) and
    /// the model file's resident pages dropped; reading tensor bytes afterwards throws.
    /// Names and other strings stay valid (they view the model input, kept until the
    /// Model is destroyed).
    void close() noexcept;
    bool is_closed() const noexcept;

private:
    friend struct detail::ModelAccess;
    std::unique_ptr<detail::Storage> storage_;
};

}  // namespace onnximport
