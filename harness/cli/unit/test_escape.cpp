// cli/escape: what stays, what becomes an escape, and where UTF-8 ends (docs/cli.md).
#include "escape.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using onnximport::cli::escape;
using onnximport::cli::is_utf8;

BOOST_AUTO_TEST_SUITE(cli_escape)

BOOST_AUTO_TEST_CASE(printable_ascii_and_utf8_text_are_unchanged) {
    const std::string text = "model-1.onnx ~!@#$%^&*()[]{}'\" é € 😀";
    BOOST_TEST(escape(text) == text);
}

BOOST_AUTO_TEST_CASE(backslash_and_line_breaking_bytes_get_short_escapes) {
    BOOST_TEST(escape("a\\b\tc\nd\re") == "a\\\\b\\tc\\nd\\re");
}

BOOST_AUTO_TEST_CASE(every_other_control_byte_is_hex) {
    for (int c = 0; c < 0x20; ++c) {
        if (c == '\t' || c == '\n' || c == '\r') continue;
        std::string out = escape(std::string(1, static_cast<char>(c)));
        BOOST_TEST(out.size() == 4u);
        BOOST_TEST(out.substr(0, 2) == "\\x");
        BOOST_TEST(std::stoi(out.substr(2), nullptr, 16) == c);
    }
    BOOST_TEST(escape("\x7f") == "\\x7f");
    BOOST_TEST(escape(std::string("\0", 1)) == "\\x00");
}

BOOST_AUTO_TEST_CASE(bytes_outside_utf8_are_hex_each) {
    BOOST_TEST(escape("\xff") == "\\xff");
    BOOST_TEST(escape("\x80") == "\\x80");                  // a stray continuation byte
    BOOST_TEST(escape("\xc0\xaf") == "\\xc0\\xaf");         // overlong '/'
    BOOST_TEST(escape("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");
    BOOST_TEST(escape("\xf0\x80\x80\xaf") == "\\xf0\\x80\\x80\\xaf");
    BOOST_TEST(escape("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
    BOOST_TEST(escape("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
    BOOST_TEST(escape("a\xe2\x82") == "a\\xe2\\x82");       // cut short at the end
    BOOST_TEST(escape("\xe2\x82z") == "\\xe2\\x82z");       // cut short by a plain byte
}

BOOST_AUTO_TEST_CASE(utf8_limits_are_kept) {
    for (const char* s : {"\xc2\xa0", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
                          "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
        BOOST_TEST(is_utf8(s));
        BOOST_TEST(escape(s) == s);
    }
}

BOOST_AUTO_TEST_CASE(invisible_controls_are_hex_although_valid_utf8) {
    BOOST_TEST(escape("\xc2\x80") == "\\xc2\\x80");          // U+0080, first C1 control
    BOOST_TEST(escape("\xc2\x9b") == "\\xc2\\x9b");          // U+009B, CSI
    BOOST_TEST(escape("\xc2\x9f") == "\\xc2\\x9f");          // U+009F, last C1 control
    BOOST_TEST(escape("\xe2\x80\xa8") == "\\xe2\\x80\\xa8"); // U+2028 line separator
    BOOST_TEST(escape("\xe2\x80\xae") == "\\xe2\\x80\\xae"); // U+202E right-to-left override
    BOOST_TEST(escape("\xe2\x81\xa9") == "\\xe2\\x81\\xa9"); // U+2069 pop directional isolate
    BOOST_TEST(escape("\xe2\x80\x8f") == "\\xe2\\x80\\x8f"); // U+200F right-to-left mark
    BOOST_TEST(escape("\xe2\x80\xa7") == "\xe2\x80\xa7");     // U+2027, next to them: kept
    BOOST_TEST(escape("\xe2\x80\xaf") == "\xe2\x80\xaf");     // U+202F: kept
}

BOOST_AUTO_TEST_CASE(is_utf8_refuses_what_escape_hexes) {
    BOOST_TEST(is_utf8(""));
    BOOST_TEST(!is_utf8("\xc1\xbf"));
    BOOST_TEST(!is_utf8("\xf5\x80\x80\x80"));
    BOOST_TEST(!is_utf8("ok\xed\xbf\xbf"));
    BOOST_TEST(!is_utf8("\xf0\x9f\x98"));
}

BOOST_AUTO_TEST_SUITE_END()
