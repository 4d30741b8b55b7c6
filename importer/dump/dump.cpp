// The structural dump (format in sweep/DUMP_FORMAT.md): one fact per line, deterministic,
// byte-identical to what python/gauntlet/sweep/onnx_dump.py writes from the Python onnx
// package. Tensors are dumped as the SHA-256 of their raw-layout bytes.
#include <onnximport/dump.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace onnximport {

namespace {

constexpr std::string_view attribute_type_names[] = {
    "UNDEFINED", "FLOAT",   "INT",    "STRING",        "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
    "STRINGS",   "TENSORS", "GRAPHS", "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS",
};

/// SHA-256 through OpenSSL's EVP interface, fed in pieces.
class Sha256 {
public:
    Sha256() : ctx_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
        if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
            throw std::runtime_error("OpenSSL SHA-256 is unavailable");
    }
    void update(const void* data, size_t size) {
        if (size) EVP_DigestUpdate(ctx_.get(), data, size);
    }
    std::string hex() {
        std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
        unsigned int n = 0;
        EVP_DigestFinal_ex(ctx_.get(), md.data(), &n);
        static constexpr char digits[] = "0123456789abcdef";
        std::string out;
        out.reserve(2 * n);
        for (unsigned i = 0; i < n; ++i) {
            out += digits[md[i] >> 4];
            out += digits[md[i] & 15];
        }
        return out;
    }

private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

/// Writes lines at a nesting depth. Everything goes through one buffer, flushed once,
/// because the sweep dumps thousands of models in one process.
class Writer {
public:
    explicit Writer(std::string& out) : out_(out) {}

    /// Starts a line at the current depth with its keyword.
    Writer& line(std::string_view keyword) {
        if (open_) out_ += '\n';
        out_.append(2 * static_cast<size_t>(depth_), ' ');
        out_ += keyword;
        open_ = true;
        return *this;
    }
    Writer& word(std::string_view w) {
        out_ += ' ';
        out_ += w;
        return *this;
    }
    Writer& num(int64_t v) { return word(std::to_string(v)); }
    Writer& bits(float f) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<uint32_t>(f));
        return word(buf);
    }
    /// A quoted string: printable ASCII as itself (but `"` and `\` escaped), every other
    /// byte as \xHH. Injective, and the same on the Python side.
    Writer& str(std::string_view s) {
        static constexpr char digits[] = "0123456789abcdef";
        out_ += " \"";
        for (char ch : s) {
            auto b = static_cast<unsigned char>(ch);
            if (b == '"' || b == '\\') {
                out_ += '\\';
                out_ += ch;
            } else if (b >= 0x20 && b <= 0x7E) {
                out_ += ch;
            } else {
                out_ += "\\x";
                out_ += digits[b >> 4];
                out_ += digits[b & 15];
            }
        }
        out_ += '"';
        return *this;
    }
    void enter() { ++depth_; }
    void leave() { --depth_; }
    void finish() {
        if (open_) out_ += '\n';
        open_ = false;
    }

private:
    std::string& out_;
    int depth_ = 0;
    bool open_ = false;
};

/// Runs body one level deeper.
template <class Body>
void nested(Writer& w, Body&& body) {
    w.enter();
    body();
    w.leave();
}

void element_type(Writer& w, std::string_view keyword, int32_t code) {
    w.line(keyword).num(code).word(data_type_name(code));
}

void entries(Writer& w, std::string_view keyword, const List<StringStringEntry>& list) {
    for (const auto& e : list) w.line(keyword).str(e.key).str(e.value);
}

void optional_string(Writer& w, std::string_view keyword, std::string_view s) {
    if (!s.empty()) w.line(keyword).str(s);
}

void dump_graph(Writer& w, const Graph& g);

void dump_type(Writer& w, const TypeProto* t) {
    if (!t) {
        w.line("type").word("absent");
        return;
    }
    switch (t->kind) {
    case TypeProto::Kind::None: w.line("type").word("none"); break;
    case TypeProto::Kind::Tensor:
    case TypeProto::Kind::SparseTensor:
        w.line("type").word(t->kind == TypeProto::Kind::Tensor ? "tensor" : "sparse_tensor");
        nested(w, [&] {
            element_type(w, "elem_type", t->elem_type);
            if (!t->has_shape) {
                w.line("shape").word("absent");
                return;
            }
            w.line("shape").num(static_cast<int64_t>(t->shape.size()));
            nested(w, [&] {
                for (size_t i = 0; i < t->shape.size(); ++i) {
                    const Dimension& d = t->shape[i];
                    w.line("dim");
                    switch (d.kind()) {
                    case Dimension::Kind::Value: w.word("value").num(d.value()); break;
                    case Dimension::Kind::Param: w.word("param").str(d.param()); break;
                    case Dimension::Kind::Unknown: w.word("unknown"); break;
                    }
                    nested(w, [&] { optional_string(w, "denotation", t->dim_denotation(i)); });
                }
            });
        });
        break;
    case TypeProto::Kind::Sequence:
    case TypeProto::Kind::Optional:
        w.line("type").word(t->kind == TypeProto::Kind::Sequence ? "sequence" : "optional");
        nested(w, [&] { dump_type(w, t->elem); });
        break;
    case TypeProto::Kind::Map:
        w.line("type").word("map");
        nested(w, [&] {
            element_type(w, "key_type", t->elem_type);
            dump_type(w, t->elem);
        });
        break;
    case TypeProto::Kind::Opaque:
        w.line("type").word("opaque");
        nested(w, [&] {
            w.line("domain").str(t->opaque_domain());
            w.line("name").str(t->opaque_name());
        });
        break;
    }
    nested(w, [&] { optional_string(w, "denotation", t->denotation()); });
}

