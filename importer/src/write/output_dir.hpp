// The folder a writer writes into: opened once, and every file of the output
// is created beneath that one descriptor, never through a symbolic link.
//
// Tighter than the reading rules (spec section 5), on purpose: a reader follows links that
// stay inside its directory, a writer follows none. Every component of the target folder's
// path as given is opened with O_NOFOLLOW, so a folder that is, or passes through, a
// symbolic link is refused (resolve it first, e.g. with realpath, to write there); `..` in
// the folder's path is the caller's choice and allowed. File names beneath it are checked
// by check_location's rules (relative, no `..`, no drive letter) and their folders, which
// must exist, are walked the same way.
#pragma once

#include "io/file_id.hpp"
#include "io/unique_fd.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport::detail {

class OutputDir {
public:
    /// Opens `dir` (created by nobody: it must exist). `kept`: files no output may replace
    /// (the model's input and the files it reads: files_read.hpp).
    /// @throws ImportError(Unsupported) for a link or a non-folder on the way; Io otherwise.
    explicit OutputDir(const std::filesystem::path& dir, std::vector<FileId> kept = {});

    /// The folder that holds `name` (relative, checked), as a descriptor to create in,
    /// and the last component of `name`. `field_path` names the model part in refusals.
    /// @throws ImportError(ExternalData) for a name that would escape; Unsupported for a link.
    struct Parent {
        int fd;          ///< this OutputDir's own descriptor, or `owned`'s
        UniqueFd owned;  ///< set when `name` has folders
        std::string leaf;
    };
    Parent parent_of(std::string_view name, const std::string& field_path = {}) const;

    int fd() const noexcept { return fd_.get(); }
    /// The folder's path as given, for messages and the full path of a file.
    const std::filesystem::path& path() const noexcept { return path_; }
    std::string display(std::string_view name) const;
    /// Whether the file of `st` is one no output may replace.
    bool is_kept(const struct stat& st) const noexcept;

private:
    std::filesystem::path path_;
    UniqueFd fd_;  ///< O_RDONLY | O_DIRECTORY: creates beneath it and can be fsync'ed
    std::vector<FileId> kept_;
};

/// Opens the folder `name` beneath `parent` without following a link; for messages, `shown`.
/// @throws ImportError(Unsupported) for a link or a non-folder, Io for other failures.
UniqueFd open_folder_nofollow(int parent, const std::string& name, std::string_view shown);

}  // namespace onnximport::detail
