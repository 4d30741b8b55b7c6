// The one exception type of the importer (spec section 7).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace onnximport {

/// What is wrong with the input. Every refusal carries exactly one kind.
enum class ErrorKind {
    Malformed,     ///< bytes that are not valid protobuf
    InvalidModel,  ///< valid protobuf that is not a valid model
    Unsupported,   ///< valid, but beyond what this importer accepts (limits, segments)
    ExternalData,  ///< an external-data reference that is refused
    Io,            ///< the operating system failed us (open, read, map)
};

/// "Malformed", "InvalidModel", ... as printed by the CLI.
std::string_view to_string(ErrorKind kind);
/// "malformed", "invalidmodel", ... as used in hostile file names.
std::string_view to_lower_string(ErrorKind kind);

/// Everything wrong with the input is reported as an ImportError.
class ImportError : public std::runtime_error {
public:
    ImportError(ErrorKind kind, std::string source_name, std::optional<uint64_t> offset,
                std::string field_path, std::string message);

    ErrorKind kind() const noexcept { return kind_; }
    const std::string& source_name() const noexcept { return source_name_; }
    /// Byte offset from the start of the model file or byte array, when known.
    std::optional<uint64_t> offset() const noexcept { return offset_; }
    /// Such as "ModelProto.graph.node[3].attribute[1].t"; empty when unknown.
    const std::string& field_path() const noexcept { return field_path_; }
    /// The message alone, without kind, name, offset or path.
    const std::string& message() const noexcept { return message_; }

private:
    ErrorKind kind_;
    std::string source_name_;
    std::optional<uint64_t> offset_;
    std::string field_path_;
    std::string message_;
};

}  // namespace onnximport