void dump_value_infos(Writer& w, std::string_view keyword, const List<ValueInfo>& list) {
    for (const auto& v : list) {
        w.line(keyword).str(v.name);
        nested(w, [&] {
            dump_type(w, &v.type);
            optional_string(w, "doc_string", v.doc_string());
            entries(w, "metadata_props", v.metadata_props());
        });
    }
}

std::string_view source_name(TensorSource s) {
    switch (s) {
    case TensorSource::Raw: return "raw";
    case TensorSource::Typed: return "typed";
    case TensorSource::External: return "external";
    case TensorSource::Strings: return "strings";
    default: return "none";
    }
}

void dump_tensor(Writer& w, const TensorView& t) {
    w.line("name").str(t.name);
    element_type(w, "data_type", t.data_type);
    w.line("dims");
    for (int64_t d : t.dims) w.num(d);
    w.line("data_location").num(t.data_location);
    entries(w, "external_data", t.external_data);
    optional_string(w, "doc_string", t.doc_string);
    entries(w, "metadata_props", t.metadata_props);
    w.line("source").word(source_name(t.source));
    Sha256 sha;
    if (t.source == TensorSource::Strings) {
        w.line("bytes").num(static_cast<int64_t>(t.strings.size()));
        for (std::string_view s : t.strings) {
            std::array<unsigned char, 8> len{};
            uint64_t n = s.size();
            for (unsigned i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));
            sha.update(len.data(), len.size());
            sha.update(s.data(), s.size());
        }
    } else {
        w.line("bytes").num(static_cast<int64_t>(t.byte_size()));
        if (!t.has_bytes()) {
            // External data that was not loaded: there is nothing to hash.
            w.line("sha256").word("unavailable");
            return;
        }
        auto b = t.bytes();
        sha.update(b.data(), b.size());
    }
    w.line("sha256").word(sha.hex());
}

void dump_sparse(Writer& w, const SparseTensor& s) {
    w.line("dims");
    for (int64_t d : s.dims) w.num(d);
    w.line("values");
    nested(w, [&] { dump_tensor(w, s.values); });
    w.line("indices");
    nested(w, [&] { dump_tensor(w, s.indices); });
}

/// A list of messages: `keyword COUNT`, then `[i]` headers.
template <class T, class Each>
void message_list(Writer& w, std::string_view keyword, const List<T>& list, Each&& each) {
    w.line(keyword).num(static_cast<int64_t>(list.size()));
    nested(w, [&] {
        for (size_t i = 0; i < list.size(); ++i) {
            w.line(std::string("[").append(std::to_string(i)).append("]"));  // GCC 12 -Wrestrict: no "x" + string
            nested(w, [&] { each(list[i]); });
        }
    });
}

void dump_attribute(Writer& w, const Attribute& a) {
    const auto type = static_cast<int32_t>(a.type);
    w.line("attr_type").num(type).word(type >= 0 && type <= 14 ? attribute_type_names[type] : "?")
        .word(a.type_declared ? "declared" : "inferred");
    optional_string(w, "ref_attr_name", a.ref_attr_name());
    optional_string(w, "doc_string", a.doc_string());
    auto is = [&](AttributeType t) { return a.type == t; };
    if (is(AttributeType::Float) || std::bit_cast<uint32_t>(a.f) != 0) w.line("f").bits(a.f);
    if (is(AttributeType::Int) || a.i != 0) w.line("i").num(a.i);
    if (is(AttributeType::String) || !a.s().empty()) w.line("s").str(a.s());
    if (a.t()) {
        w.line("t");
        nested(w, [&] { dump_tensor(w, *a.t()); });
    }
    if (a.g()) {
        w.line("g");
        nested(w, [&] { dump_graph(w, *a.g()); });
    }
    if (a.sparse_tensor()) {
        w.line("sparse_tensor");
        nested(w, [&] { dump_sparse(w, *a.sparse_tensor()); });
    }
    if (a.tp()) {
        w.line("tp");
        nested(w, [&] { dump_type(w, a.tp()); });
    }
    if (is(AttributeType::Floats) || !a.floats().empty()) {
        w.line("floats").num(static_cast<int64_t>(a.floats().size()));
        for (float f : a.floats()) w.bits(f);
    }
    if (is(AttributeType::Ints) || !a.ints().empty()) {
        w.line("ints").num(static_cast<int64_t>(a.ints().size()));
        for (int64_t i : a.ints()) w.num(i);
    }
    if (is(AttributeType::Strings) || !a.strings().empty()) {
        w.line("strings").num(static_cast<int64_t>(a.strings().size()));
        for (std::string_view s : a.strings()) w.str(s);
    }
    if (is(AttributeType::Tensors) || !a.tensors().empty())
        message_list(w, "tensors", a.tensors(), [&](const TensorView& t) { dump_tensor(w, t); });
    if (is(AttributeType::Graphs) || !a.graphs().empty())
        message_list(w, "graphs", a.graphs(), [&](const Graph& g) { dump_graph(w, g); });
    if (is(AttributeType::SparseTensors) || !a.sparse_tensors().empty())
        message_list(w, "sparse_tensors", a.sparse_tensors(), [&](const SparseTensor& s) { dump_sparse(w, s); });
    if (is(AttributeType::TypeProtos) || !a.type_protos().empty())
        message_list(w, "type_protos", a.type_protos(), [&](const TypeProto& t) { dump_type(w, &t); });
}

