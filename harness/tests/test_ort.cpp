// Suite `ort`: the .ort reader (importer/src/ort/). Buffers come from FlatBuffers'
// generated builder (harness/support/ort_builder.hpp); each semantic refusal is checked
// for kind, offset and the field path in the schema's names; layouts a verifying reader
// must accept (shared and forward vtables, unknown trailing fields) are accepted.
#include <onnximport/import.hpp>
#include <onnx_builders.hpp>
#include <ort_builder.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

using namespace onnximport;
namespace tb = onnximport::testing;
namespace ofb = onnximport::ortfb;

namespace {

Model import_ort(const std::vector<uint8_t>& b, ImportOptions o = {}) {
    return import_bytes(std::vector<uint8_t>(b), "test.ort", o);
}

ImportError refusal(const std::vector<uint8_t>& b, ImportOptions o = {}) {
    try {
        import_ort(b, o);
    } catch (const ImportError& e) {
        return e;
    }
    BOOST_FAIL("expected an ImportError, the buffer was accepted");
    throw;
}

void expect(const std::vector<uint8_t>& b, ErrorKind kind, std::optional<uint64_t> offset, const std::string& path,
            ImportOptions o = {}) {
    const ImportError e = refusal(b, o);
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(to_string(e.kind()) == to_string(kind));
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(e.field_path() == path);
    if (offset) {
        BOOST_TEST_INFO("refusal: " << e.what());
        BOOST_TEST(e.offset().value_or(~uint64_t{0}) == *offset);
    }
}

const ofb::Graph* graph_of(const std::vector<uint8_t>& b) {
    return ofb::GetInferenceSession(b.data())->model()->graph();
}
uint64_t at(const std::vector<uint8_t>& b, const void* p) { return static_cast<const uint8_t*>(p) - b.data(); }
/// Where field `vt` of a table is stored.
template <class T>
uint64_t field(const std::vector<uint8_t>& b, const T* table, uint16_t vt) {
    return at(b, reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(vt));
}
void zero_u32(std::vector<uint8_t>& b, uint64_t offset) { std::memset(b.data() + offset, 0, 4); }

}  // namespace

BOOST_AUTO_TEST_SUITE(ort)

BOOST_AUTO_TEST_CASE(a_relu_model_imports_into_the_same_model_as_onnx) {
    const auto b = tb::build_ort(tb::relu_model());
    Model m = import_ort(b);
    BOOST_TEST(m.proto().ir_version == 8);
    BOOST_TEST(m.proto().producer_name == "ort-builder");
    BOOST_TEST_REQUIRE(m.proto().opset_import.size() == 1u);
    BOOST_TEST(m.proto().opset_import[0].version == 17);
    const Graph& g = *m.graph();
    BOOST_TEST_REQUIRE(g.inputs.size() == 1u);
    BOOST_TEST(g.inputs[0].name == "X");
    BOOST_TEST((g.inputs[0].type.kind == TypeProto::Kind::Tensor));
    BOOST_TEST_REQUIRE(g.inputs[0].type.shape.size() == 1u);
    BOOST_TEST(g.inputs[0].type.shape[0].value() == 2);
    BOOST_TEST(g.outputs[0].name == "Y");
    BOOST_TEST_REQUIRE(g.value_info.size() == 1u);  // W: neither input nor output
    BOOST_TEST(g.value_info[0].name == "W");
    BOOST_TEST_REQUIRE(g.nodes.size() == 1u);
    BOOST_TEST(g.nodes[0].op_type == "Relu");
    BOOST_TEST(g.resolved);
    BOOST_TEST(g.find_value("Y")->producer == 0);
}

BOOST_AUTO_TEST_CASE(names_and_raw_data_are_views_into_the_buffer) {
    const auto b = tb::build_ort(tb::relu_model());
    Model m = import_bytes(std::span<const uint8_t>(b), "view.ort");
    const TensorView& w = m.graph()->initializers[0];
    const auto* lo = reinterpret_cast<const std::byte*>(b.data());
    BOOST_TEST((w.bytes().data() >= lo && w.bytes().data() + w.bytes().size() <= lo + b.size()));
    BOOST_TEST(w.bytes().size() == 8u);
    BOOST_TEST((w.source == TensorSource::Raw));
    BOOST_TEST(static_cast<uint32_t>(w.bytes()[3]) == 63u);
    const char* name = m.graph()->nodes[0].name.data();
    BOOST_TEST(
        (name >= reinterpret_cast<const char*>(b.data()) && name < reinterpret_cast<const char*>(b.data()) + b.size()));
}

