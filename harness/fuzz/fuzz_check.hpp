// The checks every fuzz target shares: a broken invariant calls fuzz_fail(),
// which aborts: libFuzzer records the input as a crash and the replay driver reports it,
// exactly as for a sanitizer finding. Each refusal carries a kind and an offset inside the
// input (spec section 7). Needs only the public error type: fuzz_wire, which tests the wire
// reader alone, includes this and wire/ and core/, nothing else of the importer.
#pragma once

#include <onnximport/error.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

// The harness's own reading of an input, kept out of libFuzzer's coverage feedback: its
// branches say nothing about the importer, and counted they would grow the corpus with inputs
// that are new only to the harness. (GCC builds only replay: nothing to keep out there.)
#if defined(__clang__)
#define GAUNTLET_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define GAUNTLET_NO_COVERAGE
#endif

namespace gauntlet_fuzz {

[[noreturn]] inline void fuzz_fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
    std::abort();
}

#define GAUNTLET_CHECK(cond, detail)                           \
    do {                                                        \
        if (!(cond)) ::gauntlet_fuzz::fuzz_fail(#cond, detail); \
    } while (0)

inline std::string describe(const onnximport::ImportError& e) {
    std::string s(onnximport::to_string(e.kind()));
    s += " at ";
    s += e.offset() ? std::to_string(*e.offset()) : std::string("-");
    s += " ";
    s += e.field_path();
    s += ": ";
    s += e.message();
    return s;
}

/// Whether a field path names an entry twice in a row ("graph.inputs[0].inputs[0]"): no entry
/// of a repeated field of either schema holds a field of the same name, so the entry was pushed
/// twice. A field's name may repeat: .ort's MapType.value_type is a TypeInfo, whose union's tag
/// is its field value_type.
inline bool names_an_entry_twice(std::string_view path) {
    std::string_view before;
    while (!path.empty()) {
        const size_t dot = path.find('.');
        const std::string_view step = path.substr(0, dot);
        if (step == before && step.find('[') != std::string_view::npos) return true;
        before = step;
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return false;
}

/// Every refusal of an in-memory input: a known kind, the caller's name, an offset
/// inside [0, size] (size itself for "cut off at the end"), a message, a path that names
/// each entry once. Io cannot happen for bytes that are already in memory.
inline void check_error(const onnximport::ImportError& e, std::string_view name, uint64_t size) {
    using onnximport::ErrorKind;
    const auto k = e.kind();
    GAUNTLET_CHECK(k == ErrorKind::Malformed || k == ErrorKind::InvalidModel || k == ErrorKind::Unsupported ||
                       k == ErrorKind::ExternalData,
                   describe(e));
    GAUNTLET_CHECK(e.source_name() == name, describe(e));
    GAUNTLET_CHECK(e.offset().has_value(), describe(e));
    GAUNTLET_CHECK(*e.offset() <= size, describe(e) + " (input has " + std::to_string(size) + " bytes)");
    GAUNTLET_CHECK(!e.message().empty(), describe(e));
    GAUNTLET_CHECK(!names_an_entry_twice(e.field_path()), describe(e));
}

}  // namespace gauntlet_fuzz
