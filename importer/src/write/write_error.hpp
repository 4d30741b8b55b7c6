// How the writers report: the importer's one ImportError (core/refusal.hpp), so that the
// CLI and library users catch a single type for reading and writing alike. The source
// name is the output path; the offset, when known, is the byte of the output file where
// writing failed; the field path names the model part (a tensor) the refusal concerns.
#pragma once

#include <onnximport/error.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// An operating-system failure while writing `path`: Io, with strerror(error) appended.
[[noreturn]] void fail_io(std::string_view path, const std::string& what, int error,
                          std::optional<uint64_t> offset = std::nullopt);

/// A request the writer refuses (a name, a link, an option): Unsupported unless told.
[[noreturn]] void fail_request(std::string_view path, const std::string& message,
                               ErrorKind kind = ErrorKind::Unsupported, std::string field_path = {});

/// Refuses (Unsupported) a writer's `threads` outside 1 to ImportOptions::max_threads: both
/// writers refuse option misuse one way (docs/write.md, "The two writers' options").
void check_threads(std::string_view path, unsigned threads);

}  // namespace onnximport::detail
