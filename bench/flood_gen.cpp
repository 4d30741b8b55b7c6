// Writing the flooding models. Every crafted name set is 2^15 names of 16 bytes
// sharing one std::hash value (hash_collide.cpp); the ordinary twin draws names of the same
// length from the same characters. One set serves all four kinds, since a collision under
// std::hash does not depend on where the name sits.
//
//   opsets-*      opset_import: 2^15 entries, each a distinct domain, version 1
//   captures-*    an If whose then_branch has a Concat reading 2^15 outer graph inputs
//   values-*      2^15 Identity nodes, each defining one name, and a Concat reading them all
//   external-*/model.onnx   2^15 initializers, each in its own 4-byte file named by a name
//   external-14-*/model.onnx  the same with the first 2^14 names, for an importer that keeps
//                   every file open (7c3d4f1) under an open-file limit of 20,000
//   values-oldhash  values-* with names colliding under the old hash_name for every seed:
//                   not valid UTF-8, so an importer refuses the model before hashing a name
//   short-values-*  values-* with 15-byte names, which the importer hashes by multiply-shift:
//                   equal but for the high bytes of their first word, or random
//   medium-values-* values-* with 39-byte names, which the importer hashes by NH: twins with
//                   their first two words swapped (swapped_word_names), or random
#include "flood_gen.hpp"

#include "hash_collide.hpp"

#include <onnx_builders.hpp>
#include <onnx_fields.hpp>
#include <wire_writer.hpp>

#include <fstream>
#include <stdexcept>
#include <string>

namespace gauntlet::bench {

namespace {

using onnximport::testing::WireWriter;
namespace testing = onnximport::testing;
namespace P = onnximport::proto;
using onnximport::proto::operator+;

/// Bump when a generator changes: the stamp makes `make bench` regenerate.
constexpr const char* flood_version = "gauntlet-flood-models v4";
constexpr int32_t float_type = 1, bool_type = 9;  // TensorProto.FLOAT, BOOL
constexpr int old_hash_bits = 15;                 // 2^15 names colliding under the old hash

void write_file(const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + p.string());
}

WireWriter concat(const std::vector<std::string>& inputs, const std::string& output) {
    return testing::node("Concat", inputs, {output}).message(+P::Node::attribute, testing::attr_int("axis", 0));
}

std::string opsets_model(const std::vector<std::string>& names) {
    WireWriter m = testing::model(testing::minimal_graph());
    for (auto& n : names) m.message(+P::Model::opset_import, testing::opset(n, 1));
    return m.str();
}

std::string captures_model(const std::vector<std::string>& names) {
    WireWriter then_g;
    then_g.message(+P::Graph::node, concat(names, "t")).bytes_field(+P::Graph::name, "then");
    then_g.message(+P::Graph::output, testing::value_info("t"));
    WireWriter else_g;
    else_g.message(+P::Graph::node, testing::node("Identity", {names[0]}, {"e"})).bytes_field(+P::Graph::name, "else");
    else_g.message(+P::Graph::output, testing::value_info("e"));
    WireWriter if_node = testing::node("If", {"cond"}, {"y"}, "if");
    if_node.message(+P::Node::attribute, testing::attr_graph("then_branch", then_g));
    if_node.message(+P::Node::attribute, testing::attr_graph("else_branch", else_g));
    WireWriter g;
    g.message(+P::Graph::node, if_node).bytes_field(+P::Graph::name, "captures");
    g.message(+P::Graph::input, testing::value_info("cond", bool_type, {}));
    for (auto& n : names) g.message(+P::Graph::input, testing::value_info(n));
    g.message(+P::Graph::output, testing::value_info("y"));
    return testing::model(g).str();
}

std::string values_model(const std::vector<std::string>& names) {
    WireWriter g;
    for (auto& n : names) g.message(+P::Graph::node, testing::node("Identity", {"X"}, {n}));
    g.message(+P::Graph::node, concat(names, "Y")).bytes_field(+P::Graph::name, "values");
    g.message(+P::Graph::input, testing::value_info("X"));
    g.message(+P::Graph::output, testing::value_info("Y"));
    return testing::model(g).str();
}

/// The model and its 2^15 weight files, in `folder`.
void write_external(const std::filesystem::path& folder, const std::vector<std::string>& names) {
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    WireWriter g;
    g.message(+P::Graph::node, testing::node("Identity", {"X"}, {"Y"})).bytes_field(+P::Graph::name, "external");
    const std::string weight(4, '\0');  // one float 0.0
    for (size_t i = 0; i < names.size(); ++i) {
        WireWriter t;
        t.int_field(+P::Tensor::dims, 1).int_field(+P::Tensor::data_type, float_type);
        // Not "w" + std::to_string(i): GCC 12's -Wrestrict misfires on it at -O3.
        t.bytes_field(+P::Tensor::name, std::string(1, 'w').append(std::to_string(i)));
        t.message(+P::Tensor::external_data, WireWriter()
                                                 .bytes_field(+P::StringStringEntry::key, "location")
                                                 .bytes_field(+P::StringStringEntry::value, names[i]));
        t.int_field(+P::Tensor::data_location, 1);  // EXTERNAL
        g.message(+P::Graph::initializer, t);
        write_file(folder / names[i], weight);
    }
    g.message(+P::Graph::input, testing::value_info("X"));
    g.message(+P::Graph::output, testing::value_info("Y"));
    write_file(folder / "model.onnx", testing::model(g).str());
}

}  // namespace

