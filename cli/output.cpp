// check's output formats (docs/cli.md, "check").
#include "output.hpp"

#include "escape.hpp"

namespace onnximport::cli {

std::string ok_line(std::string_view file) { return escape(file) + "\tok"; }

std::string refusal_line(std::string_view file, const onnximport::ImportError& e) {
    std::string line = escape(file);
    line += '\t';
    line += onnximport::to_string(e.kind());
    line += '\t';
    line += e.offset() ? std::to_string(*e.offset()) : "-";
    line += '\t';
    line += e.field_path().empty() ? "-" : escape(e.field_path());
    line += '\t';
    line += escape(e.message());
    return line;
}

void set_name(nlohmann::ordered_json& object, const std::string& key, std::string_view bytes) {
    object[key] = std::string(bytes);
    if (is_utf8(bytes)) return;
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char c : bytes) {
        hex += digits[c >> 4];
        hex += digits[c & 0x0F];
    }
    object[key + "_hex"] = hex;
}

nlohmann::ordered_json ok_record(std::string_view file) {
    nlohmann::ordered_json record = nlohmann::ordered_json::object();
    set_name(record, "file", file);
    record["status"] = "ok";
    return record;
}

nlohmann::ordered_json refusal_record(std::string_view file, const onnximport::ImportError& e) {
    nlohmann::ordered_json record = nlohmann::ordered_json::object();
    set_name(record, "file", file);
    record["status"] = "refused";
    record["kind"] = std::string(onnximport::to_string(e.kind()));
    record["offset"] = e.offset() ? nlohmann::ordered_json(*e.offset()) : nlohmann::ordered_json(nullptr);
    record["field_path"] =
        e.field_path().empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(e.field_path());
    record["message"] = e.message();
    return record;
}

std::string to_json_line(const nlohmann::ordered_json& value) {
    return value.dump(-1, ' ', /*ensure_ascii=*/true, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace onnximport::cli
