// fuzz_tensor: bytes -> one TensorProto read and converted to the raw layout
// (onnximport::import_tensor_bytes; spec section 3).
//
// Oracle (beyond the sanitizers):
//  - a refusal carries a kind and an offset inside the input;
//  - an accepted tensor has non-negative dims whose product is element_count, a byte
//    length of ceil(count * bits / 8) (computed here in 128 bits) of at most 2^31-1,
//    string tensors one string_data entry per element, and raw-data tensors are views
//    into the input itself (spec section 6: no copy);
//  - round trip: the same tensor written back as dims + data_type + raw_data (or
//    string_data) imports to identical bytes, so a typed-field conversion and the raw
//    layout agree.
#include "fuzz_common.hpp"
#include "onnx/tensor_alone.hpp"

#include <onnx_fields.hpp>
#include <wire_writer.hpp>

#include <cstring>
#include <span>

namespace {
constexpr std::string_view name = "fuzz_tensor";

void round_trip(const onnximport::TensorView& t) {
    using namespace onnximport;
    using onnximport::testing::WireWriter;
    WireWriter w;
    for (int64_t d : t.dims) w.int_field(proto::Tensor::dims, static_cast<uint64_t>(d));
    w.int_field(proto::Tensor::data_type, static_cast<uint32_t>(t.data_type));
    if (t.source == TensorSource::Strings) {
        for (auto s : t.strings) w.bytes_field(proto::Tensor::string_data, s);
    } else {
        auto b = t.bytes();
        w.bytes_field(proto::Tensor::raw_data, std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    }
    const std::string& enc = w.str();
    try {
        Model back = onnximport::detail::import_tensor_bytes({reinterpret_cast<const uint8_t*>(enc.data()), enc.size()},
                                                             "round-trip");
        const TensorView& u = back.graph()->initializers.at(0);
        GAUNTLET_CHECK(u.dims == t.dims && u.data_type == t.data_type, "round trip changed dims or type");
        GAUNTLET_CHECK(u.element_count == t.element_count && u.byte_size() == t.byte_size(), "round trip size");
        auto a = t.bytes(), b = u.bytes();
        GAUNTLET_CHECK(a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0),
                       "round trip changed the bytes");
        GAUNTLET_CHECK(u.strings.size() == t.strings.size(), "round trip changed the strings");
        for (size_t i = 0; i < u.strings.size(); ++i) GAUNTLET_CHECK(u.strings[i] == t.strings[i], "string entry");
    } catch (const ImportError& e) {
        gauntlet_fuzz::fuzz_fail("an accepted tensor written back as raw_data is refused", gauntlet_fuzz::describe(e));
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    try {
        Model m = onnximport::detail::import_tensor_bytes({data, size}, name);
        GAUNTLET_CHECK(m.graph() && m.graph()->initializers.size() == 1, "one tensor");
        const TensorView& t = m.graph()->initializers[0];
        GAUNTLET_CHECK(is_known_data_type(t.data_type), std::to_string(t.data_type));
        (void)walk_tensor(t);
        if (t.source == TensorSource::Raw && t.byte_size() > 0) {
            auto b = t.bytes();
            auto* p = reinterpret_cast<const uint8_t*>(b.data());
            GAUNTLET_CHECK(p >= data && static_cast<size_t>(p - data) <= size - b.size(), "raw_data is not a view");
        }
        if (t.source == TensorSource::External) return 0;  // no bytes to compare without the file
        round_trip(t);
    } catch (const ImportError& e) {
        check_error(e, name, size);
    }
    return 0;
}
