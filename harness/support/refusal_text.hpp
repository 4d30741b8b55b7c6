// What a refusal's text must look like (spec section 7: kind, offset and field path): a field path
// of a root and steps, a message without control bytes. The rules the fuzz targets
// (harness/fuzz/fuzz_check.hpp) and the hostile corpus's tests apply to every refusal. Needs
// nothing of the importer: fuzz_wire includes it too.
#pragma once

#include <algorithm>
#include <cctype>
#include <string_view>

namespace gauntlet {

/// Whether `s` is a field's name: lower case, digits after the first, '_'; a root (the message
/// or table a walk starts at) may hold capitals.
inline bool is_field_name(std::string_view s, bool root) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [root](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return std::islower(c) || std::isdigit(c) || c == '_' || (root && std::isupper(c));
    });
}

/// A field's name, or past the root an entry of a repeated field with its decimal index ("node[3]").
inline bool is_path_step(std::string_view s, bool root) {
    const size_t open = s.find('[');
    if (open == std::string_view::npos) return is_field_name(s, root);
    if (root || s.back() != ']' || !is_field_name(s.substr(0, open), false)) return false;
    const std::string_view index = s.substr(open + 1, s.size() - open - 2);
    return !index.empty() && std::all_of(index.begin(), index.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch));
    });
}

/// What is wrong with a refusal's field path, or null: a path is empty or a root and steps, and
/// names no entry twice in a row ("inputs[0].inputs[0]": no entry of either schema holds a field
/// of its own name, so the entry was pushed twice; a field's name may repeat, as .ort's
/// MapType.value_type is a TypeInfo, whose union's tag is its value_type).
inline const char* path_problem(std::string_view path) {
    std::string_view before;
    for (bool root = true; !path.empty(); root = false) {
        const size_t dot = path.find('.');
        const std::string_view step = path.substr(0, dot);
        if (!is_path_step(step, root)) return "a step that is neither a field's name nor an entry";
        if (step == before && step.back() == ']') return "an entry named twice in a row";
        if (dot == std::string_view::npos) break;
        before = step;
        path.remove_prefix(dot + 1);
        if (path.empty()) return "a path that ends with a dot";
    }
    return nullptr;
}

/// Whether `text` holds a control byte (below 0x20, or 0x7F): a refusal's message holds none, input
/// bytes being quoted escaped (importer/src/core/text.hpp).
inline bool has_control_byte(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F; });
}

}  // namespace gauntlet
