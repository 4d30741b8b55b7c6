// Strict option parsing for the subcommands (docs/cli.md, "Options"): every option is
// known, every value present, every number whole and in range, `--` ends the options.
// Anything else is a UsageError, which the CLI reports with exit 2.
#pragma once

#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport::cli {

/// A command line the CLI refuses; what() is the reason, raw (escape before printing).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string_view name;  ///< "--max-nesting"
    bool takes_value;
};

struct ParsedArgs {
    std::map<std::string, std::string, std::less<>> values;  ///< option -> value ("" for a flag)
    std::vector<std::string> operands;                       ///< in order
    bool help = false;                                       ///< --help or -h, alone

    bool has(std::string_view option) const { return values.find(option) != values.end(); }
};

/// Parses a subcommand's arguments (argv after the subcommand's name). Options may come
/// before or after operands; `--name value` and `--name=value` are the same; `-` is an
/// operand (standard input). `--help` is accepted only as the sole argument, so that a
/// stray one never turns a check into a successful exit.
/// @throws UsageError
ParsedArgs parse_args(std::span<char* const> args, std::span<const OptionSpec> specs);

/// The whole of `text` as a decimal integer in [min, max].
/// @throws UsageError naming the option
long parse_integer(std::string_view option, std::string_view text, long min, long max);

}  // namespace onnximport::cli
