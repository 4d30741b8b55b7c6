// Hostile .ort cases: the .ort rules of docs/rules.md (section O), structure and
// semantics, each built with FlatBuffers' generated builder (harness/support/
// ort_builder.hpp) and, where a builder cannot write it, patched at the place the
// generated accessors locate. Files are <kind>-ort-<case>.ort.
#include "corpus.hpp"

#include <onnx_builders.hpp>
#include <ort_builder.hpp>
#include <ort_polyglot.hpp>

#include <cstring>
#include <functional>

namespace hostile {

namespace {

namespace ob = onnximport::testing;
namespace ofb = onnximport::ortfb;
using Bytes = std::vector<uint8_t>;

// The rules .ort cases exercise (docs/rules.md, section O).
constexpr Rule detect{"O1", "ort"};
constexpr Rule verify{"O2", "ort"};
constexpr Rule layouts{"O3", "ort"};
constexpr Rule zero_offsets{"O4", "ort"};
constexpr Rule version{"O5", "ort"};
constexpr Rule tensors{"O6", "ort"};
constexpr Rule external{"O7", "ort"};
constexpr Rule nodes{"O8", "ort"};
constexpr Rule edges{"O9", "ort"};
constexpr Rule node_args{"O10", "ort"};
constexpr Rule arg_counts{"O11", "ort"};
constexpr Rule unions{"O12", "ort"};
constexpr Rule same_model{"O13", "ort"};
constexpr Rule companion{"O14", "ort"};
constexpr Rule one_format{"O16", "ort"};
constexpr Rule nesting{"O18", "ort"};

std::string str(const Bytes& b) { return {b.begin(), b.end()}; }

/// The minimal .onnx with ir_version 9 and a 13-byte producer_name first: 08 09 12 0d "ORTM".
std::string onnx_carrying_ortm() {
    namespace p = onnximport::proto;
    return ob::WireWriter()
        .int_field(p::Model::ir_version, 9)
        .bytes_field(p::Model::producer_name, "ORTM-producer")
        .message(p::Model::graph, ob::minimal_graph())
        .message(p::Model::opset_import, ob::opset("", 21))
        .str();
}
std::string built(const ob::OrtModelSpec& m) { return str(ob::build_ort(m)); }

/// A spec changed by `edit`, built.
std::string edited(const std::function<void(ob::OrtModelSpec&)>& edit, ob::OrtModelSpec m = ob::relu_model()) {
    edit(m);
    return built(m);
}

/// The built bytes with `patch` applied at places found through the generated accessors.
std::string patched(const ob::OrtModelSpec& m, const std::function<void(Bytes&, const ofb::InferenceSession*)>& patch) {
    Bytes b = ob::build_ort(m);
    patch(b, ofb::GetInferenceSession(b.data()));
    return str(b);
}

size_t at(const Bytes& b, const void* p) { return static_cast<const uint8_t*>(p) - b.data(); }
void put32(Bytes& b, size_t where, uint32_t v) { std::memcpy(b.data() + where, &v, 4); }
template <class T>
size_t field_at(const Bytes& b, const T* table, uint16_t vt) {
    return at(b, reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(vt));
}

/// A branch of an If: `nodes` ending in `out`, with a NodeArg for each outer value it reads
/// (C, a BOOL scalar, or X), as ONNX Runtime writes a subgraph.
std::shared_ptr<ob::OrtGraphSpec> branch(std::vector<ob::OrtNodeSpec> nodes, const std::string& out,
                                         const std::vector<std::string>& reads) {
    auto g = std::make_shared<ob::OrtGraphSpec>();
    for (const std::string& r : reads)
        g->node_args.push_back(r == "C" ? ob::OrtValueSpec{.name = r, .elem_type = 9, .dims = std::vector<int64_t>{}}
                                        : ob::OrtValueSpec{.name = r});
    g->node_args.push_back({out});
    g->outputs = {out};
    g->nodes = std::move(nodes);
    return g;
}

/// If(C) -> `out`: `then_branch`, else Neg(X); the outer values its branches read are its
/// implicit inputs, which ONNX Runtime feeds them through.
ob::OrtNodeSpec if_node(std::shared_ptr<ob::OrtGraphSpec> then_branch, const std::string& out,
                        std::vector<std::string> implicit) {
    auto otherwise = branch({{.name = "neg", .op_type = "Neg", .inputs = {"X"}, .outputs = {"e"}}}, "e", {"X"});
    return {.name = "if", .op_type = "If", .inputs = {"C"}, .outputs = {out}, .implicit_inputs = std::move(implicit),
            .attributes = {{.name = "then_branch", .type = 5, .g = std::move(then_branch)},
                           {.name = "else_branch", .type = 5, .g = std::move(otherwise)}}};
}

/// relu_model with a BOOL input C and its node replaced by `n`, which defines Y.
ob::OrtModelSpec with_if(ob::OrtNodeSpec n) {
    ob::OrtModelSpec m = ob::relu_model();
    m.graph.node_args.push_back({.name = "C", .elem_type = 9, .dims = std::vector<int64_t>{}});
    m.graph.inputs.push_back("C");
    m.graph.nodes = {std::move(n)};
    return m;
}

/// `n` Relu nodes reading X, each output a graph output, the NodeArgs in a scattered order
/// (k * 17 mod n + 1, 17 prime to n + 1) and every name one shared string.
ob::OrtModelSpec node_args_in_hash_order(uint32_t n) {
    ob::OrtModelSpec m = ob::relu_model();
    m.share_strings = true;
    m.graph.initializers.clear();
    m.graph.nodes.clear();
    m.graph.outputs.clear();
    std::vector<std::string> names{"X"};
    for (uint32_t i = 0; i < n; ++i) {
        names.push_back("y" + std::to_string(i));
        m.graph.nodes.push_back({.index = i, .inputs = {"X"}, .outputs = {names.back()}});
        m.graph.outputs.push_back(names.back());
    }
    m.graph.node_args.clear();
    for (size_t k = 0; k < names.size(); ++k) m.graph.node_args.push_back({names[(k * 17) % names.size()]});
    return m;
}

/// If nodes nested `levels` deep in their then branches, the innermost one's Relu(X) (each
/// level costs three tables of depth: node, attribute, graph).
ob::OrtModelSpec nested(int levels) {
    // The innermost If's branches read X; every If above it C too, through the If below.
    auto implicit = [](int level) {
        return level == 1 ? std::vector<std::string>{"X"} : std::vector<std::string>{"C", "X"};
    };
    auto inner = branch({{.name = "relu", .inputs = {"X"}, .outputs = {"r"}}}, "r", {"X"});
    for (int level = 1; level < levels; ++level) {
        const std::string out = "y" + std::to_string(level);
        inner = branch({if_node(inner, out, implicit(level))}, out, {"C", "X"});
    }
    return with_if(if_node(inner, "Y", implicit(levels)));
}

void structure_cases(Corpus& c) {
    const ob::OrtModelSpec relu = ob::relu_model();
    c.accept("ort-relu.ort", detect, "a small valid .ort: X -> Relu -> Y and an unused initializer", built(relu),
             {{"node_count", 1}, {"initializer_count", 1}, {"ir_version", 8}});
    c.accept("ort-shared-vtables.ort", layouts, "tables of the same shape share one vtable (the builder dedups them)",
             built(ob::chain_model()), {{"node_count", 2}});
    c.accept("ort-forward-vtable.ort", layouts, "the root table's vtable placed after it (negative soffset)",
             str(ob::with_forward_root_vtable(ob::build_ort(relu))), {{"node_count", 1}});
    c.accept("ort-unknown-trailing-field.ort", layouts, "a tensor with a field id 7 of a newer schema",
             edited([](auto& m) { m.graph.initializers[0].unknown_trailing_field = true; }),
             {{"initializer_count", 1}});
    c.accept("ort-version-5.ort", version, "ort_version 5, the oldest a minimal ONNX Runtime loads",
             edited([](auto& m) { m.ort_version = "5"; }), {{"node_count", 1}});
    c.accept("ort-version-1.ort", version, "ort_version 1: the fields this reader uses are unchanged since",
             edited([](auto& m) { m.ort_version = "1"; }), {{"node_count", 1}});
    c.accept("ort-max-node-index-2-32-1.ort", nodes, "max_node_index 2^32 - 1: it sizes nothing",
             edited([](auto& m) { m.graph.max_node_index = 0xFFFFFFFFu; }), {{"node_count", 1}});
    c.accept("ort-nested-if-8.ort", verify, "If graphs nested 8 levels: within the depth of 64", built(nested(8)),
             {{"node_count", 1}});
    c.accept("ort-nested-if-24.ort", nesting,
             "If graphs nested 24 levels: beyond ONNX Runtime's depth of 64, within max_nesting 128", built(nested(24)),
             {{"node_count", 1}});
    c.refuse("Unsupported", "ort-nested-if-48.ort", nesting, "If graphs nested 48 levels: beyond max_nesting 128",
             built(nested(48)));
    const std::string good = built(relu);
    c.refuse("Malformed", "ort-truncated-half.ort", verify, "the buffer cut in half", good.substr(0, good.size() / 2));
    c.refuse("Malformed", "ort-truncated-4.ort", verify, "the last 4 bytes cut", good.substr(0, good.size() - 4));
    c.refuse("Malformed", "ort-identifier-wrong.ort", detect, "ORTX instead of ORTM: read as protobuf, which it is not",
             std::string(good).replace(4, 4, "ORTX"));
    c.refuse("Malformed", "ort-only-header.ort", detect, "8 bytes: offset and ORTM, too short to be .ort",
             std::string("\x08\x00\x00\x00ORTM", 8));
    c.accept("onnx-carrying-ortm", detect,
             "a .onnx whose ir_version and producer_name \"ORTM-producer\" put ORTM at bytes 4..7: it does not verify "
             "as .ort and is read as the .onnx it is",
             onnx_carrying_ortm(), {{"node_count", 1}});
    const std::string both = str(ob::add_and_sub_polyglot());
    const std::string polyglot = "a valid .ort (Z = Add(X, Y)) and a valid .onnx (C = Sub(A, B)) in one buffer, named ";
    c.refuse("InvalidModel", "ort-onnx-polyglot.ort", one_format,
             polyglot + ".ort: ONNX Runtime, which picks the format by the name, would run the Add", both);
    c.refuse("InvalidModel", "onnx-ort-polyglot", one_format,
             polyglot + ".onnx: ONNX Runtime would run the Sub; either way the model checked need not be the one run",
             both);
    c.refuse("Malformed", "ort-root-offset-4.ort", verify, "root offset 4: the table would overlap the identifier",
             patched(relu, [](Bytes& b, auto) { put32(b, 0, 4); }));
    c.refuse("Malformed", "ort-root-past-end.ort", verify, "root offset past the end",
             patched(relu, [](Bytes& b, auto) { put32(b, 0, static_cast<uint32_t>(b.size() + 16)); }));
    c.refuse("Malformed", "ort-root-misaligned.ort", verify, "root offset + 2: the table is not 4-byte aligned",
             patched(relu, [](Bytes& b, auto) {
                 uint32_t root;
                 std::memcpy(&root, b.data(), 4);
                 put32(b, 0, root + 2);
             }));
    c.refuse("Malformed", "ort-vtable-past-end.ort", verify, "the root table's soffset points its vtable past the end",
             patched(relu, [](Bytes& b, const ofb::InferenceSession* s) {
                 put32(b, at(b, s), static_cast<uint32_t>(-static_cast<int32_t>(b.size())));
             }));
    c.refuse("Malformed", "ort-field-past-end.ort", verify, "a vtable entry places ort_version beyond the buffer",
             patched(relu, [](Bytes& b, const ofb::InferenceSession* s) {
                 int32_t so;
                 std::memcpy(&so, b.data() + at(b, s), 4);
                 const size_t vt = at(b, s) - so;
                 const uint16_t far = 0xFFF0;
                 std::memcpy(b.data() + vt + 4, &far, 2);
             }));
    c.refuse("Malformed", "ort-offset-wraps.ort", verify,
             "a uoffset that wraps around 2^32 (the only way to point back: a cycle)",
             patched(relu, [](Bytes& b, const ofb::InferenceSession* s) {
                 const size_t slot = field_at(b, s, ofb::InferenceSession::VT_MODEL);
                 put32(b, slot, static_cast<uint32_t>(0x100000000ull - slot));
             }));
    c.refuse("Malformed", "ort-string-length-past-end.ort", verify, "ort_version's length runs past the end",
             patched(relu,
                     [](Bytes& b, const ofb::InferenceSession* s) { put32(b, at(b, s->ort_version()), 0x7FFFFFF0u); }));
    c.refuse("Malformed", "ort-vector-length-past-end.ort", verify, "the nodes vector claims 2^28 entries",
             patched(relu, [](Bytes& b, const ofb::InferenceSession* s) {
                 put32(b, at(b, s->model()->graph()->nodes()), 1u << 28);
             }));
    c.refuse("Malformed", "ort-string-no-nul.ort", verify, "ort_version without its terminating NUL",
             patched(relu, [](Bytes& b, const ofb::InferenceSession* s) { b[at(b, s->ort_version()) + 5] = 'x'; }));
}

void zero_offset_cases(Corpus& c) {
    const ob::OrtModelSpec relu = ob::relu_model();
    // In a vector of tables the Verifier reads a zero entry as a table at the slot itself
    // and lets it through; in a vector of strings it reads an empty string whose NUL is the
    // next slot's first byte, here not 0: Malformed. Either way refused.
    auto zero = [&](std::string name, std::string why, std::function<const void*(const ofb::InferenceSession*)> vec,
                    const char* kind = "InvalidModel") {
        c.refuse(kind, name, zero_offsets, std::move(why),
                 patched(relu, [&](Bytes& b, const ofb::InferenceSession* s) {
                     put32(b, at(b, vec(s)) + 4, 0);  // the first entry after the count
                 }));
    };
    zero("ort-zero-offset-nodes.ort", "nodes:[0]", [](auto* s) { return s->model()->graph()->nodes(); });
    zero("ort-zero-offset-initializers.ort", "initializers:[0]",
         [](auto* s) { return s->model()->graph()->initializers(); });
    zero("ort-zero-offset-node-args.ort", "node_args:[0]", [](auto* s) { return s->model()->graph()->node_args(); });
    zero("ort-zero-offset-opset-import.ort", "opset_import:[0]", [](auto* s) { return s->model()->opset_import(); });
    zero(
        "ort-zero-offset-node-inputs.ort", "a node's inputs:[0]",
        [](auto* s) { return s->model()->graph()->nodes()->Get(0)->inputs(); }, "Malformed");
    zero(
        "ort-zero-offset-graph-outputs.ort", "outputs:[0]", [](auto* s) { return s->model()->graph()->outputs(); },
        "Malformed");
    zero(
        "ort-zero-offset-graph-inputs.ort", "inputs:[0]", [](auto* s) { return s->model()->graph()->inputs(); },
        "Malformed");
    ob::OrtModelSpec with_attr = relu;
    with_attr.graph.nodes[0].attributes = {{.name = "k", .type = 2, .i = 1}};
    c.refuse("InvalidModel", "ort-zero-offset-attributes.ort", zero_offsets, "attributes:[0]",
             patched(with_attr, [](Bytes& b, const ofb::InferenceSession* s) {
                 put32(b, at(b, s->model()->graph()->nodes()->Get(0)->attributes()) + 4, 0);
             }));
    ob::OrtModelSpec with_tensors = relu;
    const ob::OrtTensorSpec t0{.name = "t0", .data_type = 1, .dims = {1}, .raw = std::vector<uint8_t>(4, 0)};
    with_tensors.graph.nodes[0].attributes = {{.name = "ts", .type = 9, .tensors = {t0}}};  // TENSORS
    c.refuse("InvalidModel", "ort-zero-offset-attribute-tensors.ort", zero_offsets, "an attribute's tensors:[0]",
             patched(with_tensors, [](Bytes& b, const ofb::InferenceSession* s) {
                 put32(b, at(b, s->model()->graph()->nodes()->Get(0)->attributes()->Get(0)->tensors()) + 4, 0);
             }));
    ob::OrtModelSpec strings = relu;
    strings.graph.initializers[0] = {.name = "W", .data_type = 8, .dims = {2}, .strings = {"a", "b"}};
    c.refuse("Malformed", "ort-zero-offset-string-data.ort", zero_offsets,
             "string_data:[0] (the Verifier's empty string lacks its NUL)",
             patched(strings, [](Bytes& b, const ofb::InferenceSession* s) {
                 put32(b, at(b, s->model()->graph()->initializers()->Get(0)->string_data()) + 4, 0);
             }));
}

void version_cases(Corpus& c) {
    for (const char* v : {"abc", "6x", " 5", "-1", "0", "06", "6.0", ""}) {
        std::string name = std::string("ort-version-") + (*v ? v : "empty") + ".ort";
        for (char& ch : name) if (ch == ' ') ch = '_';
        c.refuse("InvalidModel", name, version, std::string("ort_version \"") + v + "\"",
                 edited([&](auto& m) { m.ort_version = v; }));
    }
    for (const char* v : {"7", "99999999999"})
        c.refuse("Unsupported", std::string("ort-version-") + v + ".ort", version,
                 std::string("ort_version ") + v + ": newer than the 6 this reader reads",
                 edited([&](auto& m) { m.ort_version = v; }));
    c.refuse("InvalidModel", "ort-version-missing.ort", version, "no ort_version",
             edited([](auto& m) { m.ort_version.reset(); }));
    c.refuse("InvalidModel", "ort-no-model.ort", same_model, "an InferenceSession without a model",
             edited([](auto& m) { m.has_model = false; }));
    c.refuse("InvalidModel", "ort-no-graph.ort", same_model, "a model without a graph",
             edited([](auto& m) { m.has_graph = false; }));
    c.refuse("InvalidModel", "ort-ir-version-2.ort", same_model, "ir_version 2, below the 3 read",
             edited([](auto& m) { m.ir_version = 2; }));
}

void tensor_cases(Corpus& c) {
    auto init = [](std::function<void(ob::OrtTensorSpec&)> f) {
        return edited([&](auto& m) { f(m.graph.initializers[0]); });
    };
    c.refuse("InvalidModel", "ort-raw-data-long.ort", tensors, "raw_data of 9 bytes for FLOAT [2]",
             init([](auto& t) { t.raw->push_back(0); }));
    c.refuse("InvalidModel", "ort-raw-data-short.ort", tensors, "raw_data of 7 bytes for FLOAT [2]",
             init([](auto& t) { t.raw->pop_back(); }));
    c.refuse("InvalidModel", "ort-raw-data-absent.ort", tensors, "FLOAT [2] without raw_data",
             init([](auto& t) { t.raw.reset(); }));
    c.refuse("InvalidModel", "ort-dims-negative.ort", tensors, "dims [-2]", init([](auto& t) { t.dims = {-2}; }));
    c.refuse("InvalidModel", "ort-dims-overflow.ort", tensors, "dims whose product is 2^90",
             init([](auto& t) { t.dims = {1 << 30, 1 << 30, 1 << 30}; }));
    c.refuse("InvalidModel", "ort-dims-wrap-64.ort", tensors,
             "dims whose product wraps 64 bits to 0 (2^32 x 2^32 x 0 would not)", init([](auto& t) {
                 t.dims = {int64_t{1} << 32, int64_t{1} << 32};
             }));
    c.refuse("Unsupported", "ort-tensor-over-2gib.ort", tensors,
             "FLOAT [2^30, 4]: more than 2^31-1 bytes, decided from dims", init([](auto& t) {
                 t.dims = {1 << 30, 4};
             }));
    c.refuse("InvalidModel", "ort-string-with-raw-data.ort", tensors, "a STRING tensor with raw_data",
             init([](auto& t) { t = {.name = "W", .data_type = 8, .dims = {1}, .raw = Bytes{1}, .strings = {"a"}}; }));
    c.refuse("InvalidModel", "ort-string-count.ort", tensors, "STRING [2] with one string",
             init([](auto& t) { t = {.name = "W", .data_type = 8, .dims = {2}, .strings = {"a"}}; }));
    c.refuse("InvalidModel", "ort-string-data-on-float.ort", tensors, "FLOAT [2] with raw_data and string_data",
             init([](auto& t) { t.strings = {"a", "b"}; }));
    c.accept("ort-string-tensor.ort", tensors, "STRING [2] in string_data, its NodeArg typed STRING",
             edited([](auto& m) {
                 m.graph.initializers[0] = {.name = "W", .data_type = 8, .dims = {2}, .strings = {"a", "bc"}};
                 m.graph.node_args[2].elem_type = 8;
             }),
             {{"initializer_count", 1}});
    c.refuse("InvalidModel", "ort-data-type-0.ort", tensors, "data_type 0", init([](auto& t) { t.data_type = 0; }));
    c.refuse("Unsupported", "ort-data-type-21.ort", tensors, "data_type 21: above the schema's 20",
             init([](auto& t) { t.data_type = 21; }));
    c.refuse("Unsupported", "ort-data-type-negative.ort", tensors, "data_type -1",
             init([](auto& t) { t.data_type = -1; }));
}

// The companion file (docs/ort.md, "External data"): each case's is its own file name
// plus .data, written beside it unless the case is about its absence.
const Bytes w_bytes{0, 0, 128, 63, 0, 0, 0, 64};  // relu_model's W, 1.0f and 2.0f
const std::string w_text(w_bytes.begin(), w_bytes.end());

/// relu_model with W's raw_data replaced by `offset` into the companion file.
std::string external_w(int64_t offset, const std::function<void(ob::OrtModelSpec&)>& edit = [](auto&) {}) {
    return edited([&](auto& m) {
        m.graph.initializers[0].raw.reset();
        m.graph.initializers[0].external_data_offset = offset;
        edit(m);
    });
}
json w_sha(const std::string& bytes) { return {{"tensor_sha256", {{"W", sha256_hex(bytes)}}}}; }

void external_accepts(Corpus& c) {
    auto accept = [&](std::string name, Rule rule, std::string why, std::string model, const std::string& data,
                      json facts) -> Case& {
        Case& k = c.accept(std::move(name), rule, std::move(why), std::move(model), std::move(facts));
        c.side_file(k.file + ".data", data);
        return k;
    };
    accept("ort-external-basic.ort", external, "W's 8 bytes at offset 0 of the companion file", external_w(0), w_text,
           w_sha(w_text));
    accept("ort-external-unaligned.ort", companion, "W at offset 3: no alignment is required of the reader",
           external_w(3), "pad" + w_text, w_sha(w_text));
    accept("ort-external-ends-at-file-end.ort", external, "offset 5 + 8 bytes = the file's 13 bytes exactly",
           external_w(5), "12345" + w_text, w_sha(w_text));
    accept("ort-external-empty-at-end.ort", external,
           "FLOAT [0] at offset 8 of an 8-byte file: an empty range at the end",
           external_w(8, [](auto& m) { m.graph.initializers[0].dims = {0}; }), w_text, {{"tensor_bytes", {{"W", 0}}}});
    accept("ort-external-shared.ort", companion, "two initializers and a node's tensor attribute in one companion file",
           external_w(0,
                      [](auto& m) {
                          m.graph.node_args.push_back({"V"});
                          m.graph.initializers.push_back({.name = "V", .dims = {2}, .external_data_offset = 9});
                          auto t = std::make_shared<ob::OrtTensorSpec>(
                              ob::OrtTensorSpec{.name = "A", .dims = {1}, .external_data_offset = 4});
                          m.graph.nodes[0].attributes = {{.name = "value", .type = 4, .t = t}};
                      }),
           w_text + "\x01" + "vvvvvvvv",
           {{"tensor_sha256", {{"W", sha256_hex(w_text)}, {"V", sha256_hex("vvvvvvvv")}}}});
    Case& linked = c.accept("ort-external-symlink-inside.ort", companion,
                            "the companion file is a link to a file inside the folder", external_w(0),
                            {{"tensor_sha256", {{"W", sha256_hex(w_text)}}}});
    c.side_file("ort-weights.bin", w_text);
    c.side_symlink(linked.file + ".data", "ort-weights.bin");
    c.accept("ort-external-ort-data-option.ort", companion,
             "ort_external_data names ort-weights.bin instead of the default name", external_w(0), w_sha(w_text))
        .options = {{"ort_data", "ort-weights.bin"}};
    c.accept("ort-external-named-by-metadata.ort", companion,
             "the model's metadata entry onnximport.ort_external_data names ort-weights.bin (rule O7): "
             "no file has the default name",
             external_w(0, [](auto& m) { m.metadata = {{"onnximport.ort_external_data", "ort-weights.bin"}}; }),
             w_sha(w_text));
    c.accept("ort-external-bytes-named.ort", external,
             "imported from bytes: the caller names both the folder and the file", external_w(0), w_sha(w_text))
        .options = {{"import", "bytes"}, {"external_dir", "."}, {"ort_data", "ort-weights.bin"}};
}

void external_refusals(Corpus& c) {
    auto refuse = [&](std::string name, Rule rule, std::string why, std::string model,
                      const std::string& data) -> Case& {
        Case& k = c.refuse("ExternalData", std::move(name), rule, std::move(why), std::move(model));
        c.side_file(k.file + ".data", data);
        return k;
    };
    c.refuse("ExternalData", "ort-external-offset-minus-2.ort", external, "external_data_offset -2", external_w(-2));
    refuse("ort-external-with-raw-data.ort", external, "external_data_offset 0 and raw_data",
           edited([](auto& m) { m.graph.initializers[0].external_data_offset = 0; }), w_text);
    refuse("ort-external-string.ort", external, "a STRING tensor with an offset: strings are not a byte range",
           external_w(0,
                      [](auto& m) {
                          m.graph.initializers[0] = {
                              .name = "W", .data_type = 8, .dims = {1}, .external_data_offset = 0};
                      }),
           w_text);
    refuse("ort-external-past-end.ort", external, "offset 1 + 8 bytes of an 8-byte file", external_w(1), w_text);
    refuse("ort-external-offset-max.ort", external, "offset INT64_MAX: past the end, and offset + length passes 2^63",
           external_w(INT64_MAX), w_text);
    refuse("ort-external-attribute-past-end.ort", external,
           "a Relu's tensor attribute at offset 4 of an 8-byte file, 8 bytes long", edited([](auto& m) {
               auto t = std::make_shared<ob::OrtTensorSpec>(
                   ob::OrtTensorSpec{.name = "A", .dims = {2}, .external_data_offset = 4});
               m.graph.nodes[0].attributes = {{.name = "value", .type = 4, .t = t}};
           }),
           w_text);
    c.refuse("Unsupported", "ort-external-over-2gib.ort", tensors,
             "FLOAT [2^30, 4] at offset 0: too big is decided from dims, no file opened", external_w(0, [](auto& m) {
                 m.graph.initializers[0].dims = {1 << 30, 4};
             }));
    c.refuse("ExternalData", "ort-external-no-companion.ort", companion, "external_data_offset 0 and no companion file",
             external_w(0));
    c.refuse("ExternalData", "ort-external-bytes-unnamed.ort", external,
             "imported from bytes with the folder named but not the companion file", external_w(0))
        .options = {{"import", "bytes"}, {"external_dir", "."}};
    c.refuse("ExternalData", "ort-external-ort-data-escapes.ort", companion,
             "ort_external_data ../../etc/passwd: a '..' segment", external_w(0))
        .options = {{"ort_data", "../../etc/passwd"}};
    c.refuse("ExternalData", "ort-external-metadata-name-escapes.ort", companion,
             "the metadata entry onnximport.ort_external_data names ../../etc/passwd: a '..' segment, refused at the "
             "entry",
             external_w(0, [](auto& m) { m.metadata = {{"onnximport.ort_external_data", "../../etc/passwd"}}; }));
    c.refuse("InvalidModel", "ort-external-metadata-named-twice.ort", companion,
             "two metadata entries onnximport.ort_external_data: which file holds the bytes is ambiguous",
             external_w(0, [](auto& m) {
                 m.metadata = {{"onnximport.ort_external_data", "ort-weights.bin"},
                               {"onnximport.ort_external_data", "ort-external-basic.ort.data"}};
             }));
    auto linked = [&](std::string name, std::string why, std::string target) {  // no target: itself
        Case& k = c.refuse("ExternalData", std::move(name), companion, std::move(why), external_w(0));
        c.side_symlink(k.file + ".data", target.empty() ? k.file + ".data" : std::move(target));
    };
    linked("ort-external-symlink-absolute.ort", "the companion file is a link to /etc/passwd", "/etc/passwd");
    linked("ort-external-symlink-up.ort", "the companion file is a link up and out to etc/passwd",
           "../../../../../../../../../../../../../../../../etc/passwd");
    linked("ort-external-symlink-loop.ort", "the companion file is a link to itself", "");
    Case& folder = c.refuse("ExternalData", "ort-external-companion-folder.ort", companion,
                            "the companion file is a folder", external_w(0));
    c.side_file(folder.file + ".data/keep", "");  // git keeps a folder only with a file in it
    Case& fifo =
        c.refuse("ExternalData", "ort-external-companion-fifo.ort", companion,
                 "the companion file is a FIFO: not a file, and opening it to read would block", external_w(0));
    c.side_fifo(fifo.file + ".data");
    fifo.generated_only = true;
    fifo.endless = true;
}

void graph_cases(Corpus& c) {
    auto chain = [](std::function<void(ob::OrtGraphSpec&)> f) {
        return edited([&](auto& m) { f(m.graph); }, ob::chain_model());
    };
    c.refuse("InvalidModel", "ort-node-index-duplicate.ort", nodes, "two nodes with index 0",
             chain([](auto& g) { g.nodes[1].index = 0; g.edges.clear(); }));
    c.refuse("InvalidModel", "ort-node-index-not-below-max.ort", nodes, "node index 1 with max_node_index 1",
             chain([](auto& g) { g.max_node_index = 1; }));
    c.refuse("InvalidModel", "ort-edge-missing-node.ort", edges, "an output edge to node 7, which does not exist",
             chain([](auto& g) { g.edges[0].other = 7; }));
    c.refuse("InvalidModel", "ort-edge-of-missing-node.ort", edges, "a NodeEdge of node 9, which does not exist",
             chain([](auto& g) { g.edges[0].node_index = 9; }));
    c.refuse("InvalidModel", "ort-edge-src-arg-out-of-range.ort", edges, "src_arg_index 1 of a node with one output",
             chain([](auto& g) { g.edges[0].src_arg = 1; }));
    c.refuse("InvalidModel", "ort-edge-dst-arg-negative.ort", edges, "dst_arg_index -1",
             chain([](auto& g) { g.edges[1].dst_arg = -1; }));
    c.refuse("InvalidModel", "ort-edge-dst-arg-huge.ort", edges, "dst_arg_index 2^31-1",
             chain([](auto& g) { g.edges[1].dst_arg = 0x7FFFFFFF; }));
    c.refuse("InvalidModel", "ort-edge-names-differ.ort", edges, "an edge from T to an input that reads X",
             chain([](auto& g) { g.nodes[1].inputs = {"X"}; }));
    c.refuse("InvalidModel", "ort-node-edge-twice.ort", edges, "two NodeEdge entries for node 0",
             chain([](auto& g) { g.edges.push_back(g.edges[0]); }));
    c.accept("ort-node-args-hash-order.ort", node_args,
             "40 Relu nodes on X whose NodeArgs follow no order of the nodes' and whose names are shared strings, "
             "as ONNX Runtime writes them (its hash table's order)",
             built(node_args_in_hash_order(40)), {{"node_count", 40}});
    c.refuse("InvalidModel", "ort-node-arg-duplicate.ort", node_args, "NodeArg X declared twice",
             edited([](auto& m) { m.graph.node_args.push_back({"X"}); }));
    c.refuse("InvalidModel", "ort-node-arg-missing-output.ort", node_args, "graph output Z has no NodeArg",
             edited([](auto& m) { m.graph.outputs = {"Z"}; }));
    c.refuse("InvalidModel", "ort-node-arg-missing-input.ort", node_args, "graph input Q has no NodeArg",
             edited([](auto& m) { m.graph.inputs = {"Q"}; }));
    c.refuse("InvalidModel", "ort-node-arg-missing-node-output.ort", node_args, "a node output without NodeArg",
             edited([](auto& m) { m.graph.nodes[0].outputs = {"Q"}; m.graph.outputs = {"X"}; }));
    c.refuse("InvalidModel", "ort-input-arg-counts-sum.ort", arg_counts, "input_arg_counts [2] for one input",
             edited([](auto& m) { m.graph.nodes[0].input_arg_counts = std::vector<int32_t>{2}; }));
    c.refuse("InvalidModel", "ort-input-arg-counts-negative.ort", arg_counts, "input_arg_counts [2, -1]",
             edited([](auto& m) { m.graph.nodes[0].input_arg_counts = std::vector<int32_t>{2, -1}; }));
    c.accept("ort-input-arg-counts-variadic.ort", arg_counts,
             "input_arg_counts [2, 0] for two inputs (variadic, then empty)", edited([](auto& m) {
                 m.graph.nodes[0].inputs = {"X", "X"};
                 m.graph.nodes[0].op_type = "Add";
                 m.graph.nodes[0].input_arg_counts = std::vector<int32_t>{2, 0};
             }),
             {{"node_count", 1}});
    c.refuse("InvalidModel", "ort-dimension-kind-3.ort", unions, "a Dimension of kind 3",
             edited([](auto& m) { m.graph.node_args[0].dim_kind = 3; }));
    for (uint8_t tag : {0, 4, 255}) {
        c.refuse("InvalidModel", "ort-type-tag-" + std::to_string(tag) + ".ort", unions,
                 "a TypeInfo whose union tag is " + std::to_string(tag),
                 patched(ob::relu_model(), [tag](Bytes& b, const ofb::InferenceSession* s) {
                     const auto* ti = s->model()->graph()->node_args()->Get(0)->type();
                     b[field_at(b, ti, ofb::TypeInfo::VT_VALUE_TYPE)] = tag;
                 }));
    }
    c.refuse("InvalidModel", "ort-node-type-2.ort", same_model, "node type 2 (Primitive 0, Fused 1)",
             edited([](auto& m) { m.graph.nodes[0].type = 2; }));
    c.refuse("InvalidModel", "ort-node-input-undefined.ort", same_model, "a node reads Q, which no one defines",
             edited([](auto& m) { m.graph.nodes[0].inputs = {"Q"}; }));
    c.refuse("InvalidModel", "ort-domain-not-imported.ort", same_model, "a node of domain com.example, not imported",
             edited([](auto& m) { m.graph.nodes[0].domain = "com.example"; }));
    c.refuse("InvalidModel", "ort-node-cycle.ort", same_model, "a reads b's output and b reads a's",
             chain([](auto& g) { g.nodes[0].inputs = {"Y"}; g.outputs = {"T"}; g.inputs.clear(); g.edges.clear(); }));
}

void attribute_cases(Corpus& c) {
    auto attr = [](ob::OrtAttributeSpec a) { return edited([&](auto& m) { m.graph.nodes[0].attributes = {a}; }); };
    c.refuse("InvalidModel", "ort-attribute-type-0.ort", same_model, "an attribute of type 0",
             attr({.name = "k", .type = 0}));
    c.refuse("Unsupported", "ort-attribute-type-sparse.ort", same_model,
             "an attribute of type 11 (SPARSE_TENSOR): no .ort field", attr({.name = "k", .type = 11}));
    c.refuse("InvalidModel", "ort-attribute-type-15.ort", same_model, "an attribute of type 15",
             attr({.name = "k", .type = 15}));
    c.refuse("InvalidModel", "ort-attribute-tensor-absent.ort", same_model, "type TENSOR without t",
             attr({.name = "k", .type = 4}));
    c.refuse("InvalidModel", "ort-attribute-graph-absent.ort", same_model, "type GRAPH without g",
             attr({.name = "k", .type = 5}));
    auto bad = std::make_shared<ob::OrtTensorSpec>(ob::OrtTensorSpec{.name = "v", .dims = {3}, .raw = Bytes{1}});
    c.refuse("InvalidModel", "ort-attribute-tensor-raw-short.ort", tensors, "an attribute tensor FLOAT [3] with 1 byte",
             attr({.name = "value", .type = 4, .t = bad}));
    // Every kind on operators whose kernels ONNX Runtime has for .ort (it folds Constant away
    // when it writes one, and has no kernel for it when it loads one).
    c.accept("ort-attributes-every-kind.ort", same_model,
             "FLOAT, INT, STRING, FLOATS, INTS, STRINGS attributes: LeakyRelu, Transpose and Scaler on X, "
             "StringNormalizer on a STRING input",
             edited([](auto& m) {
                 m.opsets.push_back({"ai.onnx.ml", 3});
                 m.graph.node_args = {{"X"}, {"a"}, {"b"}, {"Y"}, {.name = "S", .elem_type = 8},
                                      {.name = "T", .elem_type = 8, .dims = std::nullopt}};
                 m.graph.inputs = {"X", "S"};
                 m.graph.outputs = {"Y", "T"};
                 m.graph.initializers.clear();
                 m.graph.nodes = {
                     {.name = "leaky", .op_type = "LeakyRelu", .index = 0, .inputs = {"X"}, .outputs = {"a"},
                      .attributes = {{.name = "alpha", .type = 1, .f = 0.5f}}},
                     {.name = "transpose", .op_type = "Transpose", .index = 1, .inputs = {"a"}, .outputs = {"b"},
                      .attributes = {{.name = "perm", .type = 7, .ints = {0}}}},
                     {.name = "scaler", .op_type = "Scaler", .domain = "ai.onnx.ml", .index = 2, .inputs = {"b"},
                      .outputs = {"Y"},
                      .attributes = {{.name = "offset", .type = 6, .floats = {1, 2}},
                                     {.name = "scale", .type = 6, .floats = {3, 4}}}},
                     {.name = "normalizer", .op_type = "StringNormalizer", .index = 3, .inputs = {"S"},
                      .outputs = {"T"},
                      .attributes = {{.name = "case_change_action", .type = 3, .s = "UPPER"},
                                     {.name = "is_case_sensitive", .type = 2, .i = 1},
                                     {.name = "locale", .type = 3, .s = "C"},  // the one every system has
                                     {.name = "stopwords", .type = 8, .strings = {"a", "b"}}}}};
             }),
             {{"node_count", 4}});
    auto captures = branch({{.name = "inner", .inputs = {"X"}, .outputs = {"Z"}}}, "Z", {"X"});
    c.accept("ort-subgraph-captures.ort", same_model, "an If's branch reading the outer X: captured, as for .onnx",
             built(with_if(if_node(captures, "Y", {"X"}))), {{"node_count", 1}});
}

void limit_cases(Corpus& c) {
    Entry dir;
    dir.type = Entry::Type::Directory;
    // Generated only: git keeps no empty folder.
    c.refuse_entry("Io", "ort-directory.ort", detect, "a folder named like a .ort file", dir).generated_only = true;
}

}  // namespace

void add_ort_cases(Corpus& c) {
    structure_cases(c);
    zero_offset_cases(c);
    version_cases(c);
    tensor_cases(c);
    external_accepts(c);
    external_refusals(c);
    graph_cases(c);
    attribute_cases(c);
    limit_cases(c);
}

}  // namespace hostile