std::vector<std::filesystem::path> generate_flood_models(const std::filesystem::path& dir, bool force) {
    const std::vector<std::filesystem::path> paths{
        dir / "opsets-crafted.onnx",   dir / "opsets-ordinary.onnx",   dir / "captures-crafted.onnx",
        dir / "captures-ordinary.onnx", dir / "values-crafted.onnx",   dir / "values-ordinary.onnx",
        dir / "external-crafted" / "model.onnx", dir / "external-ordinary" / "model.onnx",
        dir / "values-oldhash.onnx", dir / "external-14-crafted" / "model.onnx",
        dir / "external-14-ordinary" / "model.onnx", dir / "short-values-crafted.onnx",
        dir / "short-values-ordinary.onnx", dir / "medium-values-crafted.onnx", dir / "medium-values-ordinary.onnx"};
    const auto stamp = dir / "flood.stamp";
    if (!force) {
        std::ifstream in(stamp);
        std::string line;
        bool all = true;
        for (auto& p : paths) all = all && std::filesystem::exists(p);
        if (all && std::getline(in, line) && line == flood_version) return paths;
    }
    std::filesystem::create_directories(dir);
    std::filesystem::remove(stamp);
    const auto crafted = std_hash_colliding(flood_names, 0x5eed0001);
    const auto ordinary = ordinary_names(flood_names, 0x5eed0002);
    const auto old_crafted = old_hash_colliding(old_hash_bits, 0x5eed0003);
    size_t valid = 0;
    for (auto& n : old_crafted) valid += valid_utf8(n);
    if (valid != 1) throw std::logic_error("values-oldhash: expected only the base name to be valid UTF-8");
    write_file(paths[0], opsets_model(crafted));
    write_file(paths[1], opsets_model(ordinary));
    write_file(paths[2], captures_model(crafted));
    write_file(paths[3], captures_model(ordinary));
    write_file(paths[4], values_model(crafted));
    write_file(paths[5], values_model(ordinary));
    write_external(paths[6].parent_path(), crafted);
    write_external(paths[7].parent_path(), ordinary);
    write_file(paths[8], values_model(old_crafted));
    const auto half = [](const std::vector<std::string>& v) {
        return std::vector<std::string>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2));
    };
    write_external(paths[9].parent_path(), half(crafted));
    write_external(paths[10].parent_path(), half(ordinary));
    write_file(paths[11], values_model(high_bytes_only_names(flood_names)));
    write_file(paths[12], values_model(ordinary_names(flood_names, 0x5eed0004, 15)));
    write_file(paths[13], values_model(swapped_word_names(flood_names)));
    write_file(paths[14], values_model(ordinary_names(flood_names, 0x5eed0005, 39)));
    std::ofstream(stamp) << flood_version << '\n';
    return paths;
}

}  // namespace gauntlet::bench
