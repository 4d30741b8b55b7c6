// The subcommands of build/bin/onnximport (docs/cli.md) and what they share.
#pragma once

#include "args.hpp"

#include <onnximport/options.hpp>

#include <span>
#include <string_view>

namespace onnximport::cli {

inline constexpr int exit_ok = 0, exit_refused = 1, exit_usage = 2;

struct Command {
    std::string_view name;
    std::span<const OptionSpec> options;
    std::string_view help;  ///< usage line and description, ends with a newline
    int (*run)(const ParsedArgs&);
};

int run_check(const ParsedArgs& args);
int run_dump(const ParsedArgs& args);
int run_bench(const ParsedArgs& args);
int run_convert(const ParsedArgs& args);

/// Every subcommand, in the order the help lists them.
std::span<const Command> commands();

/// --max-nesting, --external-dir, --threads and --ort-data, the options of every subcommand.
inline constexpr OptionSpec import_option_specs[] = {
    {"--max-nesting", true}, {"--external-dir", true}, {"--threads", true}, {"--ort-data", true}};
/// The ImportOptions those ask for. @throws UsageError
onnximport::ImportOptions import_options(const ParsedArgs& args);

/// Writes "onnximport: TEXT" to stderr, TEXT escaped.
void print_error(std::string_view text);

}  // namespace onnximport::cli
