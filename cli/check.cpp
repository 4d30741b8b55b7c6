// `onnximport check`: one record per file, exit 0 when every file imported (docs/cli.md).
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"

#include <onnximport/workspace.hpp>

#include <algorithm>
#include <iostream>

namespace onnximport::cli {

int run_check(const ParsedArgs& args) {
    // One Workspace for all the files, as a program importing many models would: each import
    // reuses the blocks of the one before instead of faulting in fresh pages.
    onnximport::Workspace workspace;
    onnximport::ImportOptions options = import_options(args);
    options.workspace = &workspace;
    if (args.operands.empty()) throw UsageError("check: no input file");
    if (std::count(args.operands.begin(), args.operands.end(), "-") > 1)
        throw UsageError("check: standard input (-) may be named once");
    const bool json = args.has("--json");
    int rc = exit_ok;
    for (const auto& operand : args.operands) {
        auto refusal = refusal_of(operand, [&] { load_model(operand, options); });
        if (refusal) rc = exit_refused;
        if (json)
            std::cout << to_json_line(refusal ? refusal_record(operand, *refusal) : ok_record(operand)) << '\n';
        else
            std::cout << (refusal ? refusal_line(operand, *refusal) : ok_line(operand)) << '\n';
    }
    std::cout.flush();
    return rc;
}

}  // namespace onnximport::cli
