// cli/args: the strict option parser (docs/cli.md, "Options").
#include "args.hpp"

#include <boost/test/unit_test.hpp>

#include <initializer_list>
#include <string>
#include <vector>

using namespace onnximport::cli;

namespace {

constexpr OptionSpec specs[] = {{"--max-nesting", true}, {"--json", false}};

ParsedArgs parse(std::initializer_list<const char*> words) {
    static std::vector<std::string> storage;
    storage.assign(words.begin(), words.end());
    std::vector<char*> argv;
    for (auto& w : storage) argv.push_back(w.data());
    return parse_args(argv, specs);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_args)

BOOST_AUTO_TEST_CASE(options_and_operands_in_any_order) {
    auto a = parse({"a.onnx", "--json", "--max-nesting", "9", "b.onnx"});
    BOOST_TEST(a.has("--json"));
    BOOST_TEST(a.values.at("--max-nesting") == "9");
    BOOST_TEST((a.operands == std::vector<std::string>{"a.onnx", "b.onnx"}));
}

BOOST_AUTO_TEST_CASE(equals_form_gives_the_value_even_if_empty) {
    BOOST_TEST(parse({"--max-nesting=12"}).values.at("--max-nesting") == "12");
    BOOST_TEST(parse({"--max-nesting="}).values.at("--max-nesting") == "");
}

BOOST_AUTO_TEST_CASE(double_dash_ends_options_and_dash_is_an_operand) {
    auto a = parse({"-", "--", "--json", "--help", "-"});
    BOOST_TEST(!a.has("--json"));
    BOOST_TEST(!a.help);
    BOOST_TEST((a.operands == std::vector<std::string>{"-", "--json", "--help", "-"}));
}

BOOST_AUTO_TEST_CASE(help_only_alone) {
    BOOST_TEST(parse({"--help"}).help);
    BOOST_TEST(parse({"-h"}).help);
    BOOST_CHECK_THROW(parse({"a.onnx", "--help"}), UsageError);
    BOOST_CHECK_THROW(parse({"--help", "a.onnx"}), UsageError);
}

BOOST_AUTO_TEST_CASE(missing_values_unknown_options_and_repeats_are_usage_errors) {
    BOOST_CHECK_THROW(parse({"--max-nesting"}), UsageError);
    BOOST_CHECK_THROW(parse({"--bogus"}), UsageError);
    BOOST_CHECK_THROW(parse({"-x"}), UsageError);
    BOOST_CHECK_THROW(parse({"--json=yes"}), UsageError);
    BOOST_CHECK_THROW(parse({"--json", "--json"}), UsageError);
    BOOST_CHECK_THROW(parse({"--max-nesting", "8", "--max-nesting=8"}), UsageError);
}

BOOST_AUTO_TEST_CASE(the_next_word_is_a_value_even_if_it_looks_like_an_option) {
    BOOST_TEST(parse({"--max-nesting", "--json"}).values.at("--max-nesting") == "--json");
}

BOOST_AUTO_TEST_CASE(integers_are_whole_and_in_range) {
    BOOST_TEST(parse_integer("--n", "8", 8, 250) == 8);
    BOOST_TEST(parse_integer("--n", "250", 8, 250) == 250);
    for (const char* bad : {"7", "251", "", " 9", "9 ", "+9", "09x", "0x10", "9.0", "1e2", "-", "99999999999999999999"})
        BOOST_CHECK_THROW(parse_integer("--n", bad, 8, 250), UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
