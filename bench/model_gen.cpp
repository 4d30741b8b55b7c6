// Generators for the benchmark models (items 1-4). Small messages are built
// with the harness builders (harness/support) and the field numbers of onnx_fields.hpp;
// the weights are streamed to the file in 1 MiB pieces
// after the enclosing lengths were computed from the sizes alone, so generating the
// 1 GiB model needs no 1 GiB string.
//
//   big           1024 MatMul nodes, 1024 float initializers of 512x512 (1 MiB each) inline
//   big-external  the same graph; the weights in big-external.weights (4 KiB aligned)
//   wide          200,000 Gemm nodes with 4 attributes each, a value_info per value, one
//                 64-byte initializer; node i reads v(i-1) and v(i/2) so the graph is a DAG
//   reversed      wide with its nodes written in reverse order (resolution must sort)
//   big-small     big with 32x32 weights (4 MiB in all): the heap use of a mapped import
//                 must be the same as big's
//   chain         1,000,000 Relu nodes in a chain, in order (sorting stays O(n log n))
//   chain-reversed the same chain written in reverse order
//   chain-10k     a chain of 10,000 nodes: a mid-size graph, whose blocks are below the
//                 large ones (docs/performance-history.md, "Mid-size graphs")
#include "model_gen.hpp"

#include <numbered.hpp>
#include <onnx_builders.hpp>
#include <onnx_fields.hpp>
#include <wire_writer.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string_view>

