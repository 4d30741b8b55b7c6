// Tensor tables (docs/ort.md, "Writing"): name, dims, element type and doc string, then the
// values: strings in string_data; other types as raw_data, reserved uninitialized here and
// filled once the buffer is finished, or, in external mode and from `threshold` bytes on,
// at an aligned offset of the companion file with raw_data absent. Every non-string tensor
// has raw_data (empty when it has no elements), as ONNX Runtime's loader wants.
#include "write/ort/assembly.hpp"

#include <onnximport/data_type.hpp>

namespace onnximport::detail {

void OrtAssembly::check_room(uint64_t more) const {
    const uint64_t now = fbb.GetSize();
    if (more >= max_buffer || now >= max_buffer - more)
        unsupported("the .ort buffer would reach 2 GiB (" + std::to_string(now) + " bytes written, " +
                    std::to_string(more) + " more): a 32-bit offset format holds less; write it in external mode");
}

void check_element_type(OrtAssembly& a, int32_t code, std::string_view leaf) {
    if (code > max_ort_data_type || code < 0)
        a.unsupported("element type " + std::to_string(code) + " has no code in the .ort format (0..20)", leaf);
    if (code >= first_float8_data_type) a.uses_float8 = true;
}

namespace {

/// raw_data (inline) or the companion-file offset (external); 0 offset for "absent".
struct Values {
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> raw;
    int64_t external_offset = -1;
};

Values put_values(OrtAssembly& a, std::span<const std::byte> bytes) {
    Values v;
    if (!a.options.external_data.file.empty() && bytes.size() > a.options.external_data.threshold) {
        const uint64_t from = a.layout.end();
        const uint64_t at = a.layout.reserve(bytes.size());
        a.external_blobs.push_back({from, at, bytes});
        v.external_offset = static_cast<int64_t>(at);
        return v;
    }
    a.check_room(bytes.size() + 8);
    uint8_t* unused = nullptr;
    v.raw = a.fbb.CreateUninitializedVector(bytes.size(), 1, &unused);
    a.inline_fills.push_back({bytes, v.raw.o});
    return v;
}

flatbuffers::Offset<fb::Tensor> finish(
    OrtAssembly& a, std::string_view name, std::string_view doc, int32_t data_type, std::span<const int64_t> dims,
    const Values& v, flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>> strings) {
    // Each child in its own statement: the bytes must not depend on argument evaluation order.
    const auto name_at = a.names.get(name);
    const auto doc_at =
        doc.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(doc.data(), doc.size());
    const auto dims_at = a.fbb.CreateVector(dims.data(), dims.size());
    fb::TensorBuilder t(a.fbb);
    t.add_name(name_at);
    if (!doc.empty()) t.add_doc_string(doc_at);
    t.add_dims(dims_at);
    t.add_data_type(data_type);
    if (!v.raw.IsNull()) t.add_raw_data(v.raw);
    if (!strings.IsNull()) t.add_string_data(strings);
    t.add_external_data_offset(v.external_offset);
    return t.Finish();
}

}  // namespace

StringOffsets put_strings(OrtAssembly& a, std::span<const std::string_view> names) {
    StringOffsets out;
    out.reserve(names.size());
    for (std::string_view s : names) out.push_back(a.names.get(s));
    return out;
}

flatbuffers::Offset<fb::Tensor> put_tensor(OrtAssembly& a, const TensorView& t, std::string_view name) {
    check_element_type(a, t.data_type, "data_type");
    if (t.data_type == 0) a.unsupported("a tensor without an element type cannot be written", "data_type");
    const std::span<const int64_t> dims(t.dims.data(), t.dims.size());
    if (t.data_type == static_cast<int32_t>(DataType::String)) {
        const std::span<const std::string_view> s(t.strings.data(), t.strings.size());
        const StringOffsets items = put_strings(a, s);
        const auto strings = a.fbb.CreateVector(items);
        return finish(a, name, t.doc_string, t.data_type, dims, {}, strings);
    }
    if (!t.has_bytes())
        a.unsupported("the tensor's external data was not loaded (ImportOptions::load_external_data is off)");
    const Values v = put_values(a, t.bytes());
    return finish(a, name, t.doc_string, t.data_type, dims, v, {});
}

flatbuffers::Offset<fb::Tensor> put_owned_tensor(OrtAssembly& a, std::string_view name, int32_t data_type,
                                                 std::span<const int64_t> dims, std::vector<std::byte> bytes) {
    const std::vector<std::byte>& kept = a.owned.emplace_back(std::move(bytes));
    const Values v = put_values(a, kept);
    return finish(a, name, {}, data_type, dims, v, {});
}

flatbuffers::Offset<fb::Tensor> put_string_tensor(OrtAssembly& a, std::string_view name, std::span<const int64_t> dims,
                                                  std::span<const std::string_view> strings) {
    const StringOffsets items = put_strings(a, strings);
    const auto v = a.fbb.CreateVector(items);
    return finish(a, name, {}, static_cast<int32_t>(DataType::String), dims, {}, v);
}

flatbuffers::Offset<fb::SparseTensor> put_sparse(OrtAssembly& a, const SparseTensor& s, std::string_view name) {
    flatbuffers::Offset<fb::Tensor> values, indices;
    {
        PathScope at(a.refusal.path, "values");
        values = put_tensor(a, s.values, name.empty() ? s.values.name : name);
    }
    {
        PathScope at(a.refusal.path, "indices");
        indices = put_tensor(a, s.indices, s.indices.name);
    }
    const auto dims = a.fbb.CreateVector(s.dims.data(), s.dims.size());
    fb::SparseTensorBuilder b(a.fbb);
    b.add_values(values);
    b.add_indices(indices);
    b.add_dims(dims);
    return b.Finish();
}

}  // namespace onnximport::detail
