// Invariants of an imported model shared by the fuzz targets: an imported
// model can be walked end to end, every tensor view reads inside its storage with the
// length the spec gives it (sections 3 and 6); resolution's tables are consistent
// (section 4); the dump of a model is deterministic; close() makes tensor bytes
// unreadable (section 6). The checks themselves: fuzz_check.hpp.
#pragma once

#include "fuzz_check.hpp"
#include "model/access.hpp"
#include "model/visit.hpp"

#include <onnximport/dump.hpp>
#include <onnximport/error.hpp>
#include <onnximport/import.hpp>
#include <onnximport/model.hpp>

#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

namespace gauntlet_fuzz {

/// The options of a second import that must give the same model or the same refusal:
/// with two threads, so that the parallel payload work (lowered to every input in fuzz
/// builds, io/payloads.hpp) is fuzzed against the one-thread import.
inline onnximport::ImportOptions with_two_threads(onnximport::ImportOptions o = {}) {
    o.threads = 2;
    return o;
}

/// A refusal must not depend on the threads: the same bytes imported with two threads are
/// refused with the same kind, offset and field path as `first`.
inline void check_refused_again(std::span<const uint8_t> bytes, std::string_view name,
                                const onnximport::ImportOptions& options, const onnximport::ImportError& first) {
    try {
        (void)onnximport::import_bytes(bytes, name, with_two_threads(options));
    } catch (const onnximport::ImportError& e) {
        GAUNTLET_CHECK(e.kind() == first.kind() && e.offset() == first.offset() && e.field_path() == first.field_path(),
                       describe(e) + " vs " + describe(first));
        return;
    }
    fuzz_fail("the same bytes were refused once and accepted once", describe(first));
}

/// ceil(count * bits / 8) computed as whole bytes plus a remainder, independent of the
/// importer's own arithmetic (count <= 2^60 and bits <= 128 cannot overflow this way
/// for the sizes an accepted tensor can have).
inline uint64_t reference_byte_size(uint64_t count, int32_t data_type) {
    const uint64_t bits = onnximport::bits_per_element(data_type);
    return (count / 8) * bits + ((count % 8) * bits + 7) / 8;
}

/// Reads every byte of a tensor view (so ASan checks the whole span) and checks that
/// its length is the one the spec derives from element type and dims.
inline uint64_t walk_tensor(const onnximport::TensorView& t) {
    using onnximport::TensorSource;
    if (t.data_type == 0 && t.dims.empty() && t.source == TensorSource::None) return 0;  // absent field
    uint64_t count = 1;
    for (int64_t d : t.dims) {
        GAUNTLET_CHECK(d >= 0, std::string(t.name));
        count *= static_cast<uint64_t>(d);  // bounded by 2^60 once accepted
    }
    GAUNTLET_CHECK(count == t.element_count, std::string(t.name));
    GAUNTLET_CHECK(t.byte_size() <= 0x7FFFFFFFu, std::string(t.name));
    if (t.source == TensorSource::Strings) {
        GAUNTLET_CHECK(t.strings.size() == t.element_count, std::string(t.name));
        GAUNTLET_CHECK(t.bytes().empty(), std::string(t.name));
        uint64_t h = 0;
        for (auto s : t.strings)
            for (char ch : s) h = h * 31 + static_cast<uint8_t>(ch);
        return h;
    }
    GAUNTLET_CHECK(t.byte_size() == reference_byte_size(t.element_count, t.data_type),
                   std::string(t.name) + " byte_size " + std::to_string(t.byte_size()));
    if (!t.has_bytes()) {
        GAUNTLET_CHECK(t.source == TensorSource::External, std::string(t.name));
        return 0;
    }
    auto b = t.bytes();
    GAUNTLET_CHECK(b.size() == t.byte_size(), std::string(t.name));
    uint64_t h = 0;
    for (std::byte x : b) h = h * 31 + static_cast<uint8_t>(x);
    return h;
}

struct Walker {
    uint64_t hash = 0;
    int depth = 0;

    void type(const onnximport::TypeProto& t) {
        using K = onnximport::TypeProto::Kind;
        if (t.kind == K::Tensor || t.kind == K::SparseTensor) {
            GAUNTLET_CHECK(t.has_shape || t.shape.empty(), "shape without has_shape");
        }
        hash += t.shape.size() + static_cast<uint64_t>(t.elem_type);
        if (t.elem) type(*t.elem);
    }

