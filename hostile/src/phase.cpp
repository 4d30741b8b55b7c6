// The phase in which a careful importer refuses a case (docs/rules.md, "Phases of refusal"),
// as Test262 names the phase of its negative tests. It follows from what the case breaks:
// the error kind, the file's format and the spec section of its rule.
#include "corpus.hpp"

#include <map>
#include <stdexcept>

namespace hostile {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// A valid-protobuf `.onnx` refusal that is not about external data: by the spec section
// of its rule. Section 7's rules are about error messages, whose cases break the graph.
std::string onnx_semantic_phase(std::string_view section) {
    static const std::map<std::string_view, std::string> by_section = {
        {"1", "message"}, {"2", "message"}, {"3", "tensor"}, {"4", "graph"}, {"7", "graph"}};
    auto it = by_section.find(section);
    if (it == by_section.end()) throw std::runtime_error("no refusal phase for section " + std::string(section));
    return it->second;
}

}  // namespace

std::string refusal_phase(const Case& k) {
    if (k.accept) return "";
    if (k.kind == "ExternalData") return "external";
    if (std::string_view(k.rule.id) == "O16") return "format";  // both formats at once, whatever the name
    if (ends_with(k.file, ".ort")) return k.kind == "Malformed" || k.kind == "Io" ? "ort-verify" : "ort-semantic";
    // The bytes cannot be read, or are not protobuf, or too many of them (W19).
    if (k.kind == "Malformed" || k.kind == "Io" || std::string_view(k.rule.id) == "W19") return "wire";
    return onnx_semantic_phase(k.rule.section);
}

}  // namespace hostile
