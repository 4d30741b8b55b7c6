// Every limit and switch of an import, with its default and the reason for it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace onnximport {

enum class LoadMode {
    Auto,  ///< map files over 1 MiB, read smaller ones (spec section 6)
    Map,   ///< always map the model file
    Read,  ///< always read the model file into memory
};

struct ImportOptions {
    /// Nested messages allowed below ModelProto (spec section 1). 128 leaves room for
    /// deeply nested control flow while bounding the reader's recursion; 8..250.
    int max_nesting = 128;
    static constexpr int min_nesting_limit = 8;
    static constexpr int max_nesting_limit = 250;

    /// Directory that external data is resolved against (spec section 5). For a file
    /// path the default is the model's directory; for bytes, external data is refused
    /// unless this is set.
    std::optional<std::filesystem::path> external_data_dir;

    LoadMode load_mode = LoadMode::Auto;

    /// Files above this size are mapped in Auto mode (spec section 6: "Models up to
    /// 1 MiB are read instead of mapped").
    uint64_t map_threshold = 1u << 20;

    /// Read a graph of at least 4096 nodes on two threads: a helper thread reads the second
    /// half of its bytes while the calling thread reads the first. The result and any
    /// refusal are those of a single-threaded read. (A graph whose scan stops at a payload
    /// of 256 KiB or more, as one with inline weights, is read by one thread.)
    bool parallel_read = true;

    /// Build the graph proper (spec section 4). Off: only the parsed messages.
    bool resolve = true;

    /// Load external tensor data (spec section 5). Off: external tensors keep their
    /// reference and have no bytes.
    bool load_external_data = true;
};

}  // namespace onnximport
