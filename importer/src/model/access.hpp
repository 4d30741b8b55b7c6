// How the importer writes what users only read (model.hpp): the one friend of the public
// message types. The readers of both formats build a Model through it.
#pragma once

#include "model/storage.hpp"
#include "model/value_index.hpp"

#include <onnximport/model.hpp>

#include <memory>
#include <string_view>
#include <type_traits>

namespace onnximport::detail {

struct ModelAccess {
    static Model make(std::unique_ptr<Storage> storage) noexcept {
        Model m;
        m.storage_ = std::move(storage);
        return m;
    }
    static Storage& storage(Model& m) noexcept { return *m.storage_; }
    /// Null for a model that holds nothing (default-constructed).
    static const Storage* storage_of(const Model& m) noexcept { return m.storage_.get(); }
    static ModelProto& proto(Model& m) noexcept { return m.storage_->proto; }

    /// A message's out-of-line block (null until the first rare field).
    template <class Message>
    static auto*& fields(Message& m) noexcept {
        return m.fields_;
    }
    /// The block, allocated in `arena` at the first rare field.
    template <class Message>
    static auto& fields_in(Arena& arena, Message& m) {
        using Fields = std::remove_pointer_t<decltype(m.fields_)>;
        if (!m.fields_) m.fields_ = arena.make<Fields>();
        return *m.fields_;
    }

    static bool& has_subgraphs(Node& n) noexcept { return n.has_subgraphs_; }
    /// Whether an attribute holds subgraphs, which its node then records (has_subgraphs).
    static bool holds_subgraphs(const Attribute& a) noexcept {
        return (a.type == AttributeType::Graph && a.g()) || a.type == AttributeType::Graphs;
    }
    static bool has_subgraphs(const Node& n) noexcept { return n.has_subgraphs_; }
    static uint32_t& node_input_count(Graph& g) noexcept { return g.node_input_count_; }
    static uint32_t& node_output_count(Graph& g) noexcept { return g.node_output_count_; }
    static uint32_t node_input_count(const Graph& g) noexcept { return g.node_input_count_; }
    static uint32_t node_output_count(const Graph& g) noexcept { return g.node_output_count_; }
    static const ValueIndex*& value_index(Graph& g) noexcept { return g.value_index_; }
    static const ValueIndex* value_index(const Graph& g) noexcept { return g.value_index_; }
    static Graph*& graph(ModelProto& m) noexcept { return m.graph_; }
    static Graph*& initialization(TrainingInfo& t) noexcept { return t.initialization_; }
    static Graph*& algorithm(TrainingInfo& t) noexcept { return t.algorithm_; }

    static void set_value(Dimension& d, int64_t v) noexcept {
        d.value_ = v;
        d.kind_ = Dimension::Kind::Value;
    }
    static void set_param(Dimension& d, std::string_view p) noexcept {
        d.param_data_ = p.data();
        d.param_size_ = static_cast<uint32_t>(p.size());  // a model's strings are < 2^31 bytes
        d.kind_ = Dimension::Kind::Param;
    }

    /// The tensor's bytes are [data, data + size), owned by `storage`.
    static void bind(TensorView& t, const std::byte* data, uint64_t size, const Storage& storage) noexcept {
        t.data_ = data;
        t.size_ = size;
        t.storage_ = &storage;
    }
    /// An external tensor before loading: its expected size, and where refusals name it.
    static void expect(TensorView& t, uint64_t size, const Storage& storage, std::string_view path) noexcept {
        bind(t, nullptr, size, storage);
        t.field_path_ = path;
    }
    static std::string_view field_path(const TensorView& t) noexcept { return t.field_path_; }

    // Copies member by member, for the .ort walk's copies of shared tables: GCC 12 copies
    // these 40-byte structs there with `rep movsl`, which takes longer to start than the copy
    // takes (docs/performance-history.md, ".ort copies"). The size checks make a new member visible.
    static void copy(const Attribute& from, Attribute& to) noexcept {
        static_assert(sizeof(Attribute) == 40, "a new Attribute member must be copied here");
        to.name = from.name;
        to.i = from.i;
        to.f = from.f;
        to.type = from.type;
        to.type_declared = from.type_declared;
        to.fields_ = from.fields_;
    }
    static void copy(const TypeProto& from, TypeProto& to) noexcept {
        static_assert(sizeof(TypeProto) == 40, "a new TypeProto member must be copied here");
        to.kind = from.kind;
        to.has_shape = from.has_shape;
        to.elem_type = from.elem_type;
        to.shape = from.shape;
        to.elem = from.elem;
        to.fields_ = from.fields_;
    }
};

}  // namespace onnximport::detail
