// Hostile cases for the published loader bugs of other importers that the section files
// did not already hold (hostile/README.md, "Published loader bugs" lists every shape and
// the case that covers it):
//  - traversal to a canary: the location reaches onnx-gauntlet-canary.bin in the corpus
//    folder's parent, in each published form (leading and middle "..", an absolute path,
//    a link to the parent folder, a last component that links out), through initializers,
//    sparse initializers' values, a Constant's value and a Constant's sparse_value. Each
//    graph outputs the tensor, so a peer that follows the reference hands back the
//    canary's bytes (the matrix writes the canary, with bytes of its own, for each run);
//  - ONNX Runtime's memory-address locations in a Constant, unknown external_data keys,
//    an offset far past the end, a FIFO, references from bytes that escape;
//  - names around and above 2 KiB in refusals (error formatting off by one);
//  - 20 nested If graphs with captures, deep Loop and Scan nesting;
//  - operators whose attributes or inputs make no sense (shape inference crashes), and
//    values with no or an unknown element type: imported as written (D9, D10).
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

namespace {

using Names = std::vector<std::string>;
using Entries = std::vector<std::pair<std::string, std::string>>;

constexpr const char* canary = "onnx-gauntlet-canary.bin";  // in the corpus folder's parent
const std::string up_canary = std::string("../") + canary;
// Absolute, and it reaches the canary for a reader whose working directory is the corpus
// folder's parent (the matrix runs its peers there).
const std::string abs_canary = std::string("/proc/self/cwd/") + canary;
const std::string parent_link_canary = std::string("link-parent/") + canary;

/// A float [4] tensor (16 bytes) whose values are external: `name`, the entries given.
WireWriter external(std::string_view name, const Entries& entries) {
    WireWriter t = tensor_head(name, 1, {4});
    for (const auto& [k, v] : entries) t.message(p::Tensor::external_data, ob::string_entry(k, v));
    t.int_field(p::Tensor::data_location, 1);
    return t;
}
WireWriter external_at(std::string_view name, const std::string& location) {
    return external(name, {{"location", location}, {"length", "16"}});
}

/// Indices 0..3 (int64 [4]) and dense dims [4]: the sparse tensor's dense form is its values.
WireWriter sparse_of(const WireWriter& values) {
    std::string idx;
    for (int i = 0; i < 4; ++i) idx += std::string(1, static_cast<char>(i)) + std::string(7, '\0');
    return ob::sparse_tensor(values, ob::tensor_raw("", 7, {4}, idx), {4});
}

/// A graph with no inputs whose output Y (float [4]) is `source` through Identity, with
/// the given extra graph fields (initializers) and nodes before it.
std::string outputs(const std::string& source, const std::vector<WireWriter>& nodes, const WireWriter& fields) {
    WireWriter g;
    for (const auto& n : nodes) g.message(p::Graph::node, n);
    g.message(p::Graph::node, ob::node("Identity", {source}, {"Y"}, "out"));
    g.bytes_field(p::Graph::name, "canary");
    g.raw(fields.str());
    g.message(p::Graph::output, ob::value_info("Y", 1, {4}));
    return ob::model(g).str();
}

std::string initializer_case(const WireWriter& tensor) {
    return outputs("T", {}, WireWriter().message(p::Graph::initializer, tensor));
}
std::string sparse_initializer_case(const WireWriter& values) {
    return outputs("sp", {}, WireWriter().message(p::Graph::sparse_initializer, sparse_of(values)));
}
WireWriter constant(const WireWriter& attribute) {
    WireWriter n = ob::node("Constant", {}, {"C"}, "k");
    n.message(p::Node::attribute, attribute);
    return n;
}
std::string constant_value_case(const WireWriter& tensor) {
    return outputs("C", {constant(ob::attr_tensor("value", tensor))}, WireWriter());
}
std::string constant_sparse_case(const WireWriter& values) {
    return outputs("C",
                   {constant(WireWriter()
                                 .bytes_field(p::Attribute::name, "sparse_value")
                                 .message(p::Attribute::sparse_tensor, sparse_of(values))
                                 .int_field(p::Attribute::type, 11))},
                   WireWriter());
}

WireWriter node(std::string_view op, const Names& in, const Names& out, std::string_view name) {
    return ob::node(op, in, out, name);
}
WireWriter with_graph_attr(WireWriter n, std::string_view attr, const WireWriter& g) {
    n.message(p::Node::attribute, ob::attr_graph(attr, g));
    return n;
}
WireWriter ints_attr(std::string_view name, std::initializer_list<int64_t> v) {
    WireWriter a = WireWriter().bytes_field(p::Attribute::name, name);
    for (int64_t x : v) a.int_field(p::Attribute::ints, static_cast<uint64_t>(x));
    return a.int_field(p::Attribute::type, 7);
}
WireWriter int64s(std::string_view name, std::initializer_list<int64_t> v) {
    std::string raw;
    for (int64_t x : v)
        for (int i = 0; i < 8; ++i) raw += static_cast<char>((static_cast<uint64_t>(x) >> (8 * i)) & 0xFF);
    return ob::tensor_raw(name, 7, {static_cast<int64_t>(v.size())}, raw);
}

/// A model of the given nodes; inputs and outputs typed float [1]; extra graph fields.
std::string model_of(const std::vector<WireWriter>& nodes, const Names& inputs, const Names& outputs_,
                     const std::vector<WireWriter>& initializers = {}, std::string_view extra_opsets = {}) {
    WireWriter g = graph_of(nodes, inputs, outputs_);
    for (const auto& t : initializers) g.message(p::Graph::initializer, t);
    return ob::model(g).str() + std::string(extra_opsets);
}

/// `levels` nodes of type op nested in each other's `attr` (body or then_branch); the
/// innermost holds a node reading the main input X.
std::string nested(std::string_view op, std::string_view attr, int levels) {
    WireWriter g = bare_graph({node("Identity", {"X"}, {"leaf"}, "leaf")}, {}, {"leaf"});
    for (int k = levels - 1; k >= 0; --k) {
        WireWriter n = with_graph_attr(
            node(op, {}, {k == 0 ? "Y" : "y" + std::to_string(k)}, std::string(op) + std::to_string(k)), attr, g);
        if (k == 0) return ob::model(graph_of({n}, {"X"}, {"Y"})).str();
        g = bare_graph({n}, {}, {"y" + std::to_string(k)});
    }
    return {};
}

std::string long_name(size_t n, char ch = 'a') { return std::string(n, ch); }

}  // namespace