    void attribute(const onnximport::Attribute& a) {
        using T = onnximport::AttributeType;
        if (a.ref_attr_name().empty()) {
            GAUNTLET_CHECK(a.type != T::Undefined, std::string(a.name));
            if (a.type == T::Tensor) GAUNTLET_CHECK(a.t() != nullptr, std::string(a.name));
            if (a.type == T::Graph) GAUNTLET_CHECK(a.g() != nullptr, std::string(a.name));
            if (a.type == T::SparseTensor) GAUNTLET_CHECK(a.sparse_tensor() != nullptr, std::string(a.name));
            if (a.type == T::TypeProto) GAUNTLET_CHECK(a.tp() != nullptr, std::string(a.name));
        }
        if (a.t()) hash += walk_tensor(*a.t());
        if (a.g()) graph(*a.g());
        if (a.sparse_tensor()) sparse(*a.sparse_tensor());
        if (a.tp()) type(*a.tp());
        for (auto& t : a.tensors()) hash += walk_tensor(t);
        for (auto& g : a.graphs()) graph(g);
        for (auto& s : a.sparse_tensors()) sparse(s);
        for (auto& t : a.type_protos()) type(t);
        hash += a.floats().size() + a.ints().size() + a.strings().size();
    }

    void sparse(const onnximport::SparseTensor& s) {
        hash += walk_tensor(s.values);
        hash += walk_tensor(s.indices);
    }

    void node(const onnximport::Node& n) {
        for (auto& a : n.attributes) attribute(a);
        hash += n.inputs.size() * 3 + n.outputs.size();
    }

    /// Resolution's tables (spec section 4), checked only when the graph says it was resolved.
    void resolved(const onnximport::Graph& g) {
        const size_t n = g.nodes.size();
        std::vector<bool> seen(n, false);
        for (auto& node : g.nodes) {
            GAUNTLET_CHECK(node.file_index < n, "node file_index out of range");
            GAUNTLET_CHECK(!seen[node.file_index], "node file_index repeated");
            seen[node.file_index] = true;
        }
        bool in_file_order = true;
        for (size_t i = 0; i < n; ++i) in_file_order &= g.nodes[i].file_index == i;
        GAUNTLET_CHECK(in_file_order != g.nodes_were_reordered, "nodes_were_reordered disagrees with the order");
        for (size_t i = 0; i < g.values.size(); ++i) {
            const auto& v = g.values[i];
            GAUNTLET_CHECK(!v.name.empty(), "value without a name");
            GAUNTLET_CHECK(g.find_value(v.name) == &v, std::string(v.name));
            if (v.source == onnximport::Value::Source::NodeOutput)
                GAUNTLET_CHECK(v.producer >= 0 && static_cast<size_t>(v.producer) < n, std::string(v.name));
            for (size_t k = 0; k < v.consumers.size(); ++k) {
                GAUNTLET_CHECK(v.consumers[k] < n, std::string(v.name));
                if (k) GAUNTLET_CHECK(v.consumers[k - 1] < v.consumers[k], "consumers not sorted or repeated");
                if (v.source == onnximport::Value::Source::NodeOutput)
                    GAUNTLET_CHECK(static_cast<int64_t>(v.consumers[k]) > v.producer,
                                   "a consumer precedes its producer in resolved order");
            }
            if (v.type) type(*v.type);
            if (v.initializer) hash += v.initializer->byte_size();
        }
    }

    void graph(const onnximport::Graph& g) {
        // The importer refuses messages beyond max_nesting: the walk cannot go deeper.
        GAUNTLET_CHECK(++depth <= 250, "graph nesting beyond any nesting limit");
        for (auto& n : g.nodes) node(n);
        for (auto& t : g.initializers) hash += walk_tensor(t);
        for (auto& s : g.sparse_initializers) sparse(s);
        for (auto* list : {&g.inputs, &g.outputs, &g.value_info})
            for (auto& v : *list) type(v.type);
        if (g.resolved) resolved(g);
        --depth;
    }

    void model(const onnximport::Model& m) {
        if (m.graph()) graph(*m.graph());
        for (auto& t : m.proto().training_info) {
            if (t.initialization()) graph(*t.initialization());
            if (t.algorithm()) graph(*t.algorithm());
        }
        for (auto& f : m.proto().functions) {
            for (auto& n : f.nodes) node(n);
            for (auto& a : f.attribute_protos) attribute(a);
        }
    }
};

inline std::string dump_of(const onnximport::Model& m) {
    std::ostringstream out;
    onnximport::write_dump(m, out);
    return out.str();
}

/// After close(), every tensor with bytes refuses to be read, with kind Io (section 6):
/// every tensor of the model (the importer's own visitor, model/visit.hpp).
inline void check_closed(onnximport::Model& m) {
    auto check = [](const onnximport::TensorView& t) {
        if (t.byte_size() == 0 || !t.has_bytes()) return;
        try {
            (void)t.bytes();
        } catch (const onnximport::ImportError& e) {
            GAUNTLET_CHECK(e.kind() == onnximport::ErrorKind::Io, describe(e));
            return;
        }
        fuzz_fail("tensor bytes readable after Model::close()", std::string(t.name));
    };
    if (m.graph())
        onnximport::detail::visit_model(onnximport::detail::ModelAccess::proto(m), [](onnximport::Graph&) {}, check);
}

}  // namespace gauntlet_fuzz
