// build/bin/onnximport: the command line of the importer (contract in ARCHITECTURE.md).
//   check [--max-nesting N] [--external-dir DIR] FILE...   one line per file; exit 0/1/2
//   dump [--max-nesting N] [--external-dir DIR] FILE       the structural dump to stdout
#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int exit_ok = 0, exit_refused = 1, exit_usage = 2;

void usage(std::ostream& os) {
    os << "usage: onnximport <command> [options] FILE...\n"
          "commands:\n"
          "  check [--max-nesting N] [--external-dir DIR] FILE...\n"
          "      one line per file: FILE<TAB>ok, or\n"
          "      FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE ('-' when unknown)\n"
          "      exit 0 if every file imported, 1 if any was refused, 2 for a usage error\n"
          "  dump [--max-nesting N] [--external-dir DIR] FILE\n"
          "      the structural dump (sweep/DUMP_FORMAT.md) to stdout\n"
          "  --help    this text\n";
}

/// Tabs and newlines would break the one-line-per-file contract.
std::string one_line(std::string s) {
    for (char& ch : s)
        if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return s;
}

struct Args {
    onnximport::ImportOptions options;
    std::vector<std::string> files;
};

/// Parses the shared options; returns false (after printing why) on a usage error.
bool parse_args(int argc, char** argv, int first, Args& a) {
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            usage(std::cout);
            std::exit(exit_ok);
        } else if (arg == "--max-nesting" && i + 1 < argc) {
            char* end = nullptr;
            long n = std::strtol(argv[++i], &end, 10);
            if (*end || n < onnximport::ImportOptions::min_nesting_limit ||
                n > onnximport::ImportOptions::max_nesting_limit) {
                std::cerr << "onnximport: --max-nesting must be an integer from 8 to 250\n";
                return false;
            }
            a.options.max_nesting = static_cast<int>(n);
        } else if (arg == "--external-dir" && i + 1 < argc) {
            a.options.external_data_dir = argv[++i];
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::cerr << "onnximport: unknown option " << arg << "\n";
            return false;
        } else {
            a.files.push_back(arg);
        }
    }
    if (a.files.empty()) {
        std::cerr << "onnximport: no input file\n";
        return false;
    }
    return true;
}

void print_error_line(const std::string& file, const onnximport::ImportError& e) {
    std::cout << file << '\t' << onnximport::to_string(e.kind()) << '\t'
              << (e.offset() ? std::to_string(*e.offset()) : "-") << '\t'
              << (e.field_path().empty() ? "-" : e.field_path()) << '\t' << one_line(e.message()) << '\n';
}

int cmd_check(const Args& a) {
    int rc = exit_ok;
    for (const auto& file : a.files) {
        try {
            onnximport::import_file(file, a.options);
            std::cout << file << "\tok\n";
        } catch (const onnximport::ImportError& e) {
            print_error_line(file, e);
            rc = exit_refused;
        }
    }
    return rc;
}

int cmd_dump(const Args& a) {
    if (a.files.size() != 1) {
        std::cerr << "onnximport dump: exactly one FILE\n";
        return exit_usage;
    }
    try {
        auto model = onnximport::import_file(a.files[0], a.options);
        onnximport::write_dump(model, std::cout);
        return exit_ok;
    } catch (const onnximport::ImportError& e) {
        std::cerr << e.what() << '\n';
        return exit_refused;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(std::cerr);
        return exit_usage;
    }
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        usage(std::cout);
        return exit_ok;
    }
    Args a;
    if (cmd == "check") {
        if (!parse_args(argc, argv, 2, a)) return exit_usage;
        return cmd_check(a);
    }
    if (cmd == "dump") {
        if (!parse_args(argc, argv, 2, a)) return exit_usage;
        return cmd_dump(a);
    }
    std::cerr << "onnximport: unknown command " << cmd << "\n";
    usage(std::cerr);
    return exit_usage;
}