void add_published_cases(Corpus& c) {
    // Side entries: a link to the corpus folder's parent (where the canary lives during a
    // matrix run), a last component that links to the canary, and a FIFO (generated only:
    // git cannot hold one).
    c.side_symlink("link-parent", "..");
    c.side_symlink("link-canary.bin", up_canary);
    c.side_fifo("fifo.bin");

    // Traversal to the canary through initializers (onnx CVE-2022-25882, CVE-2024-27318,
    // CVE-2026-27489, CVE-2026-34447).
    c.refuse("ExternalData", "canary-dotdot-leading", r::relative,
             "initializer T at ../onnx-gauntlet-canary.bin (a leading ..)",
             initializer_case(external_at("T", up_canary)));
    c.refuse("ExternalData", "canary-dotdot-middle", r::relative,
             "initializer T at sub/../../onnx-gauntlet-canary.bin (a .. in the middle; a sanitizer that strips leading "
             "../ misses it)",
             initializer_case(external_at("T", "sub/../../" + std::string(canary))));
    c.refuse("ExternalData", "canary-absolute", r::relative,
             "initializer T at /proc/self/cwd/onnx-gauntlet-canary.bin: absolute, reaching the canary from the "
             "reader's working folder",
             initializer_case(external_at("T", abs_canary)));
    c.refuse("ExternalData", "canary-parent-link", r::inside,
             "initializer T at link-parent/onnx-gauntlet-canary.bin, link-parent -> .. (a link in a parent folder of "
             "the location)",
             initializer_case(external_at("T", parent_link_canary)));
    c.refuse("ExternalData", "canary-last-link", r::inside,
             "initializer T at link-canary.bin -> ../onnx-gauntlet-canary.bin (the last component links out)",
             initializer_case(external_at("T", "link-canary.bin")));

    // The same through a sparse initializer's values and a Constant's sparse_value (still
    // open in ONNX Runtime 1.26), and a Constant's value tensor.
    struct Where { const char* name; std::string location; const char* how; };
    const Where where[] = {
        {"dotdot", up_canary, "../onnx-gauntlet-canary.bin"},
        {"absolute", abs_canary, "/proc/self/cwd/onnx-gauntlet-canary.bin"},
        {"parent-link", parent_link_canary, "link-parent/onnx-gauntlet-canary.bin, link-parent -> .."},
    };
    for (const Where& w : where) {
        c.refuse("ExternalData", std::string("canary-sparse-initializer-values-") + w.name, r::everywhere,
                 std::string("a sparse initializer's values at ") + w.how,
                 sparse_initializer_case(external_at("sp", w.location)));
        c.refuse("ExternalData", std::string("canary-constant-sparse-value-") + w.name, r::everywhere,
                 std::string("a Constant's sparse_value with its values at ") + w.how,
                 constant_sparse_case(external_at("v", w.location)));
        c.refuse("ExternalData", std::string("canary-constant-value-") + w.name, r::everywhere,
                 std::string("a Constant's value tensor at ") + w.how,
                 constant_value_case(external_at("v", w.location)));
    }

    // ONNX Runtime's memory-address locations (the offset used as a pointer).
    c.refuse("ExternalData", "location-ort-native-endian-mem-addr", r::foreign_names,
             "*/_ORT_NATIVE_ENDIAN_MEM_ADDR_/* with offset 4096: a path to nothing here",
             initializer_case(external("T", {{"location", "*/_ORT_NATIVE_ENDIAN_MEM_ADDR_/*"}, {"offset", "4096"}})));
    c.refuse("ExternalData", "constant-ort-mem-addr", r::foreign_names,
             "a Constant's value at */_ORT_MEM_ADDR_/*, offset 4096",
             constant_value_case(external("v", {{"location", "*/_ORT_MEM_ADDR_/*"}, {"offset", "4096"}})));
    c.refuse("ExternalData", "constant-ort-native-endian-mem-addr", r::foreign_names,
             "a Constant's value at */_ORT_NATIVE_ENDIAN_MEM_ADDR_/*",
             constant_value_case(external("v", {{"location", "*/_ORT_NATIVE_ENDIAN_MEM_ADDR_/*"}})));

    // external_data entries (onnx CVE-2026-34445) and ranges.
    const std::string data_bin_head = pattern(64, 7).substr(0, 16);  // data.bin, as cases_external.cpp writes it
    c.accept(
        "external-unknown-keys-ignored", r::unknown_key,
        "keys __class__ and basepath (= /etc) beside location data.bin: ignored, the bytes are data.bin's",
        model_with_initializer(external("T", {{"__class__", "x"}, {"location", "data.bin"}, {"basepath", "/etc"}})),
        {{"tensor_sha256", {{"T", sha256_hex(data_bin_head)}}}});
    c.refuse("ExternalData", "offset-far-beyond-file", r::range_end,
             "offset 2^40 into a 64-byte file (padding to it on save exhausts the disk)",
             model_with_initializer(external("T", {{"location", "data.bin"}, {"offset", "1099511627776"}})));
    {
        Case& k = c.refuse("ExternalData", "location-fifo", r::not_regular,
                           "fifo.bin is a FIFO inside the folder: not a file, and opening it to read would block",
                           model_with_initializer(external("T", {{"location", "fifo.bin"}})));
        k.generated_only = true;
        k.endless = true;
    }

    c.refuse("ExternalData", "bytes-no-directory-escaping", r::joined,
             "imported from bytes with no directory named, location ../onnx-gauntlet-canary.bin",
             initializer_case(external_at("T", up_canary)))
        .options = {{"import", "bytes"}};
    c.refuse("ExternalData", "bytes-with-directory-escaping", r::relative,
             "imported from bytes with the corpus folder named, location ../onnx-gauntlet-canary.bin",
             initializer_case(external_at("T", up_canary)))
        .options = {{"import", "bytes"}, {"external_dir", "."}};
    // onnx 1.21 with an empty external-data folder: its containment check compared with the empty
    // base and never fired. Here the folder is named by the empty relative name (the corpus folder).
    c.refuse("ExternalData", "bytes-empty-directory-parent-link", r::inside,
             "imported from bytes with the external-data folder named as the empty path, location "
             "link-parent/onnx-gauntlet-canary.bin, link-parent -> ..",
             initializer_case(external_at("T", parent_link_canary)))
        .options = {{"import", "bytes"}, {"external_dir", ""}};

    // Names around and above 2 KiB in refusals (onnx CVE-2024-27319: formatting them was off
    // by one).
    for (size_t n : {2047u, 2048u, 2049u, 4096u}) {
        const std::string name = long_name(n);
        c.refuse("InvalidModel", "long-name-" + std::to_string(n) + "-undefined-input", r::long_names,
                 "node n1 reads a value named by " + std::to_string(n) + " bytes that nothing defines",
                 model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {name}, {"Z"}, "n1")}, {"X"}, {"Y"}))
            .refusal_names = name;
    }
    {
        // A 2-byte character across the 2048-byte mark: cutting there splits it.
        const std::string name = long_name(2047) + "\xc3\xa9" + long_name(10);
        c.refuse(
             "InvalidModel", "long-name-utf8-across-2kib", r::long_names,
             "an undefined input named by 2047 bytes, then U+00E9 (2 bytes) across the 2048-byte mark, then 10 bytes",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {name}, {"Z"}, "n1")}, {"X"}, {"Y"}))
            .refusal_names = name;
    }
    c.refuse("InvalidModel", "long-node-name-in-cycle", r::long_names,
             "a two-node cycle whose nodes have 2048-byte names",
             model_of({node("Neg", {"q"}, {"p"}, long_name(2048, 'p')), node("Neg", {"p"}, {"q"}, long_name(2048, 'q')),
                       node("Identity", {"X"}, {"Y"}, "n0")},
                      {"X"}, {"Y"}));
    c.refuse("InvalidModel", "long-name-duplicate-initializer", r::long_names,
             "two initializers named by the same 2048 bytes",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"},
                      {ob::tensor_raw(long_name(2048, 'w'), 1, {1}, floats_le({1})),
                       ob::tensor_raw(long_name(2048, 'w'), 1, {1}, floats_le({1}))}))
        .refusal_names = long_name(2048, 'w');
    c.refuse("InvalidModel", "long-graph-output-undefined", r::long_names,
             "a graph output named by 4096 bytes that nothing defines",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y", long_name(4096, 'o')}))
        .refusal_names = long_name(4096, 'o');
    c.refuse("ExternalData", "long-location-dotdot", r::relative,
             "a 4096-byte location that climbs out with .. at its end",
             model_with_initializer(external("T", {{"location", long_name(4090, 'd') + "/../.."}})));

    // Nesting (ONNX Runtime 2026: a 3.6 KB model of 20 nested If graphs took 56 s; shape
    // inference recursing without bound into If, Loop and Scan).
    c.accept("slow-20-nested-if-captures", r::near_linear,
             "20 nested If nodes with then and else branches; each level reads X and every outer level's value",
             [] {
                 const int levels = 20;
                 Names all{"X"};
                 for (int j = 0; j < levels; ++j) all.push_back("v" + std::to_string(j));
                 WireWriter g = bare_graph({node("Sum", all, {"leaf"}, "leaf")}, {}, {"leaf"});
                 for (int k = levels - 1; k >= 0; --k) {
                     const std::string ks = std::to_string(k), vk = "v" + ks;
                     Names reads{"X"};
                     for (int j = 0; j < k; ++j) reads.push_back("v" + std::to_string(j));
                     // The condition a BOOL, as If requires: ONNX Runtime type-checks before it nests.
                     WireWriter cast = node("Cast", {vk}, {"c" + ks}, "cast" + ks);
                     cast.message(p::Node::attribute, ob::attr_int("to", 9));
                     WireWriter n = node("If", {"c" + ks}, {k == 0 ? "Y" : "y" + ks}, "if" + ks);
                     n = with_graph_attr(n, "then_branch", g);
                     n = with_graph_attr(n, "else_branch",
                                         bare_graph({node("Neg", {vk}, {"e" + ks}, "else" + ks)}, {}, {"e" + ks}));
                     std::vector<WireWriter> nodes{node("Sum", reads, {vk}, "sum" + ks), cast, n};
                     if (k == 0) return ob::model(graph_of(nodes, {"X"}, {"Y"})).str();
                     g = bare_graph(nodes, {}, {"y" + ks});
                 }
                 return std::string();
             }(),
             {{"node_order", {"sum0", "cast0", "if0"}},
              {"captures",
               {{"if0/then_branch", {"X", "v0"}},
                {"if0/else_branch", {"v0"}},
                {"if0/then_branch/if1/then_branch", {"X", "v0", "v1"}}}}});
    c.accept("nesting-42-loops", r::nesting3, "42 Loop bodies nested in each other: the innermost node is at level 128",
             nested("Loop", "body", 42), {{"node_order", {"Loop0"}}, {"captures", {{"Loop0/body", {"X"}}}}});
    c.accept("nesting-42-scans", r::nesting3, "42 Scan bodies nested in each other: the innermost node is at level 128",
             nested("Scan", "body", 42), {{"node_order", {"Scan0"}}});
    c.refuse("Malformed", "nesting-deep-loops-far-beyond", r::nesting,
             "1000 nested Loop bodies (level 3000): refused, not a stack overflow", nested("Loop", "body", 1000));
    c.refuse("Malformed", "nesting-deep-scans-far-beyond", r::nesting, "1000 nested Scan bodies",
             nested("Scan", "body", 1000));

    // Operators that crashed shape inference or conversion elsewhere: not checked here (D9).
    const int64_t big = int64_t{1} << 62;
    WireWriter scan_body = bare_graph({node("Identity", {"s"}, {"t"}, "b")}, {"s"}, {"t"});
    c.accept("op-scan-num-scan-inputs-past-inputs", r::operators, "Scan with num_scan_inputs 100 and one input",
             [&] {
                 WireWriter n = with_graph_attr(node("Scan", {"X"}, {"Y"}, "scan"), "body", scan_body);
                 n.message(p::Node::attribute, ob::attr_int("num_scan_inputs", 100));
                 return model_of({n}, {"X"}, {"Y"});
             }(),
             {{"attribute_int", {{"scan/num_scan_inputs", 100}}}});
    c.accept("op-scan-num-scan-inputs-negative", r::operators,
             "Scan with num_scan_inputs -1 (an unsigned count underflows)",
             [&] {
                 WireWriter n = with_graph_attr(node("Scan", {"X"}, {"Y"}, "scan"), "body", scan_body);
                 n.message(p::Node::attribute, ob::attr_int("num_scan_inputs", -1));
                 return model_of({n}, {"X"}, {"Y"});
             }(),
             {{"attribute_int", {{"scan/num_scan_inputs", -1}}}});
    c.accept("op-conv-huge-kernel", r::operators,
             "Conv with kernel_shape [2^62, 2^62], pads of INT64_MAX and strides 0",
             [&] {
                 WireWriter n = node("Conv", {"X", "W"}, {"Y"}, "conv");
                 n.message(p::Node::attribute, ints_attr("kernel_shape", {big, big}));
                 n.message(p::Node::attribute, ints_attr("pads", {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}));
                 n.message(p::Node::attribute, ints_attr("strides", {0, 0}));
                 return model_of({n}, {"X"}, {"Y"}, {ob::tensor_raw("W", 1, {1, 1, 1, 1}, floats_le({1}))});
             }(),
             {{"attribute_ints", {{"conv/kernel_shape", {big, big}}}}});
    c.accept("op-maxpool-huge-kernel", r::operators, "MaxPool with kernel_shape [INT64_MAX] and dilations [-1]",
             [&] {
                 WireWriter n = node("MaxPool", {"X"}, {"Y"}, "pool");
                 n.message(p::Node::attribute, ints_attr("kernel_shape", {INT64_MAX}));
                 n.message(p::Node::attribute, ints_attr("dilations", {-1}));
                 return model_of({n}, {"X"}, {"Y"});
             }(),
             {{"attribute_ints", {{"pool/kernel_shape", {INT64_MAX}}}}});
    c.accept("op-col2im-huge-image-shape", r::operators, "Col2Im with image_shape [2^62, 2^62] and block_shape [0, -1]",
             model_of({node("Col2Im", {"X", "image_shape", "block_shape"}, {"Y"}, "col2im")}, {"X"}, {"Y"},
                      {int64s("image_shape", {big, big}), int64s("block_shape", {0, -1})}),
             {{"node_order", {"col2im"}}});
    c.accept("op-div-int64-min-by-minus-one", r::operators,
             "Div of two int64 initializers INT64_MIN and -1 (folding it traps)",
             model_of({node("Div", {"a", "b"}, {"q"}, "div"), node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"},
                      {int64s("a", {INT64_MIN}), int64s("b", {-1})}),
             {{"tensor_sha256", {{"a", sha256_hex(std::string(7, '\0') + "\x80")}}}});
    c.accept(
        "op-conv-rank-0-weight", r::operators, "Conv whose weight W is a rank-0 tensor",
        model_of({node("Conv", {"X", "W"}, {"Y"}, "conv")}, {"X"}, {"Y"}, {ob::tensor_raw("W", 1, {}, floats_le({1}))}),
        {{"tensor_dims", {{"W", json::array()}}}});
    c.accept("op-too-few-inputs", r::operators, "Conv and Add with one input each, Gemm with none",
             model_of({node("Conv", {"X"}, {"a"}, "conv"), node("Add", {"a"}, {"b"}, "add"),
                       node("Gemm", {}, {"c"}, "gemm"), node("Identity", {"X"}, {"Y"}, "n0")},
                      {"X"}, {"Y"}),
             {{"node_count", 4}});
    c.accept(
        "op-tile-repeats-longer-than-rank", r::operators, "Tile of a rank-1 input with 5 repeats",
        model_of({node("Tile", {"X", "repeats"}, {"Y"}, "tile")}, {"X"}, {"Y"}, {int64s("repeats", {2, 2, 2, 2, 2})}),
        {{"tensor_dims", {{"repeats", {5}}}}});
    c.accept("op-axis-out-of-range", r::operators, "Concat axis INT64_MIN, Gather axis -100, Split axis 2^40",
             [] {
                 WireWriter cat = node("Concat", {"X", "X"}, {"a"}, "concat");
                 cat.message(p::Node::attribute, ob::attr_int("axis", INT64_MIN));
                 WireWriter gather = node("Gather", {"X", "i"}, {"b"}, "gather");
                 gather.message(p::Node::attribute, ob::attr_int("axis", -100));
                 WireWriter split = node("Split", {"X"}, {"c", "d"}, "split");
                 split.message(p::Node::attribute, ob::attr_int("axis", int64_t{1} << 40));
                 return model_of({cat, gather, split, node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"},
                                 {int64s("i", {7})});
             }(),
             {{"attribute_int", {{"concat/axis", INT64_MIN}, {"gather/axis", -100}}}});
    c.accept("op-matmulnbits-overstated-shape", r::operators,
             "com.microsoft MatMulNBits with K = N = 2^31 and block_size 2^30 over an 8-byte B (read past it at "
             "session creation)",
             [] {
                 WireWriter n = node("MatMulNBits", {"X", "B", "scales"}, {"Y"}, "mm");
                 n.bytes_field(p::Node::domain, "com.microsoft");
                 for (const char* a : {"K", "N"}) n.message(p::Node::attribute, ob::attr_int(a, int64_t{1} << 31));
                 n.message(p::Node::attribute, ob::attr_int("bits", 4));
                 n.message(p::Node::attribute, ob::attr_int("block_size", int64_t{1} << 30));
                 return model_of(
                     {n}, {"X"}, {"Y"},
                     {ob::tensor_raw("B", 2, {1, 1, 8}, pattern(8)), ob::tensor_raw("scales", 1, {1}, floats_le({1}))},
                     WireWriter().message(p::Model::opset_import, ob::opset("com.microsoft", 1)).str());
             }(),
             {{"opset_version", {{"mm", 1}}}, {"attribute_int", {{"mm/K", int64_t{1} << 31}}}});

    // Values whose type has no or an unknown element type (ONNX Runtime 2020: a crash
    // formatting the type's name). Kept as written (D10).
    auto typed_input = [](const WireWriter& tensor_type) {
        WireWriter g;
        g.message(p::Graph::node, ob::node("Identity", {"X"}, {"Y"}, "n0")).bytes_field(p::Graph::name, "g");
        g.message(p::Graph::input,
                  WireWriter()
                      .bytes_field(p::ValueInfo::name, "X")
                      .message(p::ValueInfo::type, WireWriter().message(p::Type::tensor_type, tensor_type)));
        g.message(p::Graph::output, ob::value_info("Y"));
        return ob::model(g).str();
    };
    c.accept("type-value-no-elem-type", r::value_elem_type,
             "input X is a tensor type with a shape [2] and no elem_type",
             typed_input(WireWriter().message(
                 p::TensorType::shape,
                 WireWriter().message(p::Shape::dim, WireWriter().int_field(p::Dimension::dim_value, 2)))),
             {{"value_decl_elem_type", {{"X", 0}}}, {"value_shape", {{"X", {2}}}}});
    c.accept("type-value-elem-type-out-of-range", r::value_elem_type, "input X of elem_type 9999",
             typed_input(WireWriter().int_field(p::TensorType::elem_type, 9999)),
             {{"value_decl_elem_type", {{"X", 9999}}}});
    c.accept("type-value-elem-type-negative", r::value_elem_type, "input X of elem_type -1",
             typed_input(WireWriter().int_field(p::TensorType::elem_type, ~uint64_t{0})),
             {{"value_decl_elem_type", {{"X", -1}}}});
}

}  // namespace hostile
