// The checks every fuzz target shares: a broken invariant calls fuzz_fail(),
// which aborts: libFuzzer records the input as a crash and the replay driver reports it,
// exactly as for a sanitizer finding. Each refusal carries a kind and an offset inside the
// input (spec section 7). Needs only the public error type: fuzz_wire, which tests the wire
// reader alone, includes this and wire/ and core/, nothing else of the importer.
#pragma once

#include <onnximport/error.hpp>

#include "refusal_text.hpp"

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

using gauntlet::has_control_byte;
using gauntlet::path_problem;

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

/// What every refusal says, the readers' and the writers' alike: a message without control
/// bytes (input bytes are quoted escaped: importer/src/core/text.hpp) and a well-formed path
/// (path_problem).
inline void check_text(const onnximport::ImportError& e) {
    GAUNTLET_CHECK(!e.message().empty(), describe(e));
    GAUNTLET_CHECK(!has_control_byte(e.message()), describe(e));
    if (const char* problem = path_problem(e.field_path())) fuzz_fail(problem, describe(e));
}

/// Every refusal of an input in memory: a known kind, the caller's name, an offset inside
/// [0, size] (size itself for "cut off at the end"), and check_text. Io only when the model
/// names files (`io_possible`: a location may name a folder or a loop of links); bytes in
/// memory are read without it.
inline void check_error(const onnximport::ImportError& e, std::string_view name, uint64_t size,
                        bool io_possible = false) {
    using onnximport::ErrorKind;
    const auto k = e.kind();
    GAUNTLET_CHECK(k == ErrorKind::Malformed || k == ErrorKind::InvalidModel || k == ErrorKind::Unsupported ||
                       k == ErrorKind::ExternalData || (io_possible && k == ErrorKind::Io),
                   describe(e));
    GAUNTLET_CHECK(e.source_name() == name, describe(e));
    GAUNTLET_CHECK(e.offset().has_value(), describe(e));
    GAUNTLET_CHECK(*e.offset() <= size, describe(e) + " (input has " + std::to_string(size) + " bytes)");
    check_text(e);
}

}  // namespace gauntlet_fuzz
