// fuzz_model: bytes -> import_bytes with resolution and external data (spec sections
// 1-7), then a walk of the whole graph and every tensor view.
//
// Oracle (beyond the sanitizers). On every input:
//  - a refusal is an ImportError with a kind, the input's name and an offset inside
//    the input;
//  - an accepted model walks end to end: every tensor view reads exactly the byte
//    length the spec derives from its element type and dims, string tensors hold one
//    entry per element, attributes declared as tensor/graph/... have that field,
//    resolution's tables (value index, producers, consumers, file order) agree;
//  - after Model::close() tensor bytes throw ImportError(Io).
// On the inputs fuzz_share.hpp picks (a fixed share, by a hash of the bytes), also:
//  - the dump is deterministic: dumping twice, and dumping a second import of the same
//    bytes with two threads, give identical text;
//  - refusing the same bytes again, with two threads, gives the same kind, offset and path.
// Anything else escaping the importer (std::bad_alloc, std::out_of_range, ...) is a bug
// and reaches libFuzzer as an uncaught exception.
#include "fuzz_common.hpp"
#include "fuzz_share.hpp"

#include <span>

namespace {
constexpr std::string_view name = "fuzz_model";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    const std::span<const uint8_t> bytes(data, size);
    const bool expensive = gets_expensive_checks(bytes);
    ImportOptions options;
    std::optional<ImportError> first_error;
    try {
        Model m = import_bytes(bytes, name, options);
        Walker w;
        w.model(m);
        if (expensive) {
            const std::string dump = dump_of(m);
            GAUNTLET_CHECK(dump_of(m) == dump, "dumping the same model twice differs");
            Model again = import_bytes(bytes, name, with_two_threads(options));
            GAUNTLET_CHECK(dump_of(again) == dump, "dumps of two imports of the same bytes differ");
        }
        m.close();
        GAUNTLET_CHECK(m.is_closed(), "close");
        check_closed(m);
        return 0;
    } catch (const ImportError& e) {
        check_error(e, name, size);
        first_error = e;
    }
    if (!expensive) return 0;
    check_refused_again(bytes, name, options, *first_error);
    return 0;
}
