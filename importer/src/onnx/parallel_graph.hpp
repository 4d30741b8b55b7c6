// Reading a large graph on two threads (ImportOptions::parallel_read).
//
// The scan that sizes a graph's lists also finds the first key past the middle of its
// bytes, and how many elements of each repeated field come before it. A helper thread
// reads from that key to the end, placing each element at the index it would have had
// (the lists are sized for all of them first); the importing thread reads up to the key,
// then waits for the helper and counts its elements in.
//
// Refusals come out as from a single thread: the importing thread has read everything
// before the split when it takes the helper's refusal, and a refusal of its own wins (the
// helper is joined and its result dropped).
#pragma once

#include "onnx/fields.hpp"

#include <onnximport/model.hpp>

#include <cstdint>
#include <exception>
#include <thread>

namespace onnximport::detail {

/// Graphs with fewer nodes are read by one thread: the helper's start costs more than
/// the half it would read.
inline constexpr uint32_t min_parallel_nodes = 4096;

class GraphHelper {
public:
    /// Sizes g's lists for every element `counts` found and starts the helper on the
    /// keys from `split` to `end`.
    GraphHelper(const Context& c, Graph& g, const GraphCounts& counts, const uint8_t* split, const uint8_t* end);
    ~GraphHelper();  // joins the helper: a refusal of the importing thread waits for it
    GraphHelper(const GraphHelper&) = delete;
    GraphHelper& operator=(const GraphHelper&) = delete;

    /// Once the importing thread has read up to the split: waits for the helper, rethrows
    /// its refusal, and adds what it read to g.
    void finish(Context& c, Graph& g);

private:
    void read(const uint8_t* split, const uint8_t* end) noexcept;

    GraphCounts counts_;
    Graph tail_;  ///< the helper's part: lists over the rooms left in g's lists
    Context context_;
    std::exception_ptr error_;
    std::thread thread_;  // last: starts once the members above are set
};

}  // namespace onnximport::detail