BOOST_AUTO_TEST_CASE(a_file_is_recognized_by_content_not_by_name) {
    const auto b = tb::build_ort(tb::relu_model());
    Model m = import_bytes(std::vector<uint8_t>(b), "model.onnx");
    BOOST_TEST(m.graph()->nodes.size() == 1u);
    auto broken = b;
    broken[5] = 'X';  // no ORTM: read as protobuf, which it is not
    BOOST_TEST(to_string(refusal(broken).kind()) == "Malformed");
    BOOST_TEST(refusal(broken).field_path().rfind("ModelProto", 0) == 0);
}

BOOST_AUTO_TEST_CASE(a_zero_dimension_makes_no_elements_whatever_the_others_are) {
    auto spec = tb::relu_model();
    spec.graph.initializers[0].dims = {int64_t{1} << 62, int64_t{1} << 62, 0};
    spec.graph.initializers[0].raw = std::vector<uint8_t>{};
    Model m = import_ort(tb::build_ort(spec));
    BOOST_TEST(m.graph()->initializers[0].element_count == 0u);
    spec.graph.initializers[0].dims = {int64_t{1} << 62, int64_t{1} << 62};  // no zero: too many
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.initializers[0].dims");
}

BOOST_AUTO_TEST_CASE(a_onnx_carrying_ORTM_at_bytes_4_to_7_is_read_as_onnx) {
    // ir_version 9 and a producer_name of 13 bytes: 08 09 12 0d, then "ORTM".
    const std::string onnx = tb::WireWriter()
                                 .int_field(onnximport::proto::Model::ir_version, 9)
                                 .bytes_field(onnximport::proto::Model::producer_name, "ORTM-producer")
                                 .message(onnximport::proto::Model::graph, tb::minimal_graph())
                                 .message(onnximport::proto::Model::opset_import, tb::opset("", 21))
                                 .str();
    const std::vector<uint8_t> b(onnx.begin(), onnx.end());
    BOOST_TEST_REQUIRE(std::memcmp(b.data() + 4, "ORTM", 4) == 0);
    Model m = import_ort(b);
    BOOST_TEST(m.proto().producer_name == "ORTM-producer");
    BOOST_TEST(m.graph()->nodes.at(0).op_type == "Identity");
    // Neither a .ort nor a .onnx: the .ort's refusal, as the content said .ort.
    auto garbage = b;
    garbage.resize(40);
    BOOST_TEST(to_string(refusal(garbage).kind()) == "Malformed");
}

BOOST_AUTO_TEST_CASE(the_builder_writes_what_onnx_runtime_looks_kernels_up_by) {
    // Each node at its operator's version under the imported opset, and the resolver for it
    // (docs/matrix.md, "What ONNX Runtime's `.ort` loader lets through").
    auto spec = tb::chain_model();
    spec.graph.nodes[1].op_type = "Add";
    spec.graph.nodes[1].inputs = {"T", "T"};
    const auto b = tb::build_ort(spec);
    const auto* session = ofb::GetInferenceSession(b.data());
    BOOST_TEST(session->model()->graph()->nodes()->Get(0)->since_version() == 14);  // Relu under opset 17
    const auto* ops = session->kernel_type_str_resolver()->op_kernel_type_str_args();
    BOOST_TEST_REQUIRE(ops->size() == 2u);
    BOOST_TEST(ops->Get(0)->op_id()->str() == ":Add:14");  // key order
    BOOST_TEST(ops->Get(1)->op_id()->str() == ":Relu:14");
    const auto* add_t = ops->Get(0)->kernel_type_str_args()->Get(0);
    BOOST_TEST(add_t->kernel_type_str()->str() == "T");
    BOOST_TEST(add_t->args()->size() == 3u);  // A, B and C
    spec.kernel_resolver = false;
    BOOST_TEST(!ofb::GetInferenceSession(tb::build_ort(spec).data())->kernel_type_str_resolver());
}

