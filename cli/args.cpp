// Strict option parsing (docs/cli.md, "Options").
#include "args.hpp"


#include <charconv>

namespace onnximport::cli {

namespace {

const OptionSpec* find_spec(std::span<const OptionSpec> specs, std::string_view name) {
    for (const auto& spec : specs)
        if (spec.name == name) return &spec;
    return nullptr;
}

bool is_help(std::string_view arg) { return arg == "--help" || arg == "-h"; }

}  // namespace

ParsedArgs parse_args(std::span<char* const> args, std::span<const OptionSpec> specs) {
    ParsedArgs parsed;
    if (args.size() == 1 && is_help(args[0])) {
        parsed.help = true;
        return parsed;
    }
    bool options_ended = false;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        if (options_ended || arg == "-" || arg.empty() || arg[0] != '-') {
            parsed.operands.emplace_back(arg);
            continue;
        }
        if (arg == "--") {
            options_ended = true;
            continue;
        }
        if (is_help(arg)) throw UsageError("--help takes no other arguments");
        const size_t eq = arg.find('=');
        std::string_view name = arg.substr(0, eq);
        const OptionSpec* spec = arg.starts_with("--") ? find_spec(specs, name) : nullptr;
        if (!spec)
            throw UsageError("unknown option " + std::string(arg) + " (use -- before a file name that starts with -)");
        if (parsed.has(name)) throw UsageError("option " + std::string(name) + " given twice");
        std::string value;
        if (!spec->takes_value) {
            if (eq != std::string_view::npos) throw UsageError("option " + std::string(name) + " takes no value");
        } else if (eq != std::string_view::npos) {
            value = arg.substr(eq + 1);
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            throw UsageError("option " + std::string(name) + " needs a value");
        }
        parsed.values.emplace(name, std::move(value));
    }
    return parsed;
}

long parse_integer(std::string_view option, std::string_view text, long min, long max) {
    long n = 0;
    const char* end = text.data() + text.size();
    auto [stop, ec] = std::from_chars(text.data(), end, n);
    if (text.empty() || ec != std::errc() || stop != end || n < min || n > max)
        throw UsageError(std::string(option) + " must be a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", not '" + std::string(text) + "'");
    return n;
}

}  // namespace onnximport::cli
