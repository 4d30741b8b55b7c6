// Hostile cases for spec section 3 (tensors): element type codes, negative dims, the
// 2^60 element count and its 64-bit wrap, the 2^31-1 byte limit for every bit width,
// the order of sources and their mixing, typed-field conversion (with the expected raw
// bytes computed here, independently of the importer), strings, segments, raw lengths
// (sub-byte payloads included) and sparse tensors imported as written.
#include "build.hpp"
#include "rules.hpp"

#include <onnximport/data_type.hpp>

namespace hostile {

namespace r = rules;

namespace {

std::string init(const WireWriter& t) { return model_with_initializer(t); }

json sha(std::string_view name, const std::string& bytes) {
    return {{"tensor_sha256", {{std::string(name), sha256_hex(bytes)}}}};
}

std::string bytes_of(std::initializer_list<int> v) {
    std::string s;
    for (int b : v) s += static_cast<char>(b);
    return s;
}

/// int32_data entries, each written as protobuf writes an int32 (negatives sign-extended).
WireWriter int32s(WireWriter t, std::initializer_list<int64_t> v) {
    for (int64_t x : v) t.int_field(p::Tensor::int32_data, static_cast<uint64_t>(x));
    return t;
}

uint64_t p2(int n) { return uint64_t{1} << n; }

std::string with_sparse(const WireWriter& s) {
    WireWriter g = base_graph();
    g.message(p::Graph::sparse_initializer, s);
    return ob::model(g).str();
}

}  // namespace

void add_tensor_cases(Corpus& c) {
    // Element type codes.
    c.refuse("InvalidModel", "data-type-missing", r::elem_code, "a tensor without data_type",
             init(WireWriter()
                      .int_field(p::Tensor::dims, 1)
                      .bytes_field(p::Tensor::name, "T")
                      .bytes_field(p::Tensor::raw_data, "abcd")));
    c.refuse("InvalidModel", "data-type-zero", r::elem_code, "data_type 0 (UNDEFINED)",
             init(ob::tensor_raw("T", 0, {1}, "abcd")));
    c.refuse("Unsupported", "data-type-29", r::elem_code, "data_type 29: one past the last known code",
             init(ob::tensor_raw("T", 29, {1}, "abcd")));
    c.refuse("Unsupported", "data-type-negative", r::elem_code, "data_type -1",
             init(ob::tensor_raw("T", -1, {1}, "abcd")));
    c.refuse("Unsupported", "data-type-int32-max", r::elem_code, "data_type 2^31-1",
             init(ob::tensor_raw("T", 0x7FFFFFFF, {1}, "abcd")));
    c.accept(
        "every-element-type", r::byte_len,
        "one initializer per element type 1..28 (not 8) with its exact raw length for 3 elements",
        [] {
            WireWriter g = base_graph();
            for (int code = 1; code <= 28; ++code) {
                if (code == 8) continue;
                g.message(p::Graph::initializer,
                          ob::tensor_raw("t" + std::to_string(code), code, {3},
                                         pattern((3 * onnximport::bits_per_element(code) + 7) / 8, code)));
            }
            return ob::model(g).str();
        }(),
        [] {
            json sizes;
            for (int code = 1; code <= 28; ++code)
                if (code != 8) sizes["t" + std::to_string(code)] = (3 * onnximport::bits_per_element(code) + 7) / 8;
            return json{{"tensor_bytes", sizes}};
        }());

    // Dimensions and the element count.
    c.refuse("InvalidModel", "dims-negative", r::dims_neg, "dims [-1]", init(ob::tensor_raw("T", 1, {-1}, "")));
    c.refuse("InvalidModel", "dims-negative-after-zero", r::dims_neg,
             "dims [0, -1]: a zero dim does not excuse a negative one", init(ob::tensor_raw("T", 1, {0, -1}, "")));
    c.refuse("InvalidModel", "dims-int64-min", r::dims_neg, "dims [-2^63]",
             init(ob::tensor_raw("T", 1, {static_cast<int64_t>(p2(63))}, "")));
    c.refuse("Unsupported", "count-2pow60", r::count,
             "dims [2^30, 2^30] of UINT2: exactly 2^60 elements passes the count, then needs 2^58 bytes",
             init(tensor_head("T", 25, {1 << 30, 1 << 30})));
    c.refuse("InvalidModel", "count-2pow60-plus-1", r::count, "dims [2^60+1]: one element over the count limit",
             init(tensor_head("T", 25, {static_cast<int64_t>(p2(60) + 1)})));
    c.refuse(
        "InvalidModel", "count-product-wraps-to-zero", r::count,
        "dims [2^32, 2^32]: the product wraps to 0 in 64 bits; an importer that multiplies first sees an empty tensor",
        init(tensor_head("T", 1, {static_cast<int64_t>(p2(32)), static_cast<int64_t>(p2(32))})));
    c.refuse("InvalidModel", "count-product-wraps-to-small", r::count,
             "dims [2^62+1, 4]: the product wraps to 4",
             init(ob::tensor_raw("T", 1, {static_cast<int64_t>(p2(62) + 1), 4}, std::string(16, 'a'))));
    c.refuse("InvalidModel", "count-int64-max-squared", r::count, "dims [2^63-1, 2^63-1]",
             init(tensor_head("T", 1, {INT64_MAX, INT64_MAX})));
    c.accept("count-zero-with-huge-dims", r::count,
             "dims [2^62, 2^62, 0]: the product is 0, so no limit is exceeded and no data is needed",
             init(tensor_head("T", 1, {static_cast<int64_t>(p2(62)), static_cast<int64_t>(p2(62)), 0})),
             {{"tensor_bytes", {{"T", 0}}}});
    c.accept("count-zero-first-with-huge-dims", r::count, "dims [0, 2^62, 2^62]",
             init(tensor_head("T", 1, {0, static_cast<int64_t>(p2(62)), static_cast<int64_t>(p2(62))})),
             {{"tensor_bytes", {{"T", 0}}}});

    // The 2^31-1 byte limit, both sides, for each bit width. Below the limit the tensor has
    // no data (InvalidModel: proves the limit passed); at the limit it is Unsupported.
    struct Limit { const char* name; int code; int64_t below; int64_t at; };
    const Limit limits[] = {
        {"uint8", 2, 0x7FFFFFFF, 0x80000000LL},
        {"float", 1, (1LL << 29) - 1, 1LL << 29},
        {"complex128", 15, (1LL << 27) - 1, 1LL << 27},
        {"uint4", 21, (1LL << 32) - 2, (1LL << 32) - 1},
        {"int2", 26, (1LL << 33) - 4, (1LL << 33) - 3},
        {"float6e2m3", 27, 2863311529LL, 2863311530LL},
    };
    for (const auto& l : limits) {
        c.refuse("InvalidModel", std::string("bytes-2gib-minus-1-") + l.name, r::no_source,
                 std::string(l.name) + " dims [" + std::to_string(l.below) +
                     "] need at most 2^31-1 bytes: allowed, but there is no data",
                 init(tensor_head("T", l.code, {l.below})));
        c.refuse("Unsupported", std::string("bytes-2gib-") + l.name, r::too_big,
                 std::string(l.name) + " dims [" + std::to_string(l.at) + "] need 2^31 bytes or more",
                 init(tensor_head("T", l.code, {l.at})));
    }
    c.refuse("Unsupported", "bytes-huge-decided-before-data", r::too_big,
             "uint8 [2^31] with a 1-byte raw_data: Unsupported (from dims), not a raw length error",
             init(ob::tensor_raw("T", 2, {static_cast<int64_t>(p2(31))}, "a")));
    c.refuse("Unsupported", "bytes-huge-dims-no-data", r::too_big, "float [2^20, 2^20] with no data: never allocated",
             init(tensor_head("T", 1, {1 << 20, 1 << 20})));
    c.refuse("Unsupported", "bytes-huge-in-attribute", r::too_big, "a Constant's value tensor of float [2^40]",
             model_with_attributes({ob::attr_tensor("value", tensor_head("v", 1, {static_cast<int64_t>(p2(40))}))},
                                   "Constant"));

    // Sources.
    c.refuse("InvalidModel", "mix-raw-and-float-data", r::mixing, "raw_data and float_data on one float tensor",
             init(ob::tensor_raw("T", 1, {1}, floats_le({1})).float_field(p::Tensor::float_data, 1)));
    c.refuse("InvalidModel", "mix-raw-and-int32-data", r::mixing, "int8 with raw_data and int32_data",
             init(int32s(ob::tensor_raw("T", 3, {1}, "a"), {1})));
    c.refuse("InvalidModel", "mix-external-and-raw", r::mixing, "data_location EXTERNAL with raw_data too",
             init(ob::tensor_raw("T", 1, {1}, floats_le({1}))
                      .message(p::Tensor::external_data, ob::string_entry("location", "data.bin"))
                      .int_field(p::Tensor::data_location, 1)));
    c.refuse("InvalidModel", "mix-external-and-float-data", r::mixing, "data_location EXTERNAL with float_data too",
             init(tensor_head("T", 1, {1})
                      .float_field(p::Tensor::float_data, 1)
                      .message(p::Tensor::external_data, ob::string_entry("location", "data.bin"))
                      .int_field(p::Tensor::data_location, 1)));
    c.refuse("InvalidModel", "no-source-with-elements", r::no_source, "float [2] with no data",
             init(tensor_head("T", 1, {2})));
    c.refuse("InvalidModel", "no-source-scalar", r::no_source, "a scalar (no dims) has one element and needs data",
             init(tensor_head("T", 1, {})));
    c.accept("no-source-zero-elements", r::no_source, "float [0] with no data: zero bytes, accepted",
             init(tensor_head("T", 1, {0})), {{"tensor_bytes", {{"T", 0}}}});
    c.refuse("InvalidModel", "data-location-2", r::location_code, "data_location 2 is neither DEFAULT nor EXTERNAL",
             init(ob::tensor_raw("T", 1, {1}, floats_le({1})).int_field(p::Tensor::data_location, 2)));
    c.refuse("InvalidModel", "data-location-negative", r::location_code, "data_location -1",
             init(ob::tensor_raw("T", 1, {1}, floats_le({1})).int_field(p::Tensor::data_location, ~uint64_t{0})));
    c.accept("data-location-default-explicit", r::source_order, "data_location 0 written explicitly: raw_data is used",
             init(ob::tensor_raw("T", 1, {1}, floats_le({7})).int_field(p::Tensor::data_location, 0)),
             sha("T", floats_le({7})));

    // Typed fields, converted; expected bytes written out by hand.
    c.accept("typed-float", r::float_double_int64, "float_data for float [3]",
             init(tensor_head("T", 1, {3}).bytes_field(p::Tensor::float_data, floats_le({1, -2, 3.5f}))),
             sha("T", floats_le({1, -2, 3.5f})));
    c.accept("typed-complex64", r::float_double_int64, "float_data for complex64 [2]: two entries per element",
             init(tensor_head("T", 14, {2}).bytes_field(p::Tensor::float_data, floats_le({1, 2, 3, 4}))),
             sha("T", floats_le({1, 2, 3, 4})));
    c.accept("typed-double", r::float_double_int64, "double_data for double [1]: 8 bytes",
             init(tensor_head("T", 11, {1}).fixed64_field(p::Tensor::double_data, 0x400921FB54442D18ull)),
             sha("T", bytes_of({0x18, 0x2d, 0x44, 0x54, 0xfb, 0x21, 0x09, 0x40})));
    c.accept("typed-complex128", r::float_double_int64, "double_data for complex128 [1]: two entries",
             init(tensor_head("T", 15, {1})
                      .fixed64_field(p::Tensor::double_data, 1)
                      .fixed64_field(p::Tensor::double_data, 2)),
             sha("T", bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})));
    c.accept("typed-int64", r::float_double_int64, "int64_data -1 and 2^40",
             init(tensor_head("T", 7, {2})
                      .int_field(p::Tensor::int64_data, ~uint64_t{0})
                      .int_field(p::Tensor::int64_data, p2(40))),
             sha("T", bytes_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1, 0, 0})));
    c.accept("typed-uint64", r::uint64_data, "uint64_data 2^64-1 for uint64",
             init(tensor_head("T", 13, {1}).int_field(p::Tensor::uint64_data, ~uint64_t{0})),
             sha("T", std::string(8, '\xff')));
    c.accept("typed-uint32-low-32-bits", r::uint64_data, "uint64_data 2^32+5 and 7 for uint32: 5 and 7",
             init(tensor_head("T", 12, {2})
                      .int_field(p::Tensor::uint64_data, p2(32) + 5)
                      .int_field(p::Tensor::uint64_data, 7)),
             sha("T", bytes_of({5, 0, 0, 0, 7, 0, 0, 0})));
    c.accept("typed-int32", r::int32_data, "int32_data -5 (sign-extended varint) and 7",
             init(int32s(tensor_head("T", 6, {2}), {-5, 7})), sha("T", bytes_of({0xfb, 0xff, 0xff, 0xff, 7, 0, 0, 0})));
    c.accept("typed-int16-low-16-bits", r::int32_data, "int32_data 0x12345 and -1 for int16: 0x2345 and 0xffff",
             init(int32s(tensor_head("T", 5, {2}), {0x12345, -1})), sha("T", bytes_of({0x45, 0x23, 0xff, 0xff})));
    c.accept(
        "typed-float16-bits", r::int32_data, "int32_data 0x3c00 for float16 (1.0) and 0x13f80 for bfloat16 (1.0)",
        [] {
            WireWriter g = base_graph();
            g.message(p::Graph::initializer, int32s(tensor_head("H", 10, {1}), {0x3c00}));
            g.message(p::Graph::initializer, int32s(tensor_head("B", 16, {1}), {0x13f80}));
            return ob::model(g).str();
        }(),
        {{"tensor_sha256", {{"H", sha256_hex(bytes_of({0x00, 0x3c}))}, {"B", sha256_hex(bytes_of({0x80, 0x3f}))}}}});
    c.accept("typed-int8-low-8-bits", r::int32_data, "int32_data 0x1ff and -128 for int8",
             init(int32s(tensor_head("T", 3, {2}), {0x1ff, -128})), sha("T", bytes_of({0xff, 0x80})));
    c.accept("typed-uint8-low-8-bits", r::int32_data, "int32_data 300 for uint8: 44",
             init(int32s(tensor_head("T", 2, {1}), {300})), sha("T", bytes_of({44})));
    c.accept("typed-bool-nonzero-is-1", r::int32_data, "int32_data 0, 7, -1, 256 for bool: 0 1 1 1 (256 is non-zero)",
             init(int32s(tensor_head("T", 9, {4}), {0, 7, -1, 256})), sha("T", bytes_of({0, 1, 1, 1})));
    c.accept("typed-bool-low-32-bits-zero", r::int32,
             "int32_data 2^32 for bool: the int32 entry is 0 (low 32 bits), so false",
             init(int32s(tensor_head("T", 9, {1}), {static_cast<int64_t>(p2(32))})), sha("T", bytes_of({0})));
    c.accept("typed-float8", r::int32_data, "int32_data 0x1ff and 0x38 for float8e4m3fn",
             init(int32s(tensor_head("T", 17, {2}), {0x1ff, 0x38})), sha("T", bytes_of({0xff, 0x38})));
    c.accept("typed-uint4-packed-bytes", r::int32_packed,
             "uint4 [3] from two entries 0x21 and 0xf03: packed bytes 21 03",
             init(int32s(tensor_head("T", 21, {3}), {0x21, 0xf03})), sha("T", bytes_of({0x21, 0x03})));
    c.accept("typed-int2-packed-bytes", r::int32_packed, "int2 [5] from entries 0xe4 and 0x01",
             init(int32s(tensor_head("T", 26, {5}), {0xe4, 0x01})), sha("T", bytes_of({0xe4, 0x01})));
    c.accept("typed-float6-bit-stream", r::int32_six,
             "float6e2m3 [4] from 0x3f, 0, 0x15, 0xff: elements 63 0 21 63 at bits 0, 6, 12, 18: bytes 3f 50 fd",
             init(int32s(tensor_head("T", 27, {4}), {0x3f, 0, 0x15, 0xff})), sha("T", bytes_of({0x3f, 0x50, 0xfd})));
    c.accept("typed-float6-three-elements", r::int32_six, "float6e3m2 [3]: 18 bits in 3 bytes; 1, 2, 3 -> 81 30 00",
             init(int32s(tensor_head("T", 28, {3}), {1, 2, 3})), sha("T", bytes_of({0x81, 0x30, 0x00})));

    struct NotOwn { const char* name; int code; p::Tensor field; };
    const NotOwn not_own[] = {
        {"int64-data-on-float", 1, p::Tensor::int64_data},   {"float-data-on-int32", 6, p::Tensor::float_data},
        {"double-data-on-float", 1, p::Tensor::double_data}, {"uint64-data-on-int64", 7, p::Tensor::uint64_data},
        {"int32-data-on-uint32", 12, p::Tensor::int32_data}, {"int32-data-on-uint64", 13, p::Tensor::int32_data},
        {"int64-data-on-uint64", 13, p::Tensor::int64_data}, {"int32-data-on-float", 1, p::Tensor::int32_data},
        {"string-data-on-float", 1, p::Tensor::string_data}, {"float-data-on-string", 8, p::Tensor::float_data},
        {"int32-data-on-double", 11, p::Tensor::int32_data},
    };
    for (const auto& k : not_own) {
        WireWriter t = tensor_head("T", k.code, {1});
        if (k.field == p::Tensor::float_data) t.float_field(k.field, 1);
        else if (k.field == p::Tensor::double_data) t.fixed64_field(k.field, 1);
        else if (k.field == p::Tensor::string_data) t.bytes_field(k.field, "x");
        else t.int_field(k.field, 1);
        c.refuse("InvalidModel", std::string("typed-") + k.name, r::not_own, std::string("a tensor with ") + k.name,
                 init(t));
    }
    c.refuse("InvalidModel", "typed-own-and-foreign", r::not_own,
             "float [1] with float_data (its own) and int32_data too",
             init(int32s(tensor_head("T", 1, {1}).float_field(p::Tensor::float_data, 1), {1})));

    c.refuse("InvalidModel", "typed-float-too-many", r::typed_len, "float [2] with 3 float_data entries",
             init(tensor_head("T", 1, {2}).bytes_field(p::Tensor::float_data, floats_le({1, 2, 3}))));
    c.refuse("InvalidModel", "typed-float-too-few", r::typed_len, "float [2] with 1 float_data entry",
             init(tensor_head("T", 1, {2}).float_field(p::Tensor::float_data, 1)));
    c.refuse("InvalidModel", "typed-complex64-half", r::typed_len, "complex64 [1] with one float: half an element",
             init(tensor_head("T", 14, {1}).float_field(p::Tensor::float_data, 1)));
    c.refuse("InvalidModel", "typed-complex128-odd", r::typed_len, "complex128 [1] with 3 doubles",
             init(tensor_head("T", 15, {1})
                      .fixed64_field(p::Tensor::double_data, 1)
                      .fixed64_field(p::Tensor::double_data, 2)
                      .fixed64_field(p::Tensor::double_data, 3)));
    c.refuse("InvalidModel", "typed-uint4-extra-byte", r::typed_len, "uint4 [3] (2 bytes) from 3 entries",
             init(int32s(tensor_head("T", 21, {3}), {1, 2, 3})));
    c.refuse("InvalidModel", "typed-int8-short", r::typed_len, "int8 [2] from 1 entry",
             init(int32s(tensor_head("T", 3, {2}), {1})));
    c.refuse("InvalidModel", "typed-uint32-short", r::typed_len, "uint32 [2] from 1 uint64_data entry",
             init(tensor_head("T", 12, {2}).int_field(p::Tensor::uint64_data, 1)));
    c.refuse("InvalidModel", "typed-float6-too-many", r::typed_len, "float6e2m3 [3] (3 bytes) from 5 entries (4 bytes)",
             init(int32s(tensor_head("T", 27, {3}), {1, 2, 3, 4, 5})));
    c.refuse("InvalidModel", "typed-many-entries-small-dims", r::typed_len,
             "int64 [1] with 100000 int64_data entries: refused from the count, not converted",
             [] {
                 std::vector<uint64_t> v(100000, 1);
                 return init(tensor_head("T", 7, {1}).packed_varint_range(p::Tensor::int64_data, v));
             }());

    // Strings.
    auto strings_tensor = [](std::initializer_list<int64_t> dims, int n) {
        WireWriter t = tensor_head("S", 8, std::vector<int64_t>(dims));
        for (int i = 0; i < n; ++i) t.bytes_field(p::Tensor::string_data, "s" + std::to_string(i));
        return t;
    };
    c.accept("strings-exact-count", r::strings, "string [2] with 2 entries", init(strings_tensor({2}, 2)),
             {{"tensor_strings", {{"S", {"s0", "s1"}}}}});
    c.refuse("InvalidModel", "strings-too-few", r::strings, "string [2] with 1 entry", init(strings_tensor({2}, 1)));
    c.refuse("InvalidModel", "strings-too-many", r::strings, "string [2] with 3 entries", init(strings_tensor({2}, 3)));
    c.refuse("InvalidModel", "strings-none-for-scalar", r::strings, "a string scalar with no entry",
             init(strings_tensor({}, 0)));
    c.refuse("InvalidModel", "strings-in-raw-data", r::strings, "string [1] with raw_data instead of string_data",
             init(ob::tensor_raw("S", 8, {1}, "abc")));
    c.refuse("InvalidModel", "strings-external", r::strings, "a string tensor marked EXTERNAL",
             init(tensor_head("S", 8, {1})
                      .message(p::Tensor::external_data, ob::string_entry("location", "data.bin"))
                      .int_field(p::Tensor::data_location, 1)));
    c.accept("strings-empty-tensor", r::strings, "string [0] with no entries", init(strings_tensor({0}, 0)),
             {{"tensor_dims", {{"S", {0}}}}});

    // Segments.
    c.refuse(
        "Unsupported", "segment", r::segments, "a valid float tensor that also has a segment (begin 0, end 1)",
        init(ob::tensor_raw("T", 1, {1}, floats_le({1}))
                 .message(p::Tensor::segment,
                          WireWriter().int_field(p::TensorSegment::begin, 0).int_field(p::TensorSegment::end, 1))));
    c.refuse("Unsupported", "segment-empty", r::segments, "an empty segment message is still a segment",
             init(ob::tensor_raw("T", 1, {1}, floats_le({1})).message(p::Tensor::segment, WireWriter())));

    // raw_data lengths.
    c.accept("raw-exact", r::raw_len, "float [2] with 8 bytes", init(ob::tensor_raw("T", 1, {2}, pattern(8))),
             sha("T", pattern(8)));
    c.refuse("InvalidModel", "raw-not-multiple-short", r::raw_len, "float [2] with 7 bytes (not a multiple of 4)",
             init(ob::tensor_raw("T", 1, {2}, pattern(7))));
    c.refuse("InvalidModel", "raw-not-multiple-long", r::raw_len, "float [2] with 9 bytes",
             init(ob::tensor_raw("T", 1, {2}, pattern(9))));
    c.refuse("InvalidModel", "raw-one-element-more", r::raw_len, "float [2] with 12 bytes",
             init(ob::tensor_raw("T", 1, {2}, pattern(12))));
    c.refuse("InvalidModel", "raw-empty-with-elements", r::raw_len, "float [2] with an empty raw_data",
             init(ob::tensor_raw("T", 1, {2}, "")));
    c.accept("raw-uint4-odd-count", r::sub_byte, "uint4 [5]: ceil(20/8) = 3 bytes",
             init(ob::tensor_raw("T", 21, {5}, pattern(3))), sha("T", pattern(3)));
    c.refuse("InvalidModel", "raw-uint4-short", r::sub_byte, "uint4 [5] with 2 bytes (4 elements' worth)",
             init(ob::tensor_raw("T", 21, {5}, pattern(2))));
    c.refuse("InvalidModel", "raw-uint4-long", r::sub_byte, "uint4 [5] with 4 bytes",
             init(ob::tensor_raw("T", 21, {5}, pattern(4))));
    c.accept("raw-int2-five", r::sub_byte, "int2 [5]: 2 bytes", init(ob::tensor_raw("T", 26, {5}, pattern(2))),
             sha("T", pattern(2)));
    c.refuse("InvalidModel", "raw-int2-short", r::sub_byte, "int2 [5] with 1 byte",
             init(ob::tensor_raw("T", 26, {5}, pattern(1))));
    c.accept("raw-float6-four", r::sub_byte, "float6e3m2 [4]: 3 bytes", init(ob::tensor_raw("T", 28, {4}, pattern(3))),
             sha("T", pattern(3)));
    c.refuse("InvalidModel", "raw-float6-short", r::sub_byte, "float6e3m2 [4] with 2 bytes",
             init(ob::tensor_raw("T", 28, {4}, pattern(2))));
    c.accept("raw-float4-one", r::sub_byte, "float4e2m1 [1]: 1 byte", init(ob::tensor_raw("T", 23, {1}, pattern(1))),
             sha("T", pattern(1)));
    c.accept("raw-little-endian-as-is", r::little_endian, "int32 [1] raw 01 00 00 00 is kept byte for byte",
             init(ob::tensor_raw("T", 6, {1}, bytes_of({1, 0, 0, 0}))), sha("T", bytes_of({1, 0, 0, 0})));
    c.accept("raw-bool-not-normalised", r::little_endian, "bool [2] raw 02 ff: raw data is taken as written",
             init(ob::tensor_raw("T", 9, {2}, bytes_of({2, 0xff}))), sha("T", bytes_of({2, 0xff})));
    c.accept("raw-wins-over-empty-typed", r::source_order,
             "raw_data with an empty packed float_data field: no float_data entries, raw used",
             init(ob::tensor_raw("T", 1, {1}, floats_le({5})).bytes_field(p::Tensor::float_data, "")),
             sha("T", floats_le({5})));

    // Sparse tensors.
    WireWriter v3 = ob::tensor_raw("sp", 1, {3}, floats_le({1, 2, 3}));
    WireWriter i2 = ob::tensor_raw("", 7, {2}, std::string(16, '\0'));
    c.accept("sparse-indices-values-mismatch", r::sparse,
             "3 values, 2 indices: imported as written, not checked or densified",
             with_sparse(ob::sparse_tensor(v3, i2, {10})),
             {{"sparse_initializers", {{"sp", {{"dims", {10}}, {"values", 3}, {"indices", 2}}}}}});
    c.accept("sparse-indices-out-of-range", r::sparse, "index 2^40 into dense dims [4]: not converted, so not checked",
             with_sparse(ob::sparse_tensor(ob::tensor_raw("sp", 1, {1}, floats_le({1})),
                                ob::tensor_raw("", 7, {1}, bytes_of({0, 0, 0, 0, 0, 1, 0, 0})), {4})),
             {{"sparse_initializers", {{"sp", {{"dims", {4}}, {"values", 1}, {"indices", 1}}}}}});
    c.accept("sparse-dense-dims-huge", r::sparse, "dense dims [2^62, 2^62]: never densified, so never allocated",
             with_sparse(ob::sparse_tensor(ob::tensor_raw("sp", 1, {1}, floats_le({1})),
                                ob::tensor_raw("", 7, {1}, std::string(8, '\0')),
                                {static_cast<int64_t>(p2(62)), static_cast<int64_t>(p2(62))})),
             {{"sparse_initializers",
               {{"sp",
                 {{"dims", {static_cast<int64_t>(p2(62)), static_cast<int64_t>(p2(62))}},
                  {"values", 1},
                  {"indices", 1}}}}}});
    c.accept("sparse-dense-dims-negative", r::sparse, "dense dims [-1]: the spec imports the dense dims as written",
             with_sparse(ob::sparse_tensor(ob::tensor_raw("sp", 1, {1}, floats_le({1})),
                                ob::tensor_raw("", 7, {1}, std::string(8, '\0')), {-1})),
             {{"sparse_initializers", {{"sp", {{"dims", {-1}}, {"values", 1}, {"indices", 1}}}}}});
    c.refuse("InvalidModel", "sparse-values-bad-raw", r::raw_len,
             "the values tensor of a sparse tensor is still a tensor: 5 bytes for float [1]",
             with_sparse(ob::sparse_tensor(ob::tensor_raw("sp", 1, {1}, pattern(5)), i2, {4})));
    c.refuse("Unsupported", "sparse-values-huge", r::too_big, "sparse values float [2^40] without data",
             with_sparse(ob::sparse_tensor(tensor_head("sp", 1, {static_cast<int64_t>(p2(40))}), i2, {4})));
}

}  // namespace hostile