namespace gauntlet::bench {

namespace {

using onnximport::testing::WireWriter;
using onnximport::testing::LEN;
using onnximport::testing::numbered;
namespace testing = onnximport::testing;
namespace P = onnximport::proto;
using onnximport::proto::operator+;

/// Bump when a generator changes: the stamp makes `make bench` regenerate.
constexpr const char* generator_version = "gauntlet-bench-models v4";

constexpr int big_nodes = 1024;
constexpr int big_dim = 512;   // 512 x 512 floats = 1 MiB per initializer
constexpr int small_dim = 32;  // big-small: the same graph with 1/256 of the weight bytes
constexpr uint64_t external_alignment = 4096;
constexpr int wide_nodes = 200000;
constexpr int wide_dim = 16;
constexpr int chain_nodes = 1000000;
constexpr int mid_chain_nodes = 10000;

constexpr int32_t float_type = 1;  // TensorProto.FLOAT
constexpr uint64_t attr_float = 1;  // AttributeProto.FLOAT
/// Streams bytes to a file, failing loudly.
class Out {
public:
    explicit Out(const std::filesystem::path& p) : f_(std::fopen(p.c_str(), "wb")), path_(p) {
        if (!f_) throw std::runtime_error("cannot create " + p.string());
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    }
    ~Out() {
        if (f_) std::fclose(f_);
    }
    void put(const void* p, size_t n) {
        if (n && std::fwrite(p, 1, n, f_) != n) throw std::runtime_error("cannot write " + path_.string());
        written_ += n;
    }
    void put(std::string_view s) { put(s.data(), s.size()); }
    void len_key(uint32_t field, uint64_t payload) {
        WireWriter w;
        w.key(field, LEN).varint(payload);
        put(w.str());
    }
    void finish() {
        if (std::fclose(f_) != 0) throw std::runtime_error("cannot close " + path_.string());
        f_ = nullptr;
    }
    uint64_t written() const { return written_; }

private:
    std::FILE* f_;
    std::filesystem::path path_;
    uint64_t written_ = 0;
};

}  // namespace

/// Deterministic weights for tensor `index`: floats in [-0.5, 0.5) from an LCG.
void fill_weights(int index, std::vector<float>& buf) {
    uint32_t x = 0x9E3779B9u * static_cast<uint32_t>(index + 1);
    for (float& f : buf) {
        x = x * 1664525u + 1013904223u;
        uint32_t bits = (x >> 9) | 0x3F800000u;
        float v;
        std::memcpy(&v, &bits, 4);
        f = v - 1.5f;
    }
}

namespace {

/// A float tensor's value_info: name, then a tensor type with a fixed shape.
WireWriter tensor_value_info(const std::string& name, const std::vector<int64_t>& dims) {
    return testing::value_info(name, float_type, dims);
}

/// Written field by field: the default domain is an explicit empty string here, which the
/// opset() builder leaves out.
WireWriter model_header() {
    WireWriter m;
    m.int_field(+P::Model::ir_version, 8);
    m.bytes_field(+P::Model::producer_name, "gauntlet-bench");
    m.bytes_field(+P::Model::producer_version, "1");
    m.message(+P::Model::opset_import, WireWriter()
                                           .bytes_field(+P::OperatorSetId::domain, "")
                                           .int_field(+P::OperatorSetId::version, 17));
    return m;
}

WireWriter float_attr(std::string_view name, float v) {
    return WireWriter()
        .bytes_field(+P::Attribute::name, name)
        .float_field(+P::Attribute::f, v)
        .int_field(+P::Attribute::type, attr_float);
}

WireWriter string_entry(std::string_view key, std::string_view value) {
    return WireWriter().bytes_field(+P::StringStringEntry::key, key).bytes_field(+P::StringStringEntry::value, value);
}

/// The big model; external: weights go to `weights` at 4 KiB-aligned offsets.
void write_big(const std::filesystem::path& path, const std::filesystem::path* weights, int dim) {
    const uint64_t big_tensor_bytes = uint64_t(dim) * uint64_t(dim) * 4;
    const std::string model_name = dim == big_dim ? "big" : "sml";
    // Everything but the weights, as small pieces, in onnx's field order.
    std::vector<std::string> nodes, headers;
    for (int i = 0; i < big_nodes; ++i) {
        nodes.push_back(testing::node("MatMul", {i == 0 ? "x" : numbered("h", i), numbered("W", i)},
                                      {i + 1 == big_nodes ? "y" : numbered("h", i + 1)},
                                      numbered("matmul_", i))
                            .str());
    }
    std::vector<uint64_t> offsets;
    uint64_t ext_offset = 0;
    for (int i = 0; i < big_nodes; ++i) {
        WireWriter t;
        t.int_field(+P::Tensor::dims, dim).int_field(+P::Tensor::dims, dim);
        t.int_field(+P::Tensor::data_type, float_type).bytes_field(+P::Tensor::name, numbered("W", i));
        if (weights) {
            offsets.push_back(ext_offset);
            t.message(+P::Tensor::external_data, string_entry("location", weights->filename().string()));
            t.message(+P::Tensor::external_data, string_entry("offset", std::to_string(ext_offset)));
            t.message(+P::Tensor::external_data, string_entry("length", std::to_string(big_tensor_bytes)));
            t.int_field(+P::Tensor::data_location, 1);  // EXTERNAL
            ext_offset += (big_tensor_bytes + external_alignment - 1) / external_alignment * external_alignment;
        } else {
            t.key(+P::Tensor::raw_data, LEN).varint(big_tensor_bytes);  // the payload follows in the file
        }
        headers.push_back(t.str());
    }
    std::vector<std::string> tail;
    tail.push_back(WireWriter().message(+P::Graph::input, tensor_value_info("x", {1, dim})).str());
    tail.push_back(WireWriter().message(+P::Graph::output, tensor_value_info("y", {1, dim})).str());
    for (int i = 1; i < big_nodes; ++i) {
        auto vi = tensor_value_info(numbered("h", i), {1, dim});
        tail.push_back(WireWriter().message(+P::Graph::value_info, vi).str());
    }

    const uint64_t payload = weights ? 0 : big_tensor_bytes;
    uint64_t graph_size = 0;
    for (auto& n : nodes) graph_size += WireWriter::len_field_size(+P::Graph::node, n.size());
    graph_size += WireWriter::len_field_size(+P::Graph::name, model_name.size());
    for (auto& h : headers) graph_size += WireWriter::len_field_size(+P::Graph::initializer, h.size() + payload);
    for (auto& t : tail) graph_size += t.size();

    Out out(path);
    out.put(model_header().str());
    out.len_key(+P::Model::graph, graph_size);
    const uint64_t graph_start = out.written();
    for (auto& n : nodes) out.len_key(+P::Graph::node, n.size()), out.put(n);
    out.len_key(+P::Graph::name, model_name.size()), out.put(model_name);
    std::vector<float> buf(big_tensor_bytes / 4);
    for (int i = 0; i < big_nodes; ++i) {
        out.len_key(+P::Graph::initializer, headers[i].size() + payload);
        out.put(headers[i]);
        if (!weights) {
            fill_weights(i, buf);
            out.put(buf.data(), big_tensor_bytes);
        }
    }
    for (auto& t : tail) out.put(t);
    if (out.written() - graph_start != graph_size) throw std::logic_error("big: graph size mismatch");
    out.finish();

    if (weights) {
        Out w(*weights);
        std::vector<char> pad(external_alignment, 0);
        for (int i = 0; i < big_nodes; ++i) {
            if (w.written() != offsets[i]) w.put(pad.data(), offsets[i] - w.written());
            fill_weights(i, buf);
            w.put(buf.data(), big_tensor_bytes);
        }
        w.finish();
    }
}

std::string vname(int i) { return numbered("v", i); }

void write_wide(const std::filesystem::path& path, bool reversed) {
    std::vector<std::string> nodes;
    nodes.reserve(wide_nodes);
    for (int i = 1; i <= wide_nodes; ++i) {
        WireWriter n =
            testing::node("Gemm", {vname(i - 1), vname(i / 2), "bias"}, {vname(i)}, numbered("gemm_", i));
        n.message(+P::Node::attribute, float_attr("alpha", 1.0f));
        n.message(+P::Node::attribute, float_attr("beta", 0.5f));
        n.message(+P::Node::attribute, testing::attr_int("transA", 0));
        n.message(+P::Node::attribute, testing::attr_int("transB", i & 1));
        nodes.push_back(n.str());
    }
    if (reversed) std::reverse(nodes.begin(), nodes.end());
    WireWriter head;
    head.bytes_field(+P::Graph::name, reversed ? "reversed" : "wide");
    std::string bias(wide_dim * 4, '\0');
    for (int k = 0; k < wide_dim; ++k) {
        float f = 0.25f * static_cast<float>(k);
        std::memcpy(bias.data() + 4 * k, &f, 4);
    }
    head.message(+P::Graph::initializer, testing::tensor_raw("bias", float_type, {wide_dim}, bias));
    head.message(+P::Graph::input, tensor_value_info(vname(0), {wide_dim, wide_dim}));
    head.message(+P::Graph::output, tensor_value_info(vname(wide_nodes), {wide_dim, wide_dim}));
    std::vector<std::string> infos;
    infos.reserve(wide_nodes);
    for (int i = 1; i < wide_nodes; ++i) {
        auto vi = tensor_value_info(vname(i), {wide_dim, wide_dim});
        infos.push_back(WireWriter().message(+P::Graph::value_info, vi).str());
    }

    uint64_t graph_size = head.size();
    for (auto& n : nodes) graph_size += WireWriter::len_field_size(+P::Graph::node, n.size());
    for (auto& v : infos) graph_size += v.size();
    Out out(path);
    out.put(model_header().str());
    out.len_key(+P::Model::graph, graph_size);
    for (auto& n : nodes) out.len_key(+P::Graph::node, n.size()), out.put(n);
    out.put(head.str());
    for (auto& v : infos) out.put(v);
    out.finish();
}

/// c0 -> Relu -> c1 -> ... -> c<count>, the nodes in file order or reversed.
void write_chain(const std::filesystem::path& path, int count, bool reversed) {
    auto cname = [](int i) { return numbered("c", i); };
    std::vector<std::string> nodes;
    nodes.reserve(count);
    for (int i = 1; i <= count; ++i)
        nodes.push_back(testing::node("Relu", {cname(i - 1)}, {cname(i)}).str());
    if (reversed) std::reverse(nodes.begin(), nodes.end());
    WireWriter graph;
    for (auto& n : nodes) graph.bytes_field(+P::Graph::node, n);
    graph.bytes_field(+P::Graph::name, reversed ? "chain-reversed" : "chain");
    graph.message(+P::Graph::input, tensor_value_info(cname(0), {wide_dim}));
    graph.message(+P::Graph::output, tensor_value_info(cname(count), {wide_dim}));
    Out out(path);
    out.put(model_header().str());
    out.len_key(+P::Model::graph, graph.size());
    out.put(graph.str());
    out.finish();
}

}  // namespace

const std::vector<std::string>& generated_model_names() {
    static const std::vector<std::string> names{"big", "big-external", "wide", "reversed", "big-small",
                                                "chain", "chain-reversed", "chain-10k"};
    return names;
}

std::vector<std::filesystem::path> generate_models(const std::filesystem::path& dir, bool force) {
    std::filesystem::create_directories(dir);
    std::vector<std::filesystem::path> paths;
    for (auto& n : generated_model_names()) paths.push_back(dir / (n + ".onnx"));
    const auto stamp = dir / "models.stamp";
    if (!force) {
        std::ifstream in(stamp);
        std::string line;
        bool all = true;
        for (auto& p : paths) all = all && std::filesystem::exists(p);
        if (all && std::getline(in, line) && line == generator_version) return paths;
    }
    std::filesystem::remove(stamp);
    auto tmp = [](const std::filesystem::path& p) { return std::filesystem::path(p.string() + ".tmp"); };
    // Write under temporary names, then rename, so an interrupted run is never cached.
    write_big(tmp(paths[0]), nullptr, big_dim);
    std::filesystem::path weights = dir / "big-external.weights";
    write_big(tmp(paths[1]), &weights, big_dim);  // weights written under their final name
    write_wide(tmp(paths[2]), false);
    write_wide(tmp(paths[3]), true);
    write_big(tmp(paths[4]), nullptr, small_dim);
    write_chain(tmp(paths[5]), chain_nodes, false);
    write_chain(tmp(paths[6]), chain_nodes, true);
    write_chain(tmp(paths[7]), mid_chain_nodes, false);
    for (auto& p : paths) std::filesystem::rename(tmp(p), p);
    std::ofstream(stamp) << generator_version << '\n';
    return paths;
}

}  // namespace gauntlet::bench
