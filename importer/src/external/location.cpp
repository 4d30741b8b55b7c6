// External-data entries and location rules (spec section 5, rules 1 and 3).
#include "external/location.hpp"

#include "core/text.hpp"

#include <cstdint>
#include <limits>

namespace onnximport::detail {

namespace {

bool is_separator(char ch) { return ch == '/' || ch == '\\'; }

bool is_ascii_letter(char ch) { return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'); }

/// True when some segment of `location`, split at / and at \, equals `segment`.
bool has_segment(std::string_view location, std::string_view segment) {
    size_t start = 0;
    for (size_t i = 0; i <= location.size(); ++i) {
        if (i == location.size() || is_separator(location[i])) {
            if (location.substr(start, i - start) == segment) return true;
            start = i + 1;
        }
    }
    return false;
}

}  // namespace

std::string quoted_text(std::string_view text) { return quoted(text, '\''); }

std::optional<uint64_t> parse_decimal(std::string_view text) {
    if (text.empty()) return std::nullopt;
    constexpr uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    uint64_t v = 0;
    for (char ch : text) {
        if (ch < '0' || ch > '9') return std::nullopt;
        auto digit = static_cast<uint64_t>(ch - '0');
        // v * 10 + digit <= max, checked without computing anything that could wrap.
        if (v > (max - digit) / 10) return std::nullopt;
        v = v * 10 + digit;
    }
    return v;
}

std::optional<std::string> check_location(std::string_view location) {
    const std::string q = quoted_text(location);
    if (location.empty()) return std::string("external data location is empty");
    // ONNX Runtime writes this marker for tensors whose bytes live in its own process
    // memory; the address means nothing in a file, and following it would read memory.
    if (has_segment(location, "_ORT_MEM_ADDR_"))
        return "external data location " + q +
               " is ONNX Runtime's in-memory marker (_ORT_MEM_ADDR_), which a model file cannot use";
    if (location.find('\0') != std::string_view::npos)
        return "external data location " + q + " contains a NUL byte";
    if (is_separator(location[0]))
        return "external data location " + q + " is an absolute path; it must be relative to the model's directory";
    if (location.size() >= 2 && is_ascii_letter(location[0]) && location[1] == ':')
        return "external data location " + q + " starts with a drive letter; it must be a relative path";
    if (has_segment(location, ".."))
        return "external data location " + q + " has a '..' segment; it must stay inside the external-data directory";
    return std::nullopt;
}

std::optional<std::string> parse_entries(std::span<const StringStringEntry> entries, ExternalRef& out) {
    out = ExternalRef{};
    bool has_location = false;
    bool has_offset = false;
    bool has_length = false;
    std::string_view offset_text;
    std::string_view length_text;
    for (const auto& e : entries) {
        if (e.key == "location") {
            // Two locations could name two files; which one a reader picks is up to the
            // reader, so a model that depends on it is refused rather than guessed at.
            if (has_location)
                return "external_data has duplicate location keys (" + quoted_text(out.location) + " and " +
                       quoted_text(e.value) + ")";
            has_location = true;
            out.location = e.value;
        } else if (e.key == "offset") {
            if (has_offset) return std::string("external_data has duplicate offset keys");
            has_offset = true;
            offset_text = e.value;
        } else if (e.key == "length") {
            if (has_length) return std::string("external_data has duplicate length keys");
            has_length = true;
            length_text = e.value;
        }
        // checksum is ignored by the spec; other keys are unknown and ignored.
    }
    if (!has_location) return std::string("external_data has no location entry");
    if (auto bad = check_location(out.location)) return bad;
    const std::string where = " (location " + quoted_text(out.location) + ")";
    if (has_offset) {
        auto v = parse_decimal(offset_text);
        if (!v)
            return "external data offset " + quoted_text(offset_text) +
                   " is not a non-negative decimal integer within int64" + where;
        out.offset = *v;
    }
    if (has_length) {
        auto v = parse_decimal(length_text);
        if (!v)
            return "external data length " + quoted_text(length_text) +
                   " is not a non-negative decimal integer within int64" + where;
        out.length = *v;
    }
    return std::nullopt;
}

}  // namespace onnximport::detail
