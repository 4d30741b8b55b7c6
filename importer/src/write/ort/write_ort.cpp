// The .ort writer's entry points (onnximport/write_ort.hpp): assemble, fill, hand out.
#include "write/ort/assembly.hpp"

#include <stdexcept>

namespace onnximport {

namespace {

void check_model(const Model& model) {
    if (!model.graph()) throw std::invalid_argument("write_ort: the model is empty");
    if (!model.graph()->resolved) throw std::invalid_argument("write_ort: the model was imported without resolution");
}

}  // namespace

std::vector<uint8_t> write_ort_bytes(const Model& model, const OrtWriteOptions& options) {
    check_model(model);
    if (options.external) throw std::invalid_argument("write_ort_bytes: external mode needs a file (write_ort_file)");
    detail::OrtAssembly a(options, model.source_name());
    detail::put_session(a, model.proto());
    detail::fill_inline(a.inline_fills, a.fbb.GetBufferPointer(), a.fbb.GetSize(), options.threads);
    return std::vector<uint8_t>(a.fbb.GetBufferPointer(), a.fbb.GetBufferPointer() + a.fbb.GetSize());
}

}  // namespace onnximport
