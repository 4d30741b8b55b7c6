// `onnximport dump FILE`: the structural dump (sweep/DUMP_FORMAT.md) to stdout. Its strings
// are escaped by the format itself (every byte outside 0x20..0x7E as \xHH).
#include "commands.hpp"
#include "input.hpp"

#include <onnximport/dump.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace onnximport::cli {

namespace {

/// The test of the truncation promise (harness/cli/) stops the CLI here so that it can
/// shrink the file between the import and the dump's reading of the weights.
void stop_for_test_if_asked() {
    if (std::getenv("ONNXIMPORT_TEST_STOP_AFTER_IMPORT")) std::raise(SIGSTOP);
}

}  // namespace

int run_dump(const ParsedArgs& args) {
    const onnximport::ImportOptions options = import_options(args);
    if (args.operands.size() != 1) throw UsageError("dump: exactly one FILE");
    const std::string& operand = args.operands[0];
    std::ostringstream text;  // held back until the file is known not to have shrunk
    auto refusal = refusal_of(operand, [&] {
        onnximport::Model model = load_model(operand, options);
        stop_for_test_if_asked();
        onnximport::write_dump(model, text);
    });
    if (refusal) {
        print_error(refusal->what());
        return exit_refused;
    }
    std::cout << text.str() << std::flush;
    return exit_ok;
}

}  // namespace onnximport::cli
