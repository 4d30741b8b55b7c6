// The files a model reads: its input file and its external-data files (a .ort's companion
// among them). A writer replaces none of them (docs/write.md, "The input survives"): the
// output folder refuses any output name that is one of these files, by device and inode.
#pragma once

#include "io/file_id.hpp"

#include <onnximport/model.hpp>

#include <vector>

namespace onnximport::detail {

/// Empty for a model imported from bytes with no external data.
std::vector<FileId> files_read(const Model& model);

}  // namespace onnximport::detail
