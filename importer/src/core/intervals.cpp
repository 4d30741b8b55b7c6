// Unions of overlapping byte ranges (intervals.hpp).
#include "core/intervals.hpp"

#include <algorithm>
#include <numeric>

namespace onnximport::detail {

namespace {

/// Indices of the non-empty intervals by key, then start.
std::vector<size_t> by_place(std::span<const Interval> in) {
    std::vector<size_t> order;
    order.reserve(in.size());
    for (size_t i = 0; i < in.size(); ++i)
        if (in[i].begin < in[i].end) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return in[a].key != in[b].key ? in[a].key < in[b].key : in[a].begin < in[b].begin;
    });
    return order;
}

}  // namespace

Unions union_of(std::span<const Interval> in) {
    Unions u;
    u.span_of.assign(in.size(), SIZE_MAX);
    std::vector<Interval> spans;
    std::vector<size_t> first;  // per span: its lowest interval index
    for (size_t i : by_place(in)) {
        const Interval& v = in[i];
        if (spans.empty() || spans.back().key != v.key || v.begin >= spans.back().end) {
            spans.push_back(v);
            first.push_back(i);
        } else {
            spans.back().end = std::max(spans.back().end, v.end);
            first.back() = std::min(first.back(), i);
        }
        u.span_of[i] = spans.size() - 1;
    }
    // Renumber the spans in the order of their first interval.
    std::vector<size_t> order(spans.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return first[a] < first[b]; });
    std::vector<size_t> rank(spans.size());
    u.spans.reserve(spans.size());
    for (size_t r = 0; r < order.size(); ++r) {
        rank[order[r]] = r;
        u.spans.push_back(spans[order[r]]);
    }
    for (size_t& s : u.span_of)
        if (s != SIZE_MAX) s = rank[s];
    return u;
}

}  // namespace onnximport::detail
