// Suite `tensors`: TensorProto and SparseTensorProto (spec section 3) — byte lengths of
// every element type 1..28, typed fields converted to the raw layout (with round trips),
// the limits decided from the dims alone, the source order and its refusals.
#include "core_support.hpp"
#include "model/access.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <vector>

using namespace core_test;

namespace {

using T = proto::Tensor;  // TensorProto's field numbers, named by nearly every test here

std::string bytes_str(const TensorView& t) {
    auto b = t.bytes();
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

std::string hex(const std::string& s) {
    static const char* digits = "0123456789ABCDEF";
    std::string out;
    for (unsigned char ch : s) {
        out += digits[ch >> 4];
        out += digits[ch & 15];
        out += ' ';
    }
    return out;
}

/// TensorProto with dims and data_type first (key of the third field at offset 4 when
/// there is one dim below 128 and a type below 128).
WireWriter tensor_head(int32_t type, std::initializer_list<uint64_t> dims) {
    WireWriter t;
    for (uint64_t d : dims) t.int_field(T::dims, d);
    t.int_field(T::data_type, static_cast<uint64_t>(static_cast<int64_t>(type)));
    return t;
}

/// The expected byte length of `count` elements, written out per the spec's table.
uint64_t expected_bytes(int32_t code, uint64_t count) {
    unsigned bits = 0;
    switch (code) {
    case 1: case 6: case 12: bits = 32; break;
    case 2: case 3: case 9: case 17: case 18: case 19: case 20: case 24: bits = 8; break;
    case 4: case 5: case 10: case 16: bits = 16; break;
    case 7: case 13: case 11: case 14: bits = 64; break;
    case 15: bits = 128; break;
    case 21: case 22: case 23: bits = 4; break;
    case 25: case 26: bits = 2; break;
    case 27: case 28: bits = 6; break;
    }
    return (count * bits + 7) / 8;
}

T typed_field(int32_t code) {
    switch (code) {
    case 1: case 14: return T::float_data;
    case 11: case 15: return T::double_data;
    case 7: return T::int64_data;
    case 12: case 13: return T::uint64_data;
    case 8: return T::string_data;
    default: return T::int32_data;
    }
}

std::string le(uint64_t v, unsigned n) {
    std::string s;
    for (unsigned i = 0; i < n; ++i) s += static_cast<char>(v >> (8 * i));
    return s;
}

/// A reference conversion written independently of the importer: the entries of the
/// typed field and the bytes they must become.
struct Typed {
    WireWriter fields;
    std::string expected;
};

Typed typed_entries(int32_t code, uint64_t count) {
    Typed out;
    const T f = typed_field(code);
    const unsigned bits = static_cast<unsigned>(expected_bytes(code, 8));  // bits per element
    if (f == T::float_data) {
        uint64_t n = code == 14 ? 2 * count : count;
        for (uint64_t k = 0; k < n; ++k) {
            float v = 0.5f + static_cast<float>(k) * -1.25f;
            uint32_t u;
            std::memcpy(&u, &v, 4);
            out.fields.fixed32_field(f, u);
            out.expected += le(u, 4);
        }
    } else if (f == T::double_data) {
        uint64_t n = code == 15 ? 2 * count : count;
        for (uint64_t k = 0; k < n; ++k) {
            double v = 1e300 / static_cast<double>(k + 1);
            uint64_t u;
            std::memcpy(&u, &v, 8);
            out.fields.fixed64_field(f, u);
            out.expected += le(u, 8);
        }
    } else if (f == T::int64_data || f == T::uint64_data) {
        for (uint64_t k = 0; k < count; ++k) {
            uint64_t v = (uint64_t{0xFEDCBA98} << 32) + k * 0x01010101u + 7;
            out.fields.int_field(f, v);
            out.expected += le(v, code == 12 ? 4 : 8);  // uint32 keeps the low 32 bits
        }
    } else if (bits == 4 || bits == 2) {
        // One packed byte per entry; the bits above the low byte are dropped.
        uint64_t n = expected_bytes(code, count);
        for (uint64_t k = 0; k < n; ++k) {
            uint64_t v = 0x300 + k * 37;
            out.fields.int_field(f, v);
            out.expected += static_cast<char>(v & 0xFF);
        }
    } else if (bits == 6) {
        std::vector<uint8_t> packed(expected_bytes(code, count), 0);
        for (uint64_t k = 0; k < count; ++k) {
            uint64_t v = 0x40 + k * 13;  // bit 6 set: must be dropped
            out.fields.int_field(f, v);
            uint64_t six = v & 0x3F;
            for (unsigned b = 0; b < 6; ++b)
                if (six >> b & 1) packed[(k * 6 + b) / 8] |= static_cast<uint8_t>(1u << ((k * 6 + b) % 8));
        }
        out.expected.assign(packed.begin(), packed.end());
    } else {
        for (uint64_t k = 0; k < count; ++k) {
            int64_t v = k % 2 ? -static_cast<int64_t>(k) * 1000003 : static_cast<int64_t>(k) * 0x10101 + 0x100;
            out.fields.int_field(f, static_cast<uint64_t>(v));
            if (code == 9) out.expected += static_cast<char>(static_cast<uint32_t>(v) != 0);
            else out.expected += le(static_cast<uint64_t>(v), bits / 8);
        }
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tensors)

// ---- Byte lengths and raw_data --------------------------------------------------------

BOOST_AUTO_TEST_CASE(raw_data_of_every_element_type_has_length_ceil_count_times_bits_over_8) {
    for (int32_t code = 1; code <= 28; ++code) {
        if (code == 8) continue;  // strings have no raw layout
        BOOST_TEST_CONTEXT("element type " << code) {
            const uint64_t n = expected_bytes(code, 5);
            std::string raw;
            for (uint64_t k = 0; k < n; ++k) raw += static_cast<char>(0xA0 + k);
            std::string t = tensor_head(code, {5}).bytes_field(T::raw_data, raw).str();
            auto m = import_tensor(t);
            const TensorView& v = m.graph()->initializers.at(0);
            BOOST_TEST(v.element_count == 5u);
            BOOST_TEST(v.byte_size() == n);
            BOOST_TEST(static_cast<int>(v.source) == static_cast<int>(TensorSource::Raw));
            BOOST_TEST(bytes_str(v) == raw);

            // One byte short and one byte long: refused at raw_data.
            for (std::string wrong : {raw.substr(0, n - 1), raw + "x"}) {
                std::string w = tensor_head(code, {5}).bytes_field(T::raw_data, wrong).str();
                expect_tensor_error(w, ErrorKind::InvalidModel, 4, "TensorProto.raw_data");
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(sub_byte_lengths_round_up) {
    struct Case {
        int32_t code;
        uint64_t count, bytes;
    };
    for (Case c : {Case{21, 1, 1}, Case{21, 3, 2}, Case{22, 4, 2}, Case{23, 7, 4}, Case{25, 1, 1}, Case{26, 5, 2},
                   Case{25, 8, 2}, Case{27, 1, 1}, Case{27, 4, 3}, Case{28, 5, 4}, Case{28, 3, 3}}) {
        BOOST_TEST_CONTEXT("type " << c.code << " count " << c.count) {
            std::string t = tensor_head(c.code, {c.count}).bytes_field(T::raw_data, std::string(c.bytes, '\x5A')).str();
            BOOST_TEST(import_tensor(t).graph()->initializers[0].byte_size() == c.bytes);
        }
    }
}

// ---- Typed fields ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(typed_field_of_every_element_type_round_trips_into_the_raw_layout) {
    for (int32_t code = 1; code <= 28; ++code) {
        if (code == 8) continue;
        for (uint64_t count : {uint64_t{1}, uint64_t{5}, uint64_t{8}}) {
            BOOST_TEST_CONTEXT("element type " << code << ", " << count << " elements") {
                Typed typed = typed_entries(code, count);
                std::string t = tensor_head(code, {count}).raw(typed.fields.str()).str();
                auto m = import_tensor(t);
                const TensorView& v = m.graph()->initializers.at(0);
                BOOST_TEST(static_cast<int>(v.source) == static_cast<int>(TensorSource::Typed));
                BOOST_TEST(v.byte_size() == expected_bytes(code, count));
                BOOST_TEST(hex(bytes_str(v)) == hex(typed.expected));
                // The same bytes given as raw_data import identically.
                std::string r = tensor_head(code, {count}).bytes_field(T::raw_data, typed.expected).str();
                BOOST_TEST(hex(bytes_str(import_tensor(r).graph()->initializers[0])) == hex(typed.expected));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(float_and_complex64_read_float_data) {
    std::string f = tensor_head(1, {2}).float_field(T::float_data, 1.0f).float_field(T::float_data, -2.0f).str();
    BOOST_TEST(hex(bytes_str(import_tensor(f).graph()->initializers[0])) == "00 00 80 3F 00 00 00 C0 ");
    // complex64: two floats per element, packed.
    std::string c = tensor_head(14, {1}).bytes_field(T::float_data, le(0x3F800000u, 4) + le(0x40000000u, 4)).str();
    BOOST_TEST(hex(bytes_str(import_tensor(c).graph()->initializers[0])) == "00 00 80 3F 00 00 00 40 ");
    // complex64 with one float for one element: 4 bytes, 8 expected.
    std::string half = tensor_head(14, {1}).float_field(T::float_data, 1.0f).str();
    expect_tensor_error(half, ErrorKind::InvalidModel, 4, "TensorProto.float_data");
}

BOOST_AUTO_TEST_CASE(double_and_complex128_read_double_data) {
    std::string d = tensor_head(11, {1}).fixed64_field(T::double_data, 0x3FF0000000000000u).str();
    BOOST_TEST(hex(bytes_str(import_tensor(d).graph()->initializers[0])) == "00 00 00 00 00 00 F0 3F ");
    std::string c = tensor_head(15, {1}).fixed64_field(T::double_data, 1).fixed64_field(T::double_data, 2).str();
    BOOST_TEST(import_tensor(c).graph()->initializers[0].byte_size() == 16u);
}

BOOST_AUTO_TEST_CASE(uint64_data_serves_uint64_whole_and_uint32_by_its_low_32_bits) {
    std::string u64 = tensor_head(13, {1}).int_field(T::uint64_data, UINT64_MAX).str();
    BOOST_TEST(hex(bytes_str(import_tensor(u64).graph()->initializers[0])) == "FF FF FF FF FF FF FF FF ");
    std::string u32 = tensor_head(12, {2})
                          .int_field(T::uint64_data, (uint64_t{1} << 32) + 5)
                          .int_field(T::uint64_data, 0xFFFFFFFFu)
                          .str();
    BOOST_TEST(hex(bytes_str(import_tensor(u32).graph()->initializers[0])) == "05 00 00 00 FF FF FF FF ");
}

BOOST_AUTO_TEST_CASE(int32_data_keeps_the_low_16_or_8_bits) {
    std::string i16 =
        tensor_head(5, {2}).int_field(T::int32_data, 0x12345).int_field(T::int32_data, static_cast<uint64_t>(-2)).str();
    BOOST_TEST(hex(bytes_str(import_tensor(i16).graph()->initializers[0])) == "45 23 FE FF ");
    std::string f16 = tensor_head(10, {1}).int_field(T::int32_data, 0x3C00).str();
    BOOST_TEST(hex(bytes_str(import_tensor(f16).graph()->initializers[0])) == "00 3C ");
    std::string u8 = tensor_head(2, {2}).int_field(T::int32_data, 0x1FF).int_field(T::int32_data, 0x80).str();
    BOOST_TEST(hex(bytes_str(import_tensor(u8).graph()->initializers[0])) == "FF 80 ");
    std::string i32 = tensor_head(6, {1}).int_field(T::int32_data, static_cast<uint64_t>(-1)).str();
    BOOST_TEST(hex(bytes_str(import_tensor(i32).graph()->initializers[0])) == "FF FF FF FF ");
}

BOOST_AUTO_TEST_CASE(bool_from_int32_data_turns_any_non_zero_entry_into_1) {
    // 256 has a zero low byte but is non-zero; 2^32 is zero as an int32 (low 32 bits).
    std::string b = tensor_head(9, {6})
                        .packed_varints(T::int32_data, {0, 1, 256, 2})
                        .int_field(T::int32_data, static_cast<uint64_t>(-1))
                        .int_field(T::int32_data, uint64_t{1} << 32)
                        .str();
    BOOST_TEST(hex(bytes_str(import_tensor(b).graph()->initializers[0])) == "00 01 01 01 01 00 ");
}

BOOST_AUTO_TEST_CASE(four_and_two_bit_types_take_one_packed_byte_per_int32_entry) {
    std::string u4 = tensor_head(21, {3}).int_field(T::int32_data, 0x21).int_field(T::int32_data, 0x103).str();
    BOOST_TEST(hex(bytes_str(import_tensor(u4).graph()->initializers[0])) == "21 03 ");
    std::string i2 = tensor_head(26, {5}).int_field(T::int32_data, 0xE4).int_field(T::int32_data, 0x102).str();
    BOOST_TEST(hex(bytes_str(import_tensor(i2).graph()->initializers[0])) == "E4 02 ");
    // One entry per element instead of per packed byte: 3 bytes for 2 expected.
    std::string wrong = tensor_head(21, {3}).packed_varints(T::int32_data, {1, 2, 3}).str();
    expect_tensor_error(wrong, ErrorKind::InvalidModel, 4, "TensorProto.int32_data");
}

BOOST_AUTO_TEST_CASE(six_bit_elements_are_packed_lsb_first_four_in_three_bytes) {
    // x = 1, 0x3F, 0x2A, 0x15 (bit 6 of the first entry must be dropped):
    // byte0 = x0 | (x1&3)<<6 = C1; byte1 = x1>>2 | (x2&0xF)<<4 = AF; byte2 = x2>>4 | x3<<2 = 56.
    for (int32_t code : {27, 28}) {
        BOOST_TEST_CONTEXT("element type " << code) {
            std::string four = tensor_head(code, {4}).packed_varints(T::int32_data, {0x41, 0x3F, 0x2A, 0x15}).str();
            BOOST_TEST(hex(bytes_str(import_tensor(four).graph()->initializers[0])) == "C1 AF 56 ");
            std::string five =
                tensor_head(code, {5}).packed_varints(T::int32_data, {0x41, 0x3F, 0x2A, 0x15, 0x3F}).str();
            BOOST_TEST(hex(bytes_str(import_tensor(five).graph()->initializers[0])) == "C1 AF 56 3F ");
        }
    }
}

BOOST_AUTO_TEST_CASE(six_bit_entries_must_be_one_per_element_even_when_the_bytes_would_match) {
    // 4 elements and 3 entries both fill 3 bytes; 3 elements and 4 entries likewise.
    std::string few = tensor_head(27, {4}).packed_varints(T::int32_data, {1, 2, 3}).str();
    expect_tensor_error(few, ErrorKind::InvalidModel, 4, "TensorProto.int32_data");
    std::string many = tensor_head(28, {3}).packed_varints(T::int32_data, {1, 2, 3, 4}).str();
    expect_tensor_error(many, ErrorKind::InvalidModel, 4, "TensorProto.int32_data");
}

BOOST_AUTO_TEST_CASE(typed_field_with_the_wrong_entry_count_is_invalid_model) {
    std::string f = tensor_head(1, {3}).float_field(T::float_data, 1).float_field(T::float_data, 2).str();
    expect_tensor_error(f, ErrorKind::InvalidModel, 4, "TensorProto.float_data");
    std::string i = tensor_head(7, {1}).int_field(T::int64_data, 1).int_field(T::int64_data, 2).str();
    expect_tensor_error(i, ErrorKind::InvalidModel, 4, "TensorProto.int64_data");
}

BOOST_AUTO_TEST_CASE(typed_field_that_does_not_belong_to_the_element_type_is_invalid_model) {
    struct Case {
        int32_t code;
        T field;
        const char* name;
    };
    const Case cases[] = {
        {1, T::int32_data, "int32_data"},   {6, T::float_data, "float_data"},   {12, T::int32_data, "int32_data"},
        {7, T::uint64_data, "uint64_data"}, {11, T::float_data, "float_data"},  {14, T::double_data, "double_data"},
        {10, T::float_data, "float_data"},  {9, T::int64_data, "int64_data"},   {8, T::int32_data, "int32_data"},
        {13, T::int64_data, "int64_data"},  {2, T::string_data, "string_data"}, {15, T::float_data, "float_data"},
    };
    for (const Case& c : cases) {
        BOOST_TEST_CONTEXT("type " << c.code << " with " << c.name) {
            WireWriter t = tensor_head(c.code, {1});
            if (c.field == T::float_data) t.float_field(T::float_data, 1.0f);
            else if (c.field == T::double_data) t.fixed64_field(T::double_data, 1);
            else if (c.field == T::string_data) t.bytes_field(T::string_data, "s");
            else t.int_field(c.field, 1);
            expect_tensor_error(t.str(), ErrorKind::InvalidModel, 4, std::string("TensorProto.") + c.name);
        }
    }
}

// ---- Dimensions and limits ------------------------------------------------------------

BOOST_AUTO_TEST_CASE(negative_dimension_is_invalid_model) {
    std::string t = tensor_head(1, {2, static_cast<uint64_t>(-1)}).str();
    expect_tensor_error(t, ErrorKind::InvalidModel, 0, "TensorProto.dims");
    // INT64_MIN as well (the product would be meaningless).
    std::string m = tensor_head(1, {uint64_t{1} << 63}).str();
    expect_tensor_error(m, ErrorKind::InvalidModel, 0, "TensorProto.dims");
}

BOOST_AUTO_TEST_CASE(element_count_of_2_pow_60_is_accepted_but_its_bytes_are_unsupported) {
    std::string u8 = tensor_head(2, {uint64_t{1} << 30, uint64_t{1} << 30}).str();
    expect_tensor_error(u8, ErrorKind::Unsupported, 0, "TensorProto.dims");
    // Strings have no byte length: the count passes, and the missing entries are the error.
    std::string s = tensor_head(8, {uint64_t{1} << 60}).str();
    expect_tensor_error(s, ErrorKind::InvalidModel, 0, "TensorProto.string_data");
}

BOOST_AUTO_TEST_CASE(element_count_above_2_pow_60_is_invalid_model) {
    for (auto dims : {std::vector<uint64_t>{(uint64_t{1} << 60) + 1},
                      std::vector<uint64_t>{(uint64_t{1} << 30) + 1, uint64_t{1} << 30},
                      std::vector<uint64_t>{uint64_t{1} << 61}}) {
        BOOST_TEST_CONTEXT("dims[0] " << dims[0]) {
            WireWriter t;
            for (uint64_t d : dims) t.int_field(T::dims, d);
            t.int_field(T::data_type, 8);  // STRING: no byte limit in the way
            expect_tensor_error(t.str(), ErrorKind::InvalidModel, 0, "TensorProto.dims");
        }
    }
}

BOOST_AUTO_TEST_CASE(element_count_product_that_would_wrap_is_invalid_model) {
    // 2^32 * 2^32 wraps to 0 and 2^62 * 4 to 0 in 64 bits; 3 * 2^62 wraps to 2^62.
    for (auto dims :
         {std::vector<uint64_t>{uint64_t{1} << 32, uint64_t{1} << 32}, std::vector<uint64_t>{uint64_t{1} << 62, 4},
          std::vector<uint64_t>{3, uint64_t{1} << 62}, std::vector<uint64_t>{1u << 20, 1u << 20, 1u << 20, 1u << 20}}) {
        BOOST_TEST_CONTEXT("dims[0] " << dims[0]) {
            WireWriter t;
            for (uint64_t d : dims) t.int_field(T::dims, d);
            t.int_field(T::data_type, 1);
            expect_tensor_error(t.str(), ErrorKind::InvalidModel, 0, "TensorProto.dims");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_zero_dimension_makes_zero_elements_whatever_the_others) {
    std::string t = tensor_head(1, {0, uint64_t{1} << 62, uint64_t{1} << 62}).str();
    auto m = import_tensor(t);
    BOOST_TEST(m.graph()->initializers[0].element_count == 0u);
    BOOST_TEST(m.graph()->initializers[0].byte_size() == 0u);
}

BOOST_AUTO_TEST_CASE(byte_limit_2_pow_31_minus_1_is_decided_from_the_dims_before_any_data) {
    struct Case {
        int32_t code;
        uint64_t fits, too_big;  // element counts: exactly at or below 2^31-1 bytes, and just above
    };
    const Case cases[] = {
        {2, 0x7FFFFFFFu, 0x80000000u},                         // 8-bit
        {9, 0x7FFFFFFFu, 0x80000000u},                         // bool
        {1, (uint64_t{1} << 29) - 1, uint64_t{1} << 29},       // 32-bit: 2^31 - 4 bytes, then 2^31
        {16, (uint64_t{1} << 30) - 1, uint64_t{1} << 30},      // 16-bit
        {7, (uint64_t{1} << 28) - 1, uint64_t{1} << 28},       // 64-bit
        {15, (uint64_t{1} << 27) - 1, uint64_t{1} << 27},      // 128-bit
        {21, (uint64_t{1} << 32) - 2, (uint64_t{1} << 32) - 1},  // 4-bit: 2^31-1 bytes, then 2^31 (rounded up)
        {26, (uint64_t{1} << 33) - 4, (uint64_t{1} << 33) - 3},  // 2-bit
        {27, 2863311529u, 2863311530u},                         // 6-bit: 2^31-1 bytes, then 2^31
    };
    for (const Case& c : cases) {
        BOOST_TEST_CONTEXT("type " << c.code) {
            // At the limit with no data: past the byte check, refused for having no source.
            std::string fits = tensor_head(c.code, {c.fits}).str();
            expect_tensor_error(fits, ErrorKind::InvalidModel, 0, "TensorProto");
            // One element more: unsupported, with no data, with wrong raw_data, with a typed entry.
            std::string big = tensor_head(c.code, {c.too_big}).str();
            expect_tensor_error(big, ErrorKind::Unsupported, 0, "TensorProto.dims");
            expect_tensor_error(big + WireWriter().bytes_field(T::raw_data, "x").str(), ErrorKind::Unsupported, 0,
                                "TensorProto.dims");
            expect_tensor_error(big + WireWriter().int_field(typed_field(c.code), 1).str(), ErrorKind::Unsupported, 0,
                                "TensorProto.dims");
        }
    }
}

// ---- Element type ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(missing_or_zero_element_type_is_invalid_model) {
    std::string none = WireWriter().int_field(T::dims, 1).bytes_field(T::raw_data, "abcd").str();
    expect_tensor_error(none, ErrorKind::InvalidModel, 0, "TensorProto.data_type");
    std::string zero =
        WireWriter().int_field(T::dims, 1).bytes_field(T::raw_data, "abcd").int_field(T::data_type, 0).str();
    expect_tensor_error(zero, ErrorKind::InvalidModel, 8, "TensorProto.data_type");
}

BOOST_AUTO_TEST_CASE(element_type_outside_0_to_28_is_unsupported) {
    for (uint64_t code : {uint64_t{29}, uint64_t{1000}, UINT64_MAX}) {
        BOOST_TEST_CONTEXT("data_type " << code) {
            std::string t = WireWriter().int_field(T::dims, 1).int_field(T::data_type, code).str();
            expect_tensor_error(t, ErrorKind::Unsupported, 2, "TensorProto.data_type");
        }
    }
}

// ---- Sources --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(raw_data_mixed_with_a_typed_field_is_invalid_model) {
    std::string typed_first = tensor_head(1, {1}).float_field(T::float_data, 1).bytes_field(T::raw_data, "abcd").str();
    expect_tensor_error(typed_first, ErrorKind::InvalidModel, 4, "TensorProto.float_data");
    std::string raw_first = tensor_head(1, {1}).bytes_field(T::raw_data, "abcd").float_field(T::float_data, 1).str();
    expect_tensor_error(raw_first, ErrorKind::InvalidModel, 10, "TensorProto.float_data");
    // A typed field counts as a source only when it has entries: an empty packed run does not.
    std::string empty_run =
        tensor_head(1, {1}).bytes_field(T::raw_data, "abcd").packed_varints(T::int32_data, {}).str();
    BOOST_CHECK_NO_THROW(import_tensor(empty_run));
}

BOOST_AUTO_TEST_CASE(external_tensor_with_raw_data_or_a_typed_field_is_invalid_model) {
    WireWriter loc = tb::string_entry("location", "w.bin");
    std::string raw = tensor_head(1, {1})
                          .int_field(T::data_location, 1)
                          .message(T::external_data, loc)
                          .bytes_field(T::raw_data, "abcd")
                          .str();
    expect_tensor_error(raw, ErrorKind::InvalidModel, 6 + len_header(T::external_data, loc.size()) + loc.size(),
                        "TensorProto.raw_data");
    std::string typed = tensor_head(1, {1}).int_field(T::data_location, 1).float_field(T::float_data, 1).str();
    expect_tensor_error(typed, ErrorKind::InvalidModel, 6, "TensorProto.float_data");
    std::string str = tensor_head(8, {1}).int_field(T::data_location, 1).str();
    expect_tensor_error(str, ErrorKind::InvalidModel, 4, "TensorProto.data_location");
}

BOOST_AUTO_TEST_CASE(external_tensor_keeps_its_reference_and_expected_length) {
    WireWriter loc = tb::string_entry("location", "w.bin");
    std::string t = tensor_head(1, {3})
                        .int_field(T::data_location, 1)
                        .message(T::external_data, loc)
                        .bytes_field(T::name, "W")
                        .str();
    auto m = import_tensor(t);
    const TensorView& v = m.graph()->initializers[0];
    BOOST_TEST(static_cast<int>(v.source) == static_cast<int>(TensorSource::External));
    BOOST_TEST(v.byte_size() == 12u);
    BOOST_TEST(!v.has_bytes());
    BOOST_TEST(v.external_data.at(0).value == "w.bin");
    BOOST_TEST(detail::ModelAccess::field_path(v) == "TensorProto");
}

BOOST_AUTO_TEST_CASE(unknown_data_location_is_invalid_model) {
    std::string t = tensor_head(1, {1}).bytes_field(T::raw_data, "abcd").int_field(T::data_location, 2).str();
    expect_tensor_error(t, ErrorKind::InvalidModel, 10, "TensorProto.data_location");
}

BOOST_AUTO_TEST_CASE(tensor_with_elements_and_no_source_is_invalid_model) {
    expect_tensor_error(tensor_head(1, {2}).str(), ErrorKind::InvalidModel, 0, "TensorProto");
    // A scalar (no dims) has one element.
    expect_tensor_error(WireWriter().int_field(T::data_type, 1).str(), ErrorKind::InvalidModel, 0, "TensorProto");
}

BOOST_AUTO_TEST_CASE(tensor_with_zero_elements_and_no_source_is_accepted_empty) {
    for (auto t : {tensor_head(1, {0}).str(), tensor_head(7, {3, 0}).str(),
                   tensor_head(1, {0}).bytes_field(T::raw_data, "").str()}) {
        auto m = import_tensor(t);
        const TensorView& v = m.graph()->initializers[0];
        BOOST_TEST(v.byte_size() == 0u);
        BOOST_TEST(v.bytes().empty());
        BOOST_TEST(v.has_bytes());
    }
    BOOST_TEST(static_cast<int>(import_tensor(tensor_head(1, {0}).str()).graph()->initializers[0].source) ==
               static_cast<int>(TensorSource::None));
}

BOOST_AUTO_TEST_CASE(string_tensor_needs_one_string_data_entry_per_element) {
    std::string ok = tensor_head(8, {3})
                         .bytes_field(T::string_data, "a")
                         .bytes_field(T::string_data, "")
                         .bytes_field(T::string_data, "ccc")
                         .str();
    auto m = import_tensor(ok);
    const TensorView& v = m.graph()->initializers[0];
    BOOST_TEST((v.strings.to_vector() == std::vector<std::string_view>{"a", "", "ccc"}));
    BOOST_TEST(static_cast<int>(v.source) == static_cast<int>(TensorSource::Strings));
    BOOST_TEST(v.bytes().empty());

    std::string few = tensor_head(8, {3}).bytes_field(T::string_data, "a").bytes_field(T::string_data, "b").str();
    expect_tensor_error(few, ErrorKind::InvalidModel, 4, "TensorProto.string_data");
    std::string many = tensor_head(8, {1}).bytes_field(T::string_data, "a").bytes_field(T::string_data, "b").str();
    expect_tensor_error(many, ErrorKind::InvalidModel, 4, "TensorProto.string_data");
    expect_tensor_error(tensor_head(8, {2}).str(), ErrorKind::InvalidModel, 0, "TensorProto.string_data");
    std::string raw = tensor_head(8, {1}).bytes_field(T::raw_data, "a").str();
    expect_tensor_error(raw, ErrorKind::InvalidModel, 4, "TensorProto.raw_data");
}

BOOST_AUTO_TEST_CASE(segment_is_unsupported) {
    WireWriter seg = WireWriter().int_field(proto::TensorSegment::begin, 0).int_field(proto::TensorSegment::end, 1);
    std::string t = tensor_head(1, {1}).message(T::segment, seg).bytes_field(T::raw_data, "abcd").str();
    expect_tensor_error(t, ErrorKind::Unsupported, 4, "TensorProto.segment");
}

BOOST_AUTO_TEST_CASE(tensor_fields_are_read_as_written) {
    std::string t = tensor_head(1, {1})
                        .bytes_field(T::name, "W")
                        .bytes_field(T::doc_string, "tensor doc")
                        .message(T::metadata_props, tb::string_entry("mk", "mv"))
                        .bytes_field(T::raw_data, "abcd")
                        .str();
    auto m = import_tensor(t);
    const TensorView& v = m.graph()->initializers[0];
    BOOST_TEST(v.name == "W");
    BOOST_TEST(v.doc_string == "tensor doc");
    BOOST_TEST(v.metadata_props.at(0).value == "mv");
    BOOST_TEST(v.data_location == 0);
    BOOST_TEST(v.offset == 0u);
}

BOOST_AUTO_TEST_CASE(tensor_errors_inside_a_model_carry_the_model_offset_and_path) {
    std::string w0 = tb::tensor_raw("W0", 1, {1}, "abcd").str();
    std::string w1 = tb::tensor_raw("W1", 1, {2}, "abcd").str();  // 4 bytes for 8
    using G = proto::Graph;
    std::string graph = WireWriter().bytes_field(G::initializer, w0).bytes_field(G::initializer, w1).str();
    std::string m = model_graph_last(graph);
    uint64_t w1_payload = graph_payload_offset(graph) + len_header(G::initializer, w0.size()) + w0.size() +
                          len_header(G::initializer, w1.size());
    uint64_t raw_at = w1_payload + w1.size() - 6;  // raw_data key, length, 4 bytes at the end
    expect_model_error(m, ErrorKind::InvalidModel, raw_at, "ModelProto.graph.initializer[1].raw_data");
}

// ---- Sparse tensors -------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(sparse_tensor_is_imported_as_written_not_densified) {
    WireWriter values =
        tb::tensor_raw("S", 1, {3}, std::string("\x00\x00\x80\x3F\x00\x00\x00\x40\x00\x00\x40\x40", 12));
    WireWriter indices =
        WireWriter().int_field(T::dims, 3).int_field(T::data_type, 7).packed_varints(T::int64_data, {0, 5, 9});
    // Hand-built: the dense dims packed (tb::sparse_tensor writes them unpacked).
    WireWriter sparse = WireWriter()
                            .message(proto::SparseTensor::values, values)
                            .message(proto::SparseTensor::indices, indices)
                            .packed_varints(proto::SparseTensor::dims, {10});
    std::string graph = WireWriter().message(proto::Graph::sparse_initializer, sparse).str();
    auto m = import_model(model_graph_last(graph));
    const SparseTensor& s = m.graph()->sparse_initializers.at(0);
    BOOST_TEST(s.dims.to_vector() == (std::vector<int64_t>{10}));
    BOOST_TEST(s.values.name == "S");
    BOOST_TEST(s.values.dims.to_vector() == (std::vector<int64_t>{3}));
    BOOST_TEST(s.values.byte_size() == 12u);  // three values, not ten
    BOOST_TEST(s.indices.data_type == 7);
    BOOST_TEST(hex(bytes_str(s.indices)) == hex(le(0, 8) + le(5, 8) + le(9, 8)));
    BOOST_TEST(s.offset == graph_payload_offset(graph));
    // 2-D coordinates [nnz, rank] are kept as written too.
    WireWriter coords = WireWriter()
                            .int_field(T::dims, 3)
                            .int_field(T::dims, 2)
                            .int_field(T::data_type, 7)
                            .packed_varints(T::int64_data, {0, 1, 1, 0, 2, 2});
    WireWriter sparse2 = tb::sparse_tensor(values, coords, {3, 3});
    auto m2 = import_model(model_graph_last(WireWriter().message(proto::Graph::sparse_initializer, sparse2).str()));
    BOOST_TEST(m2.graph()->sparse_initializers[0].indices.dims.to_vector() == (std::vector<int64_t>{3, 2}));
    BOOST_TEST(m2.graph()->sparse_initializers[0].dims.to_vector() == (std::vector<int64_t>{3, 3}));
}

BOOST_AUTO_TEST_CASE(sparse_tensor_values_are_checked_like_any_tensor) {
    WireWriter values = tb::tensor_raw("S", 1, {3}, "abcd");  // 4 bytes for 12
    // Hand-built: no indices (tb::sparse_tensor always writes them).
    WireWriter sparse =
        WireWriter().message(proto::SparseTensor::values, values).int_field(proto::SparseTensor::dims, 10);
    std::string graph = WireWriter().message(proto::Graph::sparse_initializer, sparse).str();
    std::string m = model_graph_last(graph);
    uint64_t values_payload = graph_payload_offset(graph) +
                              len_header(proto::Graph::sparse_initializer, sparse.size()) +
                              len_header(proto::SparseTensor::values, values.size());
    expect_model_error(m, ErrorKind::InvalidModel, values_payload + values.size() - 6,
                       "ModelProto.graph.sparse_initializer[0].values.raw_data");
}

BOOST_AUTO_TEST_SUITE_END()
