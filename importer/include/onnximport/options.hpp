// Every limit and switch of an import, with its default and the reason for it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

namespace onnximport {

class Workspace;

enum class LoadMode {
    Auto,  ///< map files over 1 MiB, read smaller ones (spec section 6)
    Map,   ///< always map the model file
    Read,  ///< always read the model file into memory
};

enum class ModelFormat {
    Auto,  ///< by content (docs/rules.md O1); a buffer valid as both formats is refused (O16)
    Onnx,  ///< a ModelProto, whatever its bytes 4..7 hold
    Ort,   ///< ONNX Runtime's FlatBuffers format
};

enum class ExternalOpen {
    Auto,     ///< openat2 where available, else the walk
    Openat2,  ///< openat2 only; a kernel without it is an Io failure
    Walk,     ///< the component-wise walk only
};

/// Where one import's time went, step by step: seconds of the steady clock, for benchmarks
/// (make bench's step columns, docs/performance.md). A step the import does not take stays
/// 0. The resolution steps are the main graph's; its subgraphs resolve within `references`.
struct ImportTimes {
    double read = 0;        ///< the messages, .onnx or .ort (spec sections 1-3)
    double external = 0;    ///< external data (spec section 5)
    double define = 0;      ///< the values (spec section 4, "Values")
    double references = 0;  ///< node inputs, opsets, subgraphs, graph outputs
    double types = 0;       ///< Value::type
    double order = 0;       ///< the resolved order
    double consumers = 0;   ///< nodes moved into that order, producers and consumers
};

/// Each step of ImportTimes with its name, in the order an import takes them.
inline constexpr std::pair<const char*, double ImportTimes::*> import_steps[] = {
    {"read", &ImportTimes::read},   {"external", &ImportTimes::external}, {"define", &ImportTimes::define},
    {"references", &ImportTimes::references}, {"types", &ImportTimes::types}, {"order", &ImportTimes::order},
    {"consumers", &ImportTimes::consumers}};

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

    /// The companion file of a .ort model's external tensors (docs/ort.md, "External
    /// data"): a relative name beneath the external-data directory, under the same rules as
    /// a .onnx location; it overrides the name the model's metadata gives. Unset: that name,
    /// else the model file's name plus ".data" (model.ort.data); for bytes, external .ort
    /// tensors are refused unless external_data_dir is set and this or the model names one.
    std::optional<std::filesystem::path> ort_external_data;

    LoadMode load_mode = LoadMode::Auto;

    /// Files above this size are mapped in Auto mode (spec section 6: "Models up to
    /// 1 MiB are read instead of mapped").
    uint64_t map_threshold = 1u << 20;

    /// Keep and reuse arena blocks between imports (onnximport/workspace.hpp). Null: the
    /// import owns everything it allocates and frees it with its Model.
    Workspace* workspace = nullptr;

    /// Build the graph proper (spec section 4). Off: only the parsed messages.
    bool resolve = true;

    /// Load external tensor data (spec section 5). Off: external tensors keep their
    /// reference and have no bytes.
    bool load_external_data = true;

    /// How external-data files are opened beneath their directory: openat2 with
    /// RESOLVE_BENEATH where the kernel has it (unless the environment sets
    /// ONNXIMPORT_NO_OPENAT2=1), else a component-wise walk that gives the same answers.
    ExternalOpen external_open = ExternalOpen::Auto;

    /// Which format the input is read as. Auto decides by content; ONNX Runtime decides
    /// by the file name, so a buffer that is a valid .ort and a valid .onnx at once could be
    /// another model there: Auto refuses it (docs/rules.md O16), naming the format reads it.
    ModelFormat format = ModelFormat::Auto;

    /// .ort: also refuse what ONNX Runtime's loader would refuse for its FlatBuffers
    /// Verifier's limits below ("would ONNX Runtime take this file", rule O2). Off by
    /// default: the reader's own bounds are max_nesting (table depth) and the buffer's size
    /// (the walk's work, rule O15), which hold however its tables are shared.
    bool onnxruntime_limits = false;
    /// ONNX Runtime's limits, used only with onnxruntime_limits: tables nested (8..250),
    /// and tables verified, counted once per reference.
    uint32_t ort_max_depth = 64;
    static constexpr uint32_t min_ort_depth_limit = 8;
    static constexpr uint32_t max_ort_depth_limit = 250;
    uint32_t ort_max_tables = 1'000'000;
    /// Scalars, offsets and vectors aligned to their size, as FlatBuffers' Verifier checks
    /// (.ort's raw_data is a byte vector: only its 4-byte length prefix is aligned). Off:
    /// misaligned fields are accepted (the reader copies every scalar, so either is safe).
    bool ort_check_alignment = true;

    /// Threads an import may use, started and joined within the call; 1 (the default):
    /// none but the caller's. Above one, the work on tensor bytes is shared out: a model
    /// file in Read mode is read in ranges in parallel, and after the structural walk every
    /// tensor's bytes (mapped ones included) are made resident before the import returns,
    /// so that their first use does not fault: each byte once, however many tensors alias
    /// it (docs/rules.md E11). With one, a mapped import touches no weight page. 1..64.
    unsigned threads = 1;
    static constexpr unsigned max_threads = 64;

    /// Map external-data files (one read-only mapping per file); off: each tensor's range
    /// is read into memory (spec section 5, rule 4), ranges that overlap once, into one
    /// buffer their tensors share (docs/rules.md E11).
    bool map_external_files = true;

    /// Set: the import adds the time of each step it takes to that step there, as the step
    /// ends (so one ImportTimes can sum many imports). Null (the default): no clock is read.
    ImportTimes* times = nullptr;
};

}  // namespace onnximport