/// X -> Relu -> v0 -> ... -> v(n-1), the NodeArgs in no order of theirs (as ONNX Runtime writes
/// them: its hash table's order) and the names shared.
tb::OrtModelSpec scattered_chain(uint32_t n) {
    tb::OrtModelSpec m = tb::relu_model();
    m.share_strings = true;
    m.graph.initializers.clear();
    m.graph.nodes.clear();
    std::vector<std::string> names{"X"};
    for (uint32_t i = 0; i < n; ++i) {
        names.push_back("v" + std::to_string(i));
        m.graph.nodes.push_back({.index = i, .inputs = {names[i]}, .outputs = {names[i + 1]}});
    }
    m.graph.node_args.clear();
    for (size_t k = 0; k < names.size(); ++k) m.graph.node_args.push_back({names[(k * 37) % names.size()]});
    m.graph.outputs = {names.back()};
    return m;
}

BOOST_AUTO_TEST_CASE(node_args_in_no_order_are_found_and_a_missing_one_refused_at_its_node) {
    // The node outputs' NodeArgs are looked up past eight misses in a row with their answers a
    // few outputs later (model/name_run.hpp): the refusal still names the node and the name.
    const tb::OrtModelSpec spec = scattered_chain(300);  // 301 NodeArgs: 37 is prime to 301
    const Model m = import_ort(tb::build_ort(spec));
    BOOST_TEST(m.graph()->value_info.size() == 299u);  // all but X and v299
    bool all_typed = true;
    for (uint32_t i = 0; i < 300; ++i) all_typed = all_typed && m.graph()->find_value("v" + std::to_string(i))->type;
    BOOST_TEST(all_typed);

    tb::OrtModelSpec broken = spec;
    std::erase_if(broken.graph.node_args, [](const tb::OrtValueSpec& v) { return v.name == "v200"; });
    const auto b = tb::build_ort(broken);
    const auto* name = graph_of(b)->nodes()->Get(200)->outputs()->Get(0);
    expect(b, ErrorKind::InvalidModel, at(b, name->data()), "InferenceSession.model.graph.nodes[200]");
    BOOST_TEST(std::string(refusal(b).what()).find("node output 'v200' has no NodeArg") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(node_names_loaded_ahead_read_nothing_outside_a_broken_buffer) {
    // With NodeArgs in no order the walk loads the input names of the node eight ahead
    // (FbReader::prefetch_strings), reading that node's offsets unchecked: its entry and every word
    // around its table overwritten with offsets that point anywhere must end in a refusal
    // or an acceptance, never a read outside the buffer (the ASan build runs this too).
    const auto b = tb::build_ort(scattered_chain(300));
    const auto* nodes = graph_of(b)->nodes();
    const uint64_t table = at(b, nodes->Get(150));
    std::vector<uint64_t> places{at(b, nodes->data()) + 4 * 150};  // the node's entry in `nodes`
    for (uint64_t offset = table - 32; offset < table + 64; offset += 4) places.push_back(offset);
    int refused = 0, cases = 0;
    for (uint32_t word : {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFF0u, 0x00010000u}) {
        for (const uint64_t offset : places) {
            auto broken = b;
            std::memcpy(broken.data() + offset, &word, 4);
            ++cases;
            try {
                import_ort(broken);
            } catch (const ImportError&) {
                ++refused;
            }
        }
    }
    BOOST_TEST(cases == 125);
    BOOST_TEST(refused > cases / 2);
}

BOOST_AUTO_TEST_CASE(shared_vtables_are_accepted) {
    const auto b = tb::build_ort(tb::chain_model());  // NodeArgs of the same fields share a vtable
    const auto* args = graph_of(b)->node_args();
    auto vtable_of = [&](const void* t) {
        int32_t so;
        std::memcpy(&so, t, 4);
        return at(b, t) - so;
    };
    BOOST_TEST(vtable_of(args->Get(0)) == vtable_of(args->Get(1)));
    BOOST_TEST(vtable_of(args->Get(1)) == vtable_of(args->Get(2)));
    BOOST_TEST(import_ort(b).graph()->value_info[0].name == "T");
}

BOOST_AUTO_TEST_CASE(a_vtable_after_its_table_is_accepted) {
    const auto b = tb::with_forward_root_vtable(tb::build_ort(tb::relu_model()));
    int32_t so;
    uint32_t root;
    std::memcpy(&root, b.data(), 4);
    std::memcpy(&so, b.data() + root, 4);
    BOOST_TEST(so < 0);
    BOOST_TEST(import_ort(b).graph()->outputs[0].name == "Y");
}

BOOST_AUTO_TEST_CASE(unknown_trailing_fields_are_skipped) {
    auto spec = tb::relu_model();
    spec.graph.initializers[0].unknown_trailing_field = true;
    Model m = import_ort(tb::build_ort(spec));
    BOOST_TEST(m.graph()->initializers[0].bytes().size() == 8u);
}

BOOST_AUTO_TEST_CASE(a_buffer_that_is_not_well_formed_is_malformed_where_it_breaks) {
    auto b = tb::build_ort(tb::relu_model());
    b.resize(b.size() - 12);  // cut: offsets now point past the end
    const ImportError cut = refusal(b);
    BOOST_TEST_INFO("refusal: " << cut.what());
    BOOST_TEST(to_string(cut.kind()) == "Malformed");
    BOOST_TEST(cut.offset().value_or(0) > 0u);
    BOOST_TEST(cut.offset().value_or(b.size()) < b.size());
    BOOST_TEST(cut.field_path().rfind("InferenceSession.", 0) == 0u);
    auto root_past_end = tb::build_ort(tb::relu_model());
    const uint32_t far = static_cast<uint32_t>(root_past_end.size() + 64);
    std::memcpy(root_past_end.data(), &far, 4);
    expect(root_past_end, ErrorKind::Malformed, 0, "InferenceSession.root");
}

BOOST_AUTO_TEST_CASE(onnxruntime_limits_are_an_opt_in_check_with_its_own_refusal) {
    const auto b = tb::build_ort(tb::relu_model());
    ImportOptions few_tables;
    few_tables.onnxruntime_limits = true;
    few_tables.ort_max_tables = 3;
    expect(b, ErrorKind::Unsupported, std::nullopt, "InferenceSession", few_tables);
    few_tables.onnxruntime_limits = false;  // the limits alone change nothing
    BOOST_TEST(import_ort(b, few_tables).graph()->nodes.size() == 1u);
    ImportOptions shallow;
    shallow.onnxruntime_limits = true;
    shallow.ort_max_depth = 8;
    auto spec = tb::relu_model();
    auto inner = std::make_shared<tb::OrtGraphSpec>(tb::relu_model().graph);
    for (int i = 0; i < 2; ++i) {  // If in If: each level costs several tables and vectors
        auto outer = std::make_shared<tb::OrtGraphSpec>(tb::relu_model().graph);
        outer->nodes[0].attributes.push_back({.name = "then_branch", .type = 5, .g = inner});
        inner = outer;
    }
    spec.graph = *inner;
    const auto deep = tb::build_ort(spec);
    BOOST_TEST(import_ort(deep).graph()->nodes.size() == 1u);
    expect(deep, ErrorKind::Unsupported, std::nullopt, "InferenceSession", shallow);
    ImportOptions nesting;  // the reader's own bound is max_nesting
    nesting.max_nesting = 8;
    const ImportError e = refusal(deep, nesting);
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(to_string(e.kind()) == "Unsupported");
    BOOST_TEST(e.message().find("max_nesting") != std::string::npos);
    BOOST_TEST(e.offset().value_or(0) > 0u);
}

BOOST_AUTO_TEST_CASE(ort_version_must_be_a_supported_plain_decimal) {
    for (const char* bad : {"abc", "6x", " 5", "-1", "06", "+6", ""}) {
        auto spec = tb::relu_model();
        spec.ort_version = bad;
        const auto b = tb::build_ort(spec);
        const auto* s = ofb::GetInferenceSession(b.data())->ort_version();
        BOOST_TEST_INFO("ort_version " << bad);
        expect(b, ErrorKind::InvalidModel, at(b, s), "InferenceSession.ort_version");
    }
    for (const char* newer : {"7", "99999999999"}) {
        auto spec = tb::relu_model();
        spec.ort_version = newer;
        BOOST_TEST_INFO("ort_version " << newer);
        expect(tb::build_ort(spec), ErrorKind::Unsupported, std::nullopt, "InferenceSession.ort_version");
    }
    auto zero = tb::relu_model();
    zero.ort_version = "0";
    expect(tb::build_ort(zero), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.ort_version");
    for (const char* ok : {"1", "5", "6"}) {
        auto spec = tb::relu_model();
        spec.ort_version = ok;
        BOOST_TEST(import_ort(tb::build_ort(spec)).graph()->nodes.size() == 1u);
    }
    auto missing = tb::relu_model();
    missing.ort_version.reset();
    expect(tb::build_ort(missing), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.ort_version");
}

BOOST_AUTO_TEST_CASE(a_session_without_model_or_graph_is_invalid) {
    auto no_model = tb::relu_model();
    no_model.has_model = false;
    expect(tb::build_ort(no_model), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model");
    auto no_graph = tb::relu_model();
    no_graph.has_graph = false;
    expect(tb::build_ort(no_graph), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.graph");
    auto old = tb::relu_model();
    old.ir_version = 2;
    expect(tb::build_ort(old), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.ir_version");
}

BOOST_AUTO_TEST_CASE(a_zero_offset_inside_a_vector_is_refused_where_it_is) {
    auto b = tb::build_ort(tb::relu_model());
    const uint64_t slot = at(b, graph_of(b)->nodes()->Data());
    zero_u32(b, slot);
    expect(b, ErrorKind::InvalidModel, slot, "InferenceSession.model.graph.nodes[0]");
    auto c = tb::build_ort(tb::relu_model());
    const uint64_t init = at(c, graph_of(c)->initializers()->Data());
    zero_u32(c, init);
    expect(c, ErrorKind::InvalidModel, init, "InferenceSession.model.graph.initializers[0]");
    auto d = tb::build_ort(tb::relu_model());
    const uint64_t opset = at(d, ofb::GetInferenceSession(d.data())->model()->opset_import()->Data());
    zero_u32(d, opset);
    expect(d, ErrorKind::InvalidModel, opset, "InferenceSession.model.opset_import[0]");
}

BOOST_AUTO_TEST_CASE(raw_data_must_match_dims_and_dims_must_be_sane) {
    auto spec = tb::relu_model();
    spec.graph.initializers[0].raw->push_back(0);
    auto b = tb::build_ort(spec);
    const auto* t = graph_of(b)->initializers()->Get(0);
    expect(b, ErrorKind::InvalidModel, field(b, t, ofb::Tensor::VT_RAW_DATA),
           "InferenceSession.model.graph.initializers[0].raw_data");
    spec = tb::relu_model();
    spec.graph.initializers[0].dims = {-2};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.initializers[0].dims");
    spec.graph.initializers[0].dims = {1 << 30, 1 << 30, 1 << 30};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.initializers[0].dims");
    spec.graph.initializers[0].dims = {1 << 30, 4};
    expect(tb::build_ort(spec), ErrorKind::Unsupported, std::nullopt,
           "InferenceSession.model.graph.initializers[0].dims");
    spec.graph.initializers[0].dims = {2};
    spec.graph.initializers[0].raw.reset();
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.graph.initializers[0]");
}

BOOST_AUTO_TEST_CASE(element_types_and_string_tensors_follow_the_schema) {
    for (int32_t code : {0, 21, -1}) {
        auto spec = tb::relu_model();
        spec.graph.initializers[0].data_type = code;
        BOOST_TEST_INFO("data_type " << code);
        expect(tb::build_ort(spec), code == 0 ? ErrorKind::InvalidModel : ErrorKind::Unsupported, std::nullopt,
               "InferenceSession.model.graph.initializers[0].data_type");
    }
    auto strings = tb::relu_model();
    strings.graph.initializers[0] = {.name = "S", .data_type = 8, .dims = {2}, .strings = {"a", "bc"}};
    Model m = import_ort(tb::build_ort(strings));
    BOOST_TEST_REQUIRE(m.graph()->initializers[0].strings.size() == 2u);
    BOOST_TEST(m.graph()->initializers[0].strings[1] == "bc");
    strings.graph.initializers[0].raw = std::vector<uint8_t>{1};
    expect(tb::build_ort(strings), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.initializers[0].raw_data");
    strings.graph.initializers[0].raw.reset();
    strings.graph.initializers[0].strings = {"a"};
    expect(tb::build_ort(strings), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.initializers[0].string_data");
}

BOOST_AUTO_TEST_CASE(external_data_offsets_are_refused_as_external_data) {
    for (int64_t offset : {int64_t{-2}, int64_t{0}, INT64_MAX}) {
        auto spec = tb::relu_model();
        spec.graph.initializers[0].external_data_offset = offset;
        if (offset >= 0) spec.graph.initializers[0].raw.reset();
        BOOST_TEST_INFO("offset " << offset);
        expect(tb::build_ort(spec), ErrorKind::ExternalData, std::nullopt,
               "InferenceSession.model.graph.initializers[0].external_data_offset");
    }
    auto both = tb::relu_model();
    both.graph.initializers[0].external_data_offset = 0;
    const ImportError e = refusal(tb::build_ort(both));
    BOOST_TEST(e.message().find("together with raw_data") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(node_indices_must_be_unique_and_below_max_node_index) {
    auto spec = tb::chain_model();
    spec.graph.nodes[1].index = 0;
    spec.graph.edges.clear();
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.graph");
    spec = tb::chain_model();
    spec.graph.max_node_index = 0xFFFFFFFFu;  // accepted: it sizes nothing
    BOOST_TEST(import_ort(tb::build_ort(spec)).graph()->nodes.size() == 2u);
    spec.graph.max_node_index = 1;
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.graph.nodes[1].index");
}

BOOST_AUTO_TEST_CASE(node_indices_at_or_past_the_node_count_are_found_and_checked_too) {
    // ort/check_edges.cpp looks indices below the node count up directly and sorts the rest.
    auto spec = tb::chain_model();
    spec.graph.max_node_index = 100;
    spec.graph.nodes[0].index = 40;
    spec.graph.nodes[1].index = 7;
    spec.graph.edges = {{40, true, 7, 0, 0}, {7, false, 40, 0, 0}};
    BOOST_TEST(import_ort(tb::build_ort(spec)).graph()->nodes.size() == 2u);
    auto missing = spec;
    missing.graph.edges[0].other = 8;
    expect(tb::build_ort(missing), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    auto twice = spec;
    twice.graph.nodes[1].index = 40;
    twice.graph.edges.clear();
    expect(tb::build_ort(twice), ErrorKind::InvalidModel, std::nullopt, "InferenceSession.model.graph");
}

BOOST_AUTO_TEST_CASE(edges_must_join_existing_nodes_and_the_same_value) {
    BOOST_TEST(import_ort(tb::build_ort(tb::chain_model())).graph()->nodes.size() == 2u);
    auto missing = tb::chain_model();
    missing.graph.edges[0].other = 7;
    expect(tb::build_ort(missing), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    auto src = tb::chain_model();
    src.graph.edges[0].src_arg = 1;
    expect(tb::build_ort(src), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0].src_arg_index");
    auto dst = tb::chain_model();
    dst.graph.edges[1].dst_arg = -1;
    expect(tb::build_ort(dst), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[1].input_edges[0].dst_arg_index");
    auto wrong = tb::chain_model();
    wrong.graph.nodes[1].inputs = {"X"};  // the edge says T
    expect(tb::build_ort(wrong), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    auto twice = tb::chain_model();
    twice.graph.edges.push_back(twice.graph.edges[0]);
    expect(tb::build_ort(twice), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[2].node_index");  // the second entry for node 0
}

BOOST_AUTO_TEST_CASE(an_edge_whose_ends_are_one_shared_string_holds_unless_the_name_is_empty) {
    // ort/check_edges.cpp accepts an edge whose two ends are one string of the buffer without
    // reading either node; an empty name joins nothing, shared or not.
    auto shared = tb::chain_model();
    shared.share_strings = true;
    BOOST_TEST(tb::build_ort(shared).size() < tb::build_ort(tb::chain_model()).size());  // shared indeed
    BOOST_TEST(import_ort(tb::build_ort(shared)).graph()->nodes.size() == 2u);
    auto wrong = shared;
    wrong.graph.nodes[1].inputs = {"X"};  // the edge says T
    expect(tb::build_ort(wrong), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    auto src = shared;
    src.graph.edges[0].src_arg = 1;  // past node 0's one output: node 1's input T, the same string
    expect(tb::build_ort(src), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0].src_arg_index");
    auto empty = shared;
    empty.graph.nodes[0].outputs = {"T", ""};
    empty.graph.nodes[1].inputs = {"T", ""};
    empty.graph.edges[0] = {0, true, 1, 1, 1};  // from the empty output to the empty input
    expect(tb::build_ort(empty), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    empty.share_strings = false;
    expect(tb::build_ort(empty), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0]");
}

BOOST_AUTO_TEST_CASE(an_edge_refused_shows_its_names_with_control_bytes_escaped) {
    // core/text.hpp's promise, which the edge check broke (a fuzz_roundtrip finding, 2026-12-07):
    // node b reads the graph input "X\n" where the edge says T.
    auto spec = tb::chain_model();
    spec.graph.node_args[0].name = spec.graph.inputs[0] = spec.graph.nodes[0].inputs[0] = "X\n";
    spec.graph.nodes[1].inputs = {"X\n"};
    const ImportError e = refusal(tb::build_ort(spec));
    BOOST_TEST(e.field_path() == "InferenceSession.model.graph.node_edges[0].output_edges[0]");
    BOOST_TEST(e.message().find("input 'X\\x0a'") != std::string::npos, e.message());
    BOOST_TEST(e.message().find('\n') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_first_node_edges_entry_in_error_is_the_one_refused) {
    // Whether its reading or one of its edges fails.
    auto spec = tb::chain_model();
    spec.graph.edges[0].src_arg = 1;                  // entry 0's edge names an output node 0 lacks
    spec.graph.edges.push_back(spec.graph.edges[1]);  // entry 2 describes node 1 again: its reading fails
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[0].output_edges[0].src_arg_index");
    spec.graph.edges[0].src_arg = 0;
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_edges[2].node_index");
}

BOOST_AUTO_TEST_CASE(a_bad_graph_input_or_output_name_is_refused_at_its_entry_once) {
    // The entry's path is named once, by the string's own read (it was also pushed around it).
    for (const bool inputs : {true, false}) {
        auto b = tb::build_ort(tb::relu_model());
        const auto* names = inputs ? graph_of(b)->inputs() : graph_of(b)->outputs();
        zero_u32(b, at(b, names) + 4);
        expect(b, ErrorKind::Malformed, std::nullopt,
               std::string("InferenceSession.model.graph.") + (inputs ? "inputs[0]" : "outputs[0]"));
    }
}

BOOST_AUTO_TEST_CASE(node_arg_names_must_be_unique_and_defined) {
    auto twice = tb::relu_model();
    twice.graph.node_args.push_back({"X"});
    expect(tb::build_ort(twice), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_args[3].name");
    auto undefined_output = tb::relu_model();
    undefined_output.graph.outputs = {"Z"};
    expect(tb::build_ort(undefined_output), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.outputs[0]");
    auto undefined_output_of_node = tb::relu_model();
    undefined_output_of_node.graph.nodes[0].outputs = {"Q"};
    expect(tb::build_ort(undefined_output_of_node), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0]");
    auto undefined_input = tb::relu_model();  // resolution's rule, as for .onnx
    undefined_input.graph.nodes[0].inputs = {"Q"};
    const ImportError e = refusal(tb::build_ort(undefined_input));
    BOOST_TEST(to_string(e.kind()) == "InvalidModel");
    BOOST_TEST(e.message().find("\"Q\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(input_arg_counts_must_sum_to_the_inputs) {
    auto spec = tb::relu_model();
    spec.graph.nodes[0].input_arg_counts = std::vector<int32_t>{2};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0].input_arg_counts");
    spec.graph.nodes[0].input_arg_counts = std::vector<int32_t>{2, -1};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0].input_arg_counts");
}

BOOST_AUTO_TEST_CASE(type_union_tags_and_dimension_kinds_must_be_known) {
    for (uint8_t tag : {0, 4, 200}) {
        auto spec = tb::relu_model();
        spec.graph.node_args[0].tag = tag;
        if (tag == 0) spec.graph.node_args[0].tag = 1;  // builder: 0 writes no TypeInfo
        auto b = tb::build_ort(spec);
        // Set the tag byte itself (the builder writes tensor_type, 1).
        const auto* ti = graph_of(b)->node_args()->Get(0)->type();
        b[field(b, ti, ofb::TypeInfo::VT_VALUE_TYPE)] = tag;
        BOOST_TEST_INFO("tag " << int(tag));
        expect(b, ErrorKind::InvalidModel, field(b, ti, ofb::TypeInfo::VT_VALUE_TYPE),
               "InferenceSession.model.graph.node_args[0].type.value_type");
    }
    auto kind = tb::relu_model();
    kind.graph.node_args[0].dim_kind = 3;
    expect(tb::build_ort(kind), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.node_args[0].type.value.shape.dim[0].value.dim_type");
    auto untyped = tb::relu_model();
    untyped.graph.node_args[2].tag = 0;  // no TypeInfo: no type, accepted
    BOOST_TEST((import_ort(tb::build_ort(untyped)).graph()->value_info[0].type.kind == TypeProto::Kind::None));
}

BOOST_AUTO_TEST_CASE(attributes_carry_their_declared_type_and_field) {
    auto spec = tb::relu_model();
    spec.graph.nodes[0].attributes = {{.name = "alpha", .type = 1, .f = 0.5f},
                                      {.name = "axes", .type = 7, .ints = {1, 2}}};
    Model m = import_ort(tb::build_ort(spec));
    const auto& attrs = m.graph()->nodes[0].attributes;
    BOOST_TEST_REQUIRE(attrs.size() == 2u);
    BOOST_TEST(attrs[0].f == 0.5f);
    BOOST_TEST(attrs[0].type_declared);
    BOOST_TEST(attrs[1].ints().size() == 2u);
    spec.graph.nodes[0].attributes = {{.name = "t", .type = 4}};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0].attributes[0].t");
    spec.graph.nodes[0].attributes = {{.name = "sp", .type = 11}};
    expect(tb::build_ort(spec), ErrorKind::Unsupported, std::nullopt,
           "InferenceSession.model.graph.nodes[0].attributes[0].type");
    spec.graph.nodes[0].attributes = {{.name = "u", .type = 0}};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0].attributes[0].type");
    auto bad_tensor = std::make_shared<tb::OrtTensorSpec>(
        tb::OrtTensorSpec{.name = "v", .dims = {3}, .raw = std::vector<uint8_t>{1}});
    spec.graph.nodes[0].attributes = {{.name = "value", .type = 4, .t = bad_tensor}};
    expect(tb::build_ort(spec), ErrorKind::InvalidModel, std::nullopt,
           "InferenceSession.model.graph.nodes[0].attributes[0].t.raw_data");
}

BOOST_AUTO_TEST_CASE(a_subgraph_is_resolved_in_scope) {
    auto spec = tb::relu_model();
    auto branch = std::make_shared<tb::OrtGraphSpec>();
    branch->node_args = {{"X"}, {"Z"}};
    branch->outputs = {"Z"};
    branch->nodes = {{.name = "inner", .inputs = {"X"}, .outputs = {"Z"}}};  // reads the outer X
    spec.graph.nodes[0].attributes = {{.name = "body", .type = 5, .g = branch}};
    Model m = import_ort(tb::build_ort(spec));
    const Graph* g = m.graph()->nodes[0].attributes[0].g();
    BOOST_TEST_REQUIRE(g);
    BOOST_TEST_REQUIRE(g->captures.size() == 1u);
    BOOST_TEST(g->captures[0] == "X");
}

BOOST_AUTO_TEST_CASE(every_buffer_the_verifier_refuses_is_refused_where_it_breaks) {
    // ONNX Runtime's own .ort fuzzing is a byte-XOR sweep; here over a file it wrote, with
    // FlatBuffers' generated Verifier (ONNX Runtime's defaults) as the reference.
    std::ifstream in(std::string(GAUNTLET_SOURCE_DIR) + "/corpus/fuzz_ort/node_test_if.ort", std::ios::binary);
    const std::vector<uint8_t> seed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    BOOST_TEST_REQUIRE(seed.size() > 1000u);
    size_t refused_by_verifier = 0, accepted = 0;
    for (size_t i = 0; i < seed.size(); ++i) {
        for (uint8_t x : {uint8_t{0xFF}, uint8_t{0x01}, uint8_t{0x80}}) {
            auto b = seed;
            b[i] ^= x;
            flatbuffers::Verifier verifier(b.data(), b.size());
            const bool verifies = b.size() > 8 && std::memcmp(b.data() + 4, "ORTM", 4) == 0 &&
                                  ofb::VerifyInferenceSessionBuffer(verifier);
            try {
                import_bytes(std::span<const uint8_t>(b), "sweep.ort");
                BOOST_TEST(verifies, "byte " << i << " ^ " << int(x) << ": accepted a buffer the Verifier refuses");
                ++accepted;
            } catch (const ImportError& e) {
                if (!verifies) ++refused_by_verifier;
                // Located (rule X2): past the header, a place inside the buffer (a zero offset
                // is InvalidModel, as ONNX Runtime's loader refuses it; the rest Malformed).
                if (i >= 8)
                    BOOST_TEST((e.offset() && *e.offset() > 0 && *e.offset() < b.size()),
                               "byte " << i << ": " << e.what());
            }
        }
    }
    BOOST_TEST(refused_by_verifier > 100u);  // the sweep reaches both sides
    BOOST_TEST(accepted > 100u);
}

BOOST_AUTO_TEST_SUITE_END()
