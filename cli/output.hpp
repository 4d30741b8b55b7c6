// `check`'s records as a tab-separated line or a JSON object (docs/cli.md, "check"), and
// JSON strings for any bytes.
#pragma once

#include <onnximport/error.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace onnximport::cli {

/// FILE<TAB>ok
std::string ok_line(std::string_view file);
/// FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE, every field escaped, `-` when unknown.
std::string refusal_line(std::string_view file, const onnximport::ImportError& e);

/// Sets object[key] to the bytes as text and, when they are not UTF-8 (a file name can be
/// any bytes), object[key + "_hex"] to their hex digits so that nothing is lost.
void set_name(nlohmann::ordered_json& object, const std::string& key, std::string_view bytes);

/// {"file": ..., "status": "ok"}
nlohmann::ordered_json ok_record(std::string_view file);
/// {"file": ..., "status": "refused", "kind", "offset", "field_path", "message"}
nlohmann::ordered_json refusal_record(std::string_view file, const onnximport::ImportError& e);

/// One line of ASCII JSON: bytes outside UTF-8 become U+FFFD, the rest \u escapes.
std::string to_json_line(const nlohmann::ordered_json& value);

}  // namespace onnximport::cli
