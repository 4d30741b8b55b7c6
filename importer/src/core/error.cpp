// The one exception type (spec section 7).
#include <onnximport/error.hpp>

namespace onnximport {

std::string_view to_string(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Malformed: return "Malformed";
    case ErrorKind::InvalidModel: return "InvalidModel";
    case ErrorKind::Unsupported: return "Unsupported";
    case ErrorKind::ExternalData: return "ExternalData";
    case ErrorKind::Io: return "Io";
    }
    return "?";
}

std::string_view to_lower_string(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Malformed: return "malformed";
    case ErrorKind::InvalidModel: return "invalidmodel";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::ExternalData: return "externaldata";
    case ErrorKind::Io: return "io";
    }
    return "?";
}

namespace {

std::string describe(ErrorKind kind, const std::string& name, std::optional<uint64_t> offset,
                     const std::string& path, const std::string& message) {
    // Appends only: GCC 12 at -O3 warns (-Wrestrict) on chains of operator+ temporaries.
    // One allocation: the parts, their separators and an offset's 20 digits.
    std::string s;
    s.reserve(to_string(kind).size() + name.size() + path.size() + message.size() + 40);
    s.append(to_string(kind));
    s.append(": ").append(name);
    if (offset) s.append(" at byte ").append(std::to_string(*offset));
    if (!path.empty()) s.append(" (").append(path).append(")");
    s.append(": ").append(message);
    return s;
}

}  // namespace

ImportError::ImportError(ErrorKind kind, std::string source_name, std::optional<uint64_t> offset,
                         std::string field_path, std::string message)
    : std::runtime_error(describe(kind, source_name, offset, field_path, message)),
      kind_(kind),
      source_name_(std::move(source_name)),
      offset_(offset),
      field_path_(std::move(field_path)),
      message_(std::move(message)) {}

}  // namespace onnximport