void dump_node_body(Writer& w, const Node& n) {
    w.line("name").str(n.name);
    w.line("op_type").str(n.op_type);
    w.line("domain").str(n.domain);
    optional_string(w, "overload", n.overload());
    for (auto s : n.inputs) w.line("input").str(s);
    for (auto s : n.outputs) w.line("output").str(s);
    for (const auto& a : n.attributes) {
        w.line("attribute").str(a.name);
        nested(w, [&] { dump_attribute(w, a); });
    }
    optional_string(w, "doc_string", n.doc_string());
    entries(w, "metadata_props", n.metadata_props());
}

/// Nodes in file order: resolution keeps Graph::nodes in resolved order, and
/// Node::file_index remembers the position in the file. The sort is stable, so nodes
/// that were never resolved (all indices 0, function bodies) keep their order.
void dump_nodes(Writer& w, const List<Node>& nodes) {
    std::vector<size_t> order(nodes.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return nodes[a].file_index < nodes[b].file_index; });
    for (size_t i = 0; i < order.size(); ++i) {
        w.line("node").num(static_cast<int64_t>(i));
        nested(w, [&] { dump_node_body(w, nodes[order[i]]); });
    }
}

void dump_graph(Writer& w, const Graph& g) {
    w.line("name").str(g.name);
    optional_string(w, "doc_string", g.doc_string);
    dump_value_infos(w, "input", g.inputs);
    dump_value_infos(w, "output", g.outputs);
    dump_value_infos(w, "value_info", g.value_info);
    for (const auto& t : g.initializers) {
        w.line("initializer");
        nested(w, [&] { dump_tensor(w, t); });
    }
    for (const auto& s : g.sparse_initializers) {
        w.line("sparse_initializer");
        nested(w, [&] { dump_sparse(w, s); });
    }
    dump_nodes(w, g.nodes);
    entries(w, "metadata_props", g.metadata_props);
}

void dump_optional_graph(Writer& w, std::string_view keyword, const Graph* g) {
    if (!g) {
        w.line(keyword).word("absent");
        return;
    }
    w.line(keyword);
    nested(w, [&] { dump_graph(w, *g); });
}

void dump_function(Writer& w, const Function& f) {
    w.line("name").str(f.name);
    w.line("domain").str(f.domain);
    optional_string(w, "overload", f.overload);
    for (auto s : f.inputs) w.line("input").str(s);
    for (auto s : f.outputs) w.line("output").str(s);
    for (auto s : f.attributes) w.line("attribute").str(s);
    for (const auto& a : f.attribute_protos) {
        w.line("attribute_proto").str(a.name);
        nested(w, [&] { dump_attribute(w, a); });
    }
    for (const auto& o : f.opset_import) w.line("opset_import").str(o.domain).num(o.version);
    dump_value_infos(w, "value_info", f.value_info);
    dump_nodes(w, f.nodes);
    optional_string(w, "doc_string", f.doc_string);
    entries(w, "metadata_props", f.metadata_props);
}

}  // namespace

void write_dump(const Model& model, std::ostream& out) {
    std::string text;
    Writer w(text);
    w.line("onnx-gauntlet-dump").num(1);
    w.line("ir_version").num(model.proto().ir_version);
    w.line("producer_name").str(model.proto().producer_name);
    w.line("producer_version").str(model.proto().producer_version);
    w.line("domain").str(model.proto().domain);
    w.line("model_version").num(model.proto().model_version);
    optional_string(w, "doc_string", model.proto().doc_string);
    for (const auto& o : model.proto().opset_import) w.line("opset_import").str(o.domain).num(o.version);
    entries(w, "metadata_props", model.proto().metadata_props);
    dump_optional_graph(w, "graph", model.graph());
    message_list(w, "training_info", model.proto().training_info, [&](const TrainingInfo& t) {
        dump_optional_graph(w, "initialization", t.initialization());
        dump_optional_graph(w, "algorithm", t.algorithm());
        entries(w, "initialization_binding", t.initialization_binding);
        entries(w, "update_binding", t.update_binding);
    });
    message_list(w, "functions", model.proto().functions, [&](const Function& f) { dump_function(w, f); });
    w.finish();
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace onnximport
