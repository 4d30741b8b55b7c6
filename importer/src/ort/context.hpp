// The state of one .ort walk: where refusals come from (the field path in the schema's
// names, from InferenceSession), the checked reads of the buffer (ort/buffer.hpp), and the
// Model storage the walk fills through ModelAccess.
#pragma once

#include "core/refusal.hpp"
#include "core/scratch.hpp"
#include "model/access.hpp"
#include "model/storage.hpp"
#include "ort/buffer.hpp"
#include "ort/schema.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// The walk's work may reach this many times the buffer's size, plus a floor for tiny
/// buffers (rule O15). Files ONNX Runtime writes use less than 3 (docs/ort.md, "One walk that
/// checks where it reads").
inline constexpr uint64_t ort_budget_factor = 16;
inline constexpr uint64_t ort_budget_floor = uint64_t{1} << 20;

/// Scalar attributes read before, by table offset and depth: a file that shares attribute
/// tables (docs/ort.md, "Shared tables") has each read once; a later reference copies it.
struct ReadAttributes {
    struct Entry {
        uint32_t at = 0;  ///< the Attribute table; 0: empty
        int depth = 0;
        uint64_t work = 0;  ///< charged again on a copy (rule O15)
        Attribute value;
    };
    static constexpr uint32_t slots = 8;  // a few nodes' worth: equal attributes are near each other
    Entry entries[slots];
    uint32_t next = 0;  ///< the entry replaced next (round robin)

    /// The entry read from table `at` at `depth`, or null.
    const Entry* find(uint32_t at, int depth) const noexcept {
        for (const Entry& e : entries)
            if (e.at == at && e.depth == depth) return &e;
        return nullptr;
    }
    void add(const Entry& e) noexcept { entries[next++ % slots] = e; }
};

struct OrtContext : Refusal {
    OrtContext(Storage& s, const ImportOptions& o) noexcept
        : Refusal(s.source_name, s.input.data(), "InferenceSession"), storage(s), arena(s.arena),
          node_edges(s.node_edges),
          fb(*this, s.input.data(), static_cast<uint32_t>(s.input.size()), o.ort_check_alignment,
             ort_budget_factor * s.input.size() + ort_budget_floor),
          max_depth(o.max_nesting), scratch(0, s.pool) {}

    Storage& storage;
    Arena& arena;       ///< the Model's objects
    Arena& node_edges;  ///< nodes' inputs and outputs (Storage::node_edges)
    FbReader fb;
    int depth = 0;  ///< tables entered on the walk's path
    int max_depth;
    Scratch scratch;  ///< the walk's name and node tables (core/scratch.hpp)
    ReadAttributes read_attributes;

    uint64_t offset_of_object(const FbTable& t) const noexcept { return t.at; }
    /// A buffer that is well formed but not a valid model.
    [[noreturn]] void invalid(const uint8_t* at, const std::string& message, std::string_view leaf = {}) const {
        fail(ErrorKind::InvalidModel, at, message, leaf);
    }
    [[noreturn]] void invalid(const FbTable& t, const std::string& message, std::string_view leaf = {}) const {
        fail(ErrorKind::InvalidModel, fb.address(t.at), message, leaf);
    }
    /// Where field `vt` of `t` is (or the table, when the field is absent).
    const uint8_t* at(const FbTable& t, uint16_t vt) const noexcept { return fb.field_address(t, vt); }
};

/// One more table on the walk's path for the lifetime of the scope; refused beyond
/// ImportOptions::max_nesting (rule O18: the walk recurses through subgraphs and types).
class Nested {
public:
    Nested(OrtContext& c, const FbTable& t) : c_(c) {
        if (++c_.depth > c_.max_depth)
            c_.fail(ErrorKind::Unsupported, c_.fb.address(t.at),
                    "tables nested deeper than the limit of " + std::to_string(c_.max_depth) +
                        " (ImportOptions::max_nesting)");
    }
    ~Nested() { --c_.depth; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

private:
    OrtContext& c_;
};

}  // namespace onnximport::detail
