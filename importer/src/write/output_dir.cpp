// Opening the output folder and the folders of names beneath it, never through a link.
#include "write/output_dir.hpp"

#include "external/location.hpp"
#include "write/write_error.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace onnximport::detail {

UniqueFd open_folder_nofollow(int parent, const std::string& name, std::string_view shown) {
    // O_PATH | O_NOFOLLOW opens a link itself, so fstat tells a link from a folder.
    UniqueFd node(::openat(parent, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!node) fail_io(shown, "cannot open the output folder", errno);
    struct stat st {};
    if (::fstat(node.get(), &st) != 0) fail_io(shown, "cannot stat the output folder", errno);
    if (S_ISLNK(st.st_mode)) fail_request(shown, "the output folder is or passes through a symbolic link");
    if (!S_ISDIR(st.st_mode)) fail_request(shown, "the output folder is not a folder");
    // Reopened through the descriptor held, not by name: the same folder that was checked.
    UniqueFd dir(::openat(node.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) fail_io(shown, "cannot open the output folder", errno);
    return dir;
}

OutputDir::OutputDir(const std::filesystem::path& dir, std::vector<FileId> kept)
    : path_(dir.empty() ? "." : dir), kept_(std::move(kept)) {
    const bool absolute = path_.is_absolute();
    fd_ = UniqueFd(::open(absolute ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd_) fail_io(path_.string(), "cannot open the output folder", errno);
    for (const auto& part : path_.relative_path()) {
        const std::string name = part.string();
        if (name.empty() || name == ".") continue;  // "a//b", "a/./b" and a trailing "/"
        if (name == "..") {
            // `..` of a folder reached without links is its real parent.
            UniqueFd up(::openat(fd_.get(), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
            if (!up) fail_io(path_.string(), "cannot open the output folder", errno);
            fd_ = std::move(up);
            continue;
        }
        fd_ = open_folder_nofollow(fd_.get(), name, path_.string());
    }
}

std::string OutputDir::display(std::string_view name) const { return (path_ / std::string(name)).string(); }

bool OutputDir::is_kept(const struct stat& st) const noexcept {
    const FileId id = FileId::of(st);
    for (const FileId& k : kept_)
        if (k == id) return true;
    return false;
}

OutputDir::Parent OutputDir::parent_of(std::string_view name, const std::string& field_path) const {
    if (auto why = check_location(name))
        fail_request(display(name), "output name refused: " + *why, ErrorKind::ExternalData, field_path);
    const size_t last_slash = name.rfind('/');
    Parent out{fd_.get(), UniqueFd(),
               std::string(name.substr(last_slash == std::string_view::npos ? 0 : last_slash + 1))};
    if (out.leaf.empty() || out.leaf == ".")
        fail_request(display(name), "output name refused: it names a folder", ErrorKind::ExternalData, field_path);
    size_t start = 0;
    for (size_t slash; (slash = name.find('/', start)) != std::string_view::npos; start = slash + 1) {
        const std::string folder(name.substr(start, slash - start));
        if (folder.empty() || folder == ".") continue;
        out.owned = open_folder_nofollow(out.fd, folder, display(name));
        out.fd = out.owned.get();
    }
    return out;
}

}  // namespace onnximport::detail
