// What the sweep's programs share: finding the models of a data set, one-line refusal
// records, writing a result file.
#pragma once

#include <onnximport/error.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sweep {

namespace fs = std::filesystem;

/// Every DATA_DIR/<rel>/NAME, as <rel>, sorted so runs are comparable. <rel> is the path as
/// walked (folders that are links included), never resolved: OUT_DIR/<rel> stays in OUT_DIR.
inline std::vector<std::string> find_models(const fs::path& root, const std::string& file) {
    std::vector<std::string> rels;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink);
         it != fs::recursive_directory_iterator(); ++it) {
        if (it->path().filename() == file && it->is_regular_file())
            rels.push_back(it->path().parent_path().lexically_relative(root).generic_string());
    }
    std::sort(rels.begin(), rels.end());
    return rels;
}

/// KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE, tabs and newlines in the parts made spaces.
inline std::string refusal_record(const onnximport::ImportError& e) {
    std::string s = std::string(onnximport::to_string(e.kind())) + '\t' +
                    (e.offset() ? std::to_string(*e.offset()) : "-") + '\t' +
                    (e.field_path().empty() ? "-" : e.field_path()) + '\t';
    std::string message = e.message();
    for (char& ch : message)
        if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return s + message + '\n';
}

inline bool write_file(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return static_cast<bool>(out);
}

}  // namespace sweep
