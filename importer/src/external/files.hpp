// The external-data files of one import (spec section 5, rules 2 and 4): each opened
// beneath the directory once, mapped read-only (or kept to read ranges from), and tensors
// pointed into them. Shared by the .onnx references (external_data.cpp) and the .ort
// companion file (ort_companion.cpp), which differ only in how a tensor names its range.
#pragma once

#include "external/safe_open.hpp"
#include "io/file_view.hpp"
#include "io/unique_fd.hpp"
#include "model/storage.hpp"

#include <onnximport/error.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

class ExternalFiles {
public:
    /// `dir`: the external-data directory, null when there is none (open() then refuses).
    /// `leaf`: the field that refusals of a reference name after the tensor's path
    /// ("external_data" for .onnx, "external_data_offset" for .ort).
    ExternalFiles(Storage& s, const ImportOptions& options, const std::filesystem::path* dir, std::string_view leaf);
    /// Bytes are in place by now: files read without a mapping need no descriptor.
    ~ExternalFiles();
    ExternalFiles(const ExternalFiles&) = delete;
    ExternalFiles& operator=(const ExternalFiles&) = delete;

    /// The file `location` names (already checked by check_location) beneath the
    /// directory, opened and mapped once per Model whatever names it; refusals name `t`.
    FileView& open(const TensorView& t, std::string_view location);
    /// Points `t` at its byte_size() bytes at `offset` of `file`, refusing a range that
    /// passes the end of the file. Where the file is not mapped, the bytes are read, and
    /// `t` pointed at them, by read_ranges().
    void bind(TensorView& t, const FileView& file, uint64_t offset, std::string_view location);
    /// Reads the ranges of the unmapped files that bind() has named, on up to
    /// ImportOptions::threads threads (core/pool.hpp). Ranges of one file that overlap are
    /// read once, as their union, into one buffer their tensors share (core/intervals.hpp):
    /// memory and reads are bounded by the bytes named, not by the tensors naming them. A
    /// failure is refused at the first tensor in binding order of the first union whose
    /// read failed, as one thread would meet it (with no overlap: the first tensor whose
    /// read failed).
    void read_ranges();

    /// A refusal at the tensor's offset, its path followed by `.leaf` when given.
    [[noreturn]] void fail(const TensorView& t, ErrorKind kind, std::string_view leaf,
                           const std::string& message) const;
    /// A refusal of the reference itself: at the leaf given to the constructor.
    [[noreturn]] void refuse_reference(const TensorView& t, const std::string& message) const {
        fail(t, ErrorKind::ExternalData, leaf_, message);
    }

private:
    Storage& s_;
    const ImportOptions& options_;
    const std::filesystem::path* dir_;
    std::string_view leaf_;
    UniqueFd dirfd_;
    /// Within one import, a location opened once is not opened again (many tensors
    /// usually share one file; this saves a lookup per tensor). Keyed by input bytes:
    /// hashed with the import's key (core/hash.hpp).
    std::unordered_map<std::string_view, FileView*, NameHash> by_location_;
    /// A tensor's range of an unmapped file, in binding order.
    struct RangeRead {
        const FileView* file;
        uint64_t offset;
        uint64_t size;
        TensorView* tensor;
        std::string_view location;
    };
    std::vector<RangeRead> reads_;

    /// The external-data directory's descriptor, opened for the first tensor that needs it;
    /// `quoted` is that tensor's location as refusals quote it.
    int directory_fd(const TensorView& t, const std::string& quoted);
    /// Refuses every outcome but Opened, in the words of the spec's rules.
    void check_opened(const TensorView& t, const OpenOutcome& o, const std::string& quoted) const;
};

}  // namespace onnximport::detail
