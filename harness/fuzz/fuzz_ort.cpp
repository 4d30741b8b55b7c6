// fuzz_ort: bytes -> import_bytes of a .ort buffer, then a walk of the whole
// graph and every tensor view, with fuzz_model's invariants.
//
// Oracle (beyond the sanitizers):
//  - differential against FlatBuffers' generated Verifier with ONNX Runtime's defaults:
//    our verification, which drops pages on its way through the main graph's initializers,
//    decides exactly as the Verifier; a buffer carrying ORTM that the Verifier refuses we
//    refuse as Malformed, unless it reads as a .onnx (docs/ort.md, "Recognition");
//  - a refusal is an ImportError with a kind and an offset inside the input; refusing
//    the same bytes again gives the same kind, offset and path;
//  - an accepted model walks end to end (tensor views of the spec's length, string
//    tensors of one entry per element, resolution's tables consistent) and dumps
//    deterministically, across two imports of the same bytes (the second on two threads);
//  - after Model::close() tensor bytes throw ImportError(Io).
// The structure-aware mutator is ort_mutator.cpp; seeds are .ort files ONNX Runtime wrote.
#include "fuzz_common.hpp"

#include "ort/reader.hpp"

#include <ort_generated.h>

#include <cstring>
#include <span>

namespace {
constexpr std::string_view name = "fuzz_ort";

bool verifier_accepts(const uint8_t* data, size_t size) {
    flatbuffers::Verifier verifier(data, size);  // ONNX Runtime's defaults
    return onnximport::ortfb::VerifyInferenceSessionBuffer(verifier);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    const std::span<const uint8_t> bytes(data, size);
    const bool ort = size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0;
    const bool verifies = ort && verifier_accepts(data, size);
    if (ort) {
        const auto input = detail::ModelInput::borrow(bytes, std::string(name));
        GAUNTLET_CHECK(detail::ort_buffer_verifies(input, ImportOptions{}) == verifies,
                       "our verification of the buffer and FlatBuffers' Verifier disagree");
    }
    std::optional<ImportError> first_error;
    try {
        Model m = import_bytes(bytes, name);
        Walker w;
        w.model(m);
        const std::string dump = dump_of(m);
        Model again = import_bytes(bytes, name, with_two_threads());
        GAUNTLET_CHECK(dump_of(again) == dump, "dumps of two imports of the same bytes differ");
        m.close();
        check_closed(m);
        return 0;
    } catch (const ImportError& e) {
        check_error(e, name, size);
        if (ort && !verifies)
            GAUNTLET_CHECK(e.kind() == ErrorKind::Malformed,
                           "a buffer the Verifier refuses is not Malformed: " + describe(e));
        first_error = e;
    }
    try {
        (void)import_bytes(bytes, name, with_two_threads());
    } catch (const ImportError& e) {
        GAUNTLET_CHECK(e.kind() == first_error->kind() && e.offset() == first_error->offset() &&
                           e.field_path() == first_error->field_path(),
                       describe(e) + " vs " + describe(*first_error));
        return 0;
    }
    fuzz_fail("the same bytes were refused once and accepted once", describe(*first_error));
}
