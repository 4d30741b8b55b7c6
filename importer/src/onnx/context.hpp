// The state of one parse (spec sections 1-3): where refusals come from (the input and the
// field path), the nesting depth, and the Model storage that what is read goes into.
#pragma once

#include "core/refusal.hpp"
#include "io/passed_pages.hpp"
#include "model/access.hpp"
#include "model/storage.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

struct Context : Refusal {
    Context(Storage& s, const uint8_t* base, int max_nesting, std::string_view root_message)
        : Refusal(s.source_name, base, root_message), storage(s), arena(s.arena), node_edges(s.node_edges),
          max_nesting(max_nesting), passed_pages(s.input) {}

    Storage& storage;
    Arena& arena;       ///< the Model's objects
    Arena& node_edges;  ///< nodes' inputs and outputs (Storage::node_edges)
    int max_nesting;  ///< the nesting depth is the field path's (read_message)
    PassedPages passed_pages;  ///< large raw_data payloads behind the reader

    /// Whether `levels` messages, one inside the other, entered from here stay within the
    /// nesting limit: what a fast path checks before it reads them without entering them
    /// (read_message refuses the first one too deep).
    bool may_nest(size_t levels) const noexcept { return path.size() + levels - 1 <= static_cast<size_t>(max_nesting); }

    /// Copies a string made by the importer (not a view of the input) into the arena.
    std::string_view keep(std::string_view s) { return arena.copy(s); }
};

}  // namespace onnximport::detail
