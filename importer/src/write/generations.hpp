// External-data files by generation (docs/write.md, "Generations"): both writers write
// their external file (a `.ort`'s companion) at the requested name only where nothing is
// there, else under a fresh name `w.<16 hex digits>.bin` in the same folder, and never over
// an existing file; the model, which names the file it was written with, is renamed over
// the old model last. Once it is in place, the data files it superseded are removed unless
// some `*.onnx` or `*.ort` of its folder still names them.
#pragma once

#include "write/output_dir.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace onnximport::detail {

struct WriteFaults;
class AtomicFile;

/// Whether `leaf` has a generation name's form: `w.`, 16 lowercase hex digits, `.bin`.
bool is_generation_name(std::string_view leaf) noexcept;

class Generations {
public:
    /// Chooses the location for `requested` (checked by OutputDir::parent_of), relative to
    /// `dir`, the model's folder. The OutputDir must outlive this.
    /// @throws ImportError(ExternalData | Unsupported) as AtomicFile does for a refused name,
    ///         a link or a non-file at it, or a file the model reads; Io when the system fails.
    Generations(const OutputDir& dir, std::string requested, WriteFaults* faults);

    /// The external file's name relative to the model's folder: what the model names.
    const std::string& location() const noexcept { return location_; }
    /// Whether location() is a generation name, the requested name being taken.
    bool renamed() const noexcept { return location_ != requested_; }

    /// After the model's rename: removes the superseded files (generation names other than
    /// location(), and the requested name when renamed()) that no `*.onnx` or `*.ort` of the
    /// model's folder or of the data's folder names, no live writer holds and the input does not read.
    void remove_superseded() noexcept;

private:
    void remove_if_unnamed(int folder, const std::string& leaf) noexcept;

    const OutputDir& dir_;
    std::string requested_;
    std::string location_;
    std::string prefix_;  ///< the folders of `requested`, with their slash
    WriteFaults* faults_;
};

/// Renames `data` (never over a file) and then `model` into place; once the model is, removes
/// the files `generations` superseded and calls `told` with the data's generation name, if it
/// took one. `data` null: no external file written; `generations` null: none asked for.
void commit_generation(AtomicFile& model, AtomicFile* data, Generations* generations,
                       const std::function<void(const std::string&)>& told);

}  // namespace onnximport::detail
