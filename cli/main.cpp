// build/bin/onnximport: the command line of the importer. The contract (subcommands,
// options, output formats, escaping, exit codes) is docs/cli.md.
#include "commands.hpp"

#include <onnximport/version.hpp>

#include <iostream>
#include <span>
#include <string>
#include <string_view>

namespace {

using namespace onnximport::cli;

void usage(std::ostream& os) {
    os << "usage: onnximport <command> [options] [--] FILE...\n"
          "       onnximport --version | --help | <command> --help\n"
          "commands:\n";
    for (const auto& c : commands()) {
        std::string_view line = c.help.substr(0, c.help.find('\n'));
        os << "  " << line.substr(std::string_view("usage: onnximport ").size()) << '\n';
    }
    os << "docs/cli.md holds the contract; onnximport <command> --help describes each command.\n";
}

const Command* find_command(std::string_view name) {
    for (const auto& c : commands())
        if (c.name == name) return &c;
    return nullptr;
}

/// --help and --version only alone, so that exit 0 never stands for files left unchecked.
bool reject_extra_words(int argc, std::string_view word) {
    if (argc == 2) return false;
    print_error(std::string(word) + " takes no other arguments");
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(std::cerr);
        return exit_usage;
    }
    const std::string_view word = argv[1];
    if (word == "--help" || word == "-h" || word == "help") {
        if (reject_extra_words(argc, word)) return exit_usage;
        usage(std::cout);
        return exit_ok;
    }
    if (word == "--version") {
        if (reject_extra_words(argc, word)) return exit_usage;
        std::cout << "onnximport " << ONNXIMPORT_VERSION_STRING << '\n';
        return exit_ok;
    }
    const Command* command = find_command(word);
    if (!command) {
        print_error("unknown command " + std::string(word) + " (onnximport --help lists them)");
        return exit_usage;
    }
    try {
        const ParsedArgs args = parse_args(std::span<char* const>(argv + 2, static_cast<size_t>(argc - 2)),
                                           command->options);
        if (args.help) {
            std::cout << command->help;
            return exit_ok;
        }
        return command->run(args);
    } catch (const UsageError& e) {
        print_error(e.what());
        std::cerr << "try: onnximport " << command->name << " --help\n";
        return exit_usage;
    }
}
