// fuzz_diff_protobuf: the same bytes parsed by the importer and by libprotobuf's
// generated onnx::ModelProto (compiled at build time from the installed onnx.proto,
// ONNX 1.12 on Debian 12, libprotobuf 3.21). Differential oracle for spec sections 1-3.
//
// The importer runs with resolve=false and load_external_data=false so that only the
// reading is compared. Outcomes on our side:
//   accepted   - a Model;
//   wire-valid - refused by the model checks that run after the whole input was read
//                (ir_version missing or below 3, no graph): every byte was parsed;
//   stopped    - refused InvalidModel/Unsupported in the middle (attribute, tensor and
//                type rules): the rest of the input was never read, so libprotobuf
//                refusing it later says nothing; only "we refuse, it accepts" can't occur;
//   malformed  - refused as bad protobuf.
// What must agree:
//   - accepted or wire-valid on our side  => libprotobuf parses the bytes;
//   - malformed on our side               => libprotobuf refuses the bytes;
//   - both accept and nothing below blurs the picture => the field values agree:
//     scalars and strings, repeated counts and entries, presence of message fields,
//     tensor dims/type/raw_data, typed fields against our converted raw layout.
// Legitimate differences, each excluded explicitly (and only where it applies):
//   1. invalid UTF-8 in a string field: we refuse (spec section 1); proto2 libprotobuf
//      accepts. Excluded when our refusal is the UTF-8 check.
//   2. group wire types 3/4: we refuse; libprotobuf skips groups as unknown fields.
//      Excluded when our refusal is the group-wire-type check.
//   3. nesting: ours refuses beyond 128 levels, libprotobuf beyond its recursion limit
//      of 100. Excluded when our refusal is the nesting limit, or when the input nests
//      deeper than 95 levels of messages libprotobuf reads.
//   4. fields that ONNX 1.12's onnx.proto does not have (NodeProto.overload and
//      metadata_props, TypeProto.opaque_type, FunctionProto.value_info, ...): we read
//      them, libprotobuf keeps them as unknown bytes. Excluded when our refusal's field
//      path names a field the reference descriptor lacks; values of such fields are
//      not compared.
//   5. fields libprotobuf parses and we skip unread (GraphProto.quantization_annotation,
//      TensorProto.segment, which we refuse as Unsupported): a libprotobuf refusal
//      inside them is excluded.
//   6. singular message fields repeated in one message: libprotobuf merges them, we
//      keep the last one (the house decision). Values are not compared for such inputs.
//   7. proto2 closed enums (AttributeProto.type, TensorProto.data_location): unknown
//      values go to libprotobuf's unknown fields; we keep the low 32 bits and refuse
//      them as InvalidModel ("stopped" above), so values are only compared for known ones.
//   8. varints: libprotobuf 3.21 reads at most 5 bytes for a key and drops bits beyond
//      32 (we accept up to 10 bytes if the value fits in 32 bits, and refuse a larger
//      value); it reads a length prefix as at most 5 bytes (ReadSize), so an overlong
//      length such as 80 80 80 80 80 00 is refused there and accepted here (spec
//      section 1: lengths are read as 64 bits, overlong encodings are accepted; found
//      by this target, corpus/regression/fuzz_diff_protobuf/overlong-length-prefix-*);
//      for a value it drops the bits of a tenth byte above 1 (we refuse, as the spec
//      says). Excluded when our refusal is that check, or when the input has such a
//      key, length or varint where libprotobuf reads it.
#include "fuzz_common.hpp"

#include "onnx_reference.pb.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/stubs/logging.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

namespace {

using namespace gauntlet_fuzz;
using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
namespace oi = onnximport;

constexpr std::string_view name = "fuzz_diff_protobuf";

// ---- what the input contains where libprotobuf reads it ---------------------------

struct Shape {
    int max_depth = 0;
    bool repeated_singular_message = false;  ///< difference 6
    bool long_key = false;                   ///< difference 8: key of more than 5 bytes, or over 32 bits
    bool wide_varint = false;                ///< difference 8: tenth varint byte above 1
    bool long_length = false;                ///< difference 8: length prefix of more than 5 bytes
    bool skipped_by_us = false;              ///< difference 5
    bool broken = false;                     ///< the scan stopped at bad bytes
};

/// Reads one varint like libprotobuf; flags the differences of note 8.
bool scan_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v, unsigned max_bytes, Shape& s, bool is_key) {
    v = 0;
    for (unsigned i = 0; i < 10; ++i) {
        if (p == end) return false;
        const uint8_t b = *p++;
        if (i < 10) v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
        if (i == 9 && b > 1) s.wide_varint = true;
        if (!(b & 0x80)) {
            if (is_key && (i + 1 > max_bytes || v > 0xFFFFFFFFu)) s.long_key = true;
            return true;
        }
    }
    return false;
}

void scan(const uint8_t* p, const uint8_t* end, const Descriptor* d, int depth, Shape& s) {
    if (depth > s.max_depth) s.max_depth = depth;
    if (depth > 110) return;
    std::map<int, int> seen;
    while (p < end && !s.broken) {
        uint64_t key, v;
        if (!scan_varint(p, end, key, 5, s, true)) { s.broken = true; return; }
        const unsigned wire = key & 7;
        const int number = static_cast<int>(key >> 3 & 0x1FFFFFFF);
        switch (wire) {
        case 0:
            if (!scan_varint(p, end, v, 10, s, false)) s.broken = true;
            break;
        case 1:
            if (end - p < 8) s.broken = true; else p += 8;
            break;
        case 5:
            if (end - p < 4) s.broken = true; else p += 4;
            break;
        case 2: {
            const uint8_t* length_at = p;
            if (!scan_varint(p, end, v, 10, s, false) || v > static_cast<uint64_t>(end - p)) {
                s.broken = true;
                break;
            }
            if (p - length_at > 5) s.long_length = true;
            const uint8_t* payload = p;
            p += v;
            const FieldDescriptor* f = d ? d->FindFieldByNumber(number) : nullptr;
            if (!f || f->type() != FieldDescriptor::TYPE_MESSAGE) break;
            const std::string& fname = f->full_name();
            if (fname == "onnx.GraphProto.quantization_annotation" || fname == "onnx.TensorProto.segment")
                s.skipped_by_us = true;
            if (!f->is_repeated() && ++seen[number] > 1) s.repeated_singular_message = true;
            scan(payload, p, f->message_type(), depth + 1, s);
            break;
        }
        default: s.broken = true;  // groups and invalid wire types: our refusal explains itself
        }
    }
}

/// True when our refusal's field path names a field the reference descriptor lacks.
bool path_leaves_reference(const std::string& path) {
    const Descriptor* d = onnx::ModelProto::descriptor();
    size_t pos = path.find('.');
    while (pos != std::string::npos && d) {
        size_t next = path.find('.', pos + 1);
        std::string seg = path.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        if (auto br = seg.find('['); br != std::string::npos) seg.resize(br);
        const FieldDescriptor* f = d->FindFieldByName(seg);
        if (!f) return true;
        d = f->type() == FieldDescriptor::TYPE_MESSAGE ? f->message_type() : nullptr;
        pos = next;
    }
    return false;
}

bool message_has(const oi::ImportError& e, const char* needle) { return e.message().find(needle) != std::string::npos; }

// ---- value comparison ---------------------------------------------------------------

struct Compare {
    std::string where;

    [[noreturn]] void differ(const std::string& what) {
        fuzz_fail("importer and libprotobuf disagree", where + ": " + what);
    }

    void eq_str(std::string_view ours, const std::string& ref, const char* field) {
        if (ours != std::string_view(ref)) differ(std::string(field) + " '" + std::string(ours) + "' vs '" + ref + "'");
    }
    template <class A, class B>
    void eq(const A& ours, const B& ref, const char* field) {
        if (!(static_cast<int64_t>(ours) == static_cast<int64_t>(ref)))
            differ(std::string(field) + " " + std::to_string(static_cast<int64_t>(ours)) + " vs " +
                   std::to_string(static_cast<int64_t>(ref)));
    }
    /// A repeated field: the same count, then each pair of entries compared by `same`.
    template <class Ours, class Ref, class Same>
    void each(const Ours& ours, const Ref& ref, const char* field, Same&& same) {
        eq(ours.size(), ref.size(), field);
        for (int i = 0; i < ref.size(); ++i) same(ours[static_cast<size_t>(i)], ref.Get(i));
    }
    template <class Ours, class Ref>
    void eq_strings(const Ours& ours, const Ref& ref, const char* field) {
        each(ours, ref, field, [&](std::string_view o, const std::string& r) { eq_str(o, r, field); });
    }
    template <class Ours, class Ref>
    void eq_numbers(const Ours& ours, const Ref& ref, const char* field) {
        each(ours, ref, field, [&](const auto& o, const auto& r) { eq(o, r, field); });
    }
    template <class Ref>
    void entries(const oi::List<oi::StringStringEntry>& ours, const Ref& ref, const char* field) {
        each(ours, ref, field, [&](const oi::StringStringEntry& o, const auto& r) {
            eq_str(o.key, r.key(), field);
            eq_str(o.value, r.value(), field);
        });
    }

    void type(const oi::TypeProto& t, const onnx::TypeProto& r) {
        using K = oi::TypeProto::Kind;
        if (t.kind == K::Opaque) return;  // difference 4
        eq_str(t.denotation(), r.denotation(), "denotation");
        switch (r.value_case()) {
        case onnx::TypeProto::kTensorType:
        case onnx::TypeProto::kSparseTensorType: {
            const bool sparse = r.value_case() == onnx::TypeProto::kSparseTensorType;
            eq(t.kind, sparse ? K::SparseTensor : K::Tensor, "type kind");
            const int32_t elem = sparse ? r.sparse_tensor_type().elem_type() : r.tensor_type().elem_type();
            const bool has_shape = sparse ? r.sparse_tensor_type().has_shape() : r.tensor_type().has_shape();
            const auto& shape = sparse ? r.sparse_tensor_type().shape() : r.tensor_type().shape();
            eq(t.elem_type, elem, "elem_type");
            eq(t.has_shape, has_shape, "has_shape");
            eq(t.shape.size(), shape.dim_size(), "dim count");
            for (int i = 0; i < shape.dim_size(); ++i) {
                const auto& rd = shape.dim(i);
                const auto& d = t.shape[static_cast<size_t>(i)];
                eq_str(t.dim_denotation(static_cast<size_t>(i)), rd.denotation(), "dim denotation");
                if (rd.has_dim_value()) {
                    eq(d.kind(), oi::Dimension::Kind::Value, "dim kind");
                    eq(d.value(), rd.dim_value(), "dim_value");
                } else if (rd.has_dim_param()) {
                    eq(d.kind(), oi::Dimension::Kind::Param, "dim kind");
                    eq_str(d.param(), rd.dim_param(), "dim_param");
                } else {
                    eq(d.kind(), oi::Dimension::Kind::Unknown, "dim kind");
                }
            }
            break;
        }
        case onnx::TypeProto::kSequenceType:
        case onnx::TypeProto::kOptionalType: {
            const bool seq = r.value_case() == onnx::TypeProto::kSequenceType;
            eq(t.kind, seq ? K::Sequence : K::Optional, "type kind");
            const bool has = seq ? r.sequence_type().has_elem_type() : r.optional_type().has_elem_type();
            eq(t.elem != nullptr, has, "elem_type present");
            if (has) type(*t.elem, seq ? r.sequence_type().elem_type() : r.optional_type().elem_type());
            break;
        }
        case onnx::TypeProto::kMapType:
            eq(t.kind, K::Map, "type kind");
            eq(t.elem_type, r.map_type().key_type(), "key_type");
            eq(t.elem != nullptr, r.map_type().has_value_type(), "value_type present");
            if (t.elem) type(*t.elem, r.map_type().value_type());
            break;
        default: eq(t.kind, K::None, "type kind");
        }
    }

    void typed_bytes(const oi::TensorView& t, const onnx::TensorProto& r) {
        auto b = t.bytes();
        std::vector<uint8_t> expect;
        auto put = [&](uint64_t v, unsigned width) {
            for (unsigned i = 0; i < width; ++i) expect.push_back(static_cast<uint8_t>(v >> (8 * i)));
        };
        using DT = oi::DataType;
        switch (static_cast<DT>(t.data_type)) {
        case DT::Float: case DT::Complex64:
            for (float f : r.float_data()) put(std::bit_cast<uint32_t>(f), 4);
            break;
        case DT::Double: case DT::Complex128:
            for (double f : r.double_data()) put(std::bit_cast<uint64_t>(f), 8);
            break;
        case DT::Int64: for (int64_t v : r.int64_data()) put(static_cast<uint64_t>(v), 8); break;
        case DT::Uint64: for (uint64_t v : r.uint64_data()) put(v, 8); break;
        case DT::Uint32: for (uint64_t v : r.uint64_data()) put(v, 4); break;
        case DT::Int32: for (int32_t v : r.int32_data()) put(static_cast<uint32_t>(v), 4); break;
        case DT::Int16: case DT::Uint16: case DT::Float16: case DT::Bfloat16:
            for (int32_t v : r.int32_data()) put(static_cast<uint32_t>(v), 2);
            break;
        case DT::Int8: case DT::Uint8: case DT::Float8E4M3FN: case DT::Float8E4M3FNUZ: case DT::Float8E5M2:
        case DT::Float8E5M2FNUZ: case DT::Float8E8M0:
            for (int32_t v : r.int32_data()) put(static_cast<uint32_t>(v), 1);
            break;
        case DT::Bool: for (int32_t v : r.int32_data()) put(v != 0, 1); break;
        default: return;  // sub-byte packings: the size is checked by the walk
        }
        if (expect.size() != b.size() || (!b.empty() && std::memcmp(expect.data(), b.data(), b.size()) != 0))
            differ("typed field converted to different bytes");
    }

    void tensor(const oi::TensorView& t, const onnx::TensorProto& r) {
        eq_numbers(t.dims, r.dims(), "dims");
        eq(t.data_type, r.data_type(), "data_type");
        eq_str(t.name, r.name(), "tensor name");
        eq_str(t.doc_string, r.doc_string(), "tensor doc_string");
        eq(t.data_location, r.data_location(), "data_location");
        entries(t.external_data, r.external_data(), "external_data");
        if (t.source == oi::TensorSource::External) return;
        if (t.data_type == static_cast<int32_t>(oi::DataType::String)) {
            eq_strings(t.strings, r.string_data(), "string_data");
            return;
        }
        if (r.has_raw_data()) {
            auto b = t.bytes();
            if (std::string_view(reinterpret_cast<const char*>(b.data()), b.size()) != r.raw_data())
                differ("raw_data");
            return;
        }
        typed_bytes(t, r);
    }

    void sparse(const oi::SparseTensor& s, const onnx::SparseTensorProto& r) {
        if (r.has_values()) tensor(s.values, r.values());
        else eq(s.values.data_type, 0, "sparse values absent");
        if (r.has_indices()) tensor(s.indices, r.indices());
        else eq(s.indices.data_type, 0, "sparse indices absent");
        eq_numbers(s.dims, r.dims(), "sparse dims");
    }

    void attribute(const oi::Attribute& a, const onnx::AttributeProto& r) {
        eq_str(a.name, r.name(), "attribute name");
        eq_str(a.ref_attr_name(), r.ref_attr_name(), "ref_attr_name");
        eq_str(a.doc_string(), r.doc_string(), "attribute doc_string");
        if (r.has_type() && r.type() != 0) {
            eq(a.type_declared, true, "type declared");
            eq(a.type, r.type(), "attribute type");
        } else {
            eq(a.type_declared, false, "type declared");
        }
        eq(std::bit_cast<uint32_t>(a.f), std::bit_cast<uint32_t>(r.f()), "f");
        eq(a.i, r.i(), "i");
        eq_str(a.s(), r.s(), "s");
        eq(a.t() != nullptr, r.has_t(), "t present");
        if (a.t()) tensor(*a.t(), r.t());
        eq(a.g() != nullptr, r.has_g(), "g present");
        if (a.g()) graph(*a.g(), r.g());
        eq(a.sparse_tensor() != nullptr, r.has_sparse_tensor(), "sparse_tensor present");
        if (a.sparse_tensor()) sparse(*a.sparse_tensor(), r.sparse_tensor());
        eq(a.tp() != nullptr, r.has_tp(), "tp present");
        if (a.tp()) type(*a.tp(), r.tp());
        each(a.floats(), r.floats(), "floats",
             [&](float o, float f) { eq(std::bit_cast<uint32_t>(o), std::bit_cast<uint32_t>(f), "floats"); });
        eq_numbers(a.ints(), r.ints(), "ints");
        eq_strings(a.strings(), r.strings(), "strings");
        each(a.tensors(), r.tensors(), "tensors count", [&](const auto& o, const auto& t) { tensor(o, t); });
        each(a.graphs(), r.graphs(), "graphs count", [&](const auto& o, const auto& g) { graph(o, g); });
        each(a.sparse_tensors(), r.sparse_tensors(), "sparse_tensors count",
             [&](const auto& o, const auto& t) { sparse(o, t); });
        each(a.type_protos(), r.type_protos(), "type_protos count", [&](const auto& o, const auto& t) { type(o, t); });
    }

    void node(const oi::Node& n, const onnx::NodeProto& r) {
        eq_strings(n.inputs, r.input(), "input");
        eq_strings(n.outputs, r.output(), "output");
        eq_str(n.name, r.name(), "node name");
        eq_str(n.op_type, r.op_type(), "op_type");
        eq_str(n.domain, r.domain(), "node domain");
        eq_str(n.doc_string(), r.doc_string(), "node doc_string");
        each(n.attributes, r.attribute(), "attribute count", [&](const auto& o, const auto& a) { attribute(o, a); });
    }

    void value_info(const oi::ValueInfo& v, const onnx::ValueInfoProto& r) {
        eq_str(v.name, r.name(), "value name");
        eq_str(v.doc_string(), r.doc_string(), "value doc_string");
        if (r.has_type()) type(v.type, r.type());
        else if (v.type.kind != oi::TypeProto::Kind::Opaque) eq(v.type.kind, oi::TypeProto::Kind::None, "no type");
    }

    void graph(const oi::Graph& g, const onnx::GraphProto& r) {
        eq_str(g.name, r.name(), "graph name");
        eq_str(g.doc_string, r.doc_string(), "graph doc_string");
        auto with_node = [&](const auto& o, const auto& n) { node(o, n); };
        auto with_tensor = [&](const auto& o, const auto& t) { tensor(o, t); };
        auto with_sparse = [&](const auto& o, const auto& t) { sparse(o, t); };
        auto with_value = [&](const auto& o, const auto& v) { value_info(o, v); };
        each(g.nodes, r.node(), "node count", with_node);
        each(g.initializers, r.initializer(), "initializer count", with_tensor);
        each(g.sparse_initializers, r.sparse_initializer(), "sparse_initializer count", with_sparse);
        each(g.inputs, r.input(), "graph input count", with_value);
        each(g.outputs, r.output(), "graph output count", with_value);
        each(g.value_info, r.value_info(), "value_info count", with_value);
    }

    template <class Ref>
    void opsets(const oi::List<oi::OperatorSetId>& ours, const Ref& ref) {
        each(ours, ref, "opset_import count", [&](const oi::OperatorSetId& o, const auto& r) {
            eq_str(o.domain, r.domain(), "opset domain");
            eq(o.version, r.version(), "opset version");
        });
    }

    void model(const oi::Model& m, const onnx::ModelProto& r) {
        eq(m.proto().has_ir_version, r.has_ir_version(), "ir_version present");
        eq(m.proto().ir_version, r.ir_version(), "ir_version");
        eq_str(m.proto().producer_name, r.producer_name(), "producer_name");
        eq_str(m.proto().producer_version, r.producer_version(), "producer_version");
        eq_str(m.proto().domain, r.domain(), "domain");
        eq(m.proto().model_version, r.model_version(), "model_version");
        eq_str(m.proto().doc_string, r.doc_string(), "doc_string");
        opsets(m.proto().opset_import, r.opset_import());
        entries(m.proto().metadata_props, r.metadata_props(), "metadata_props");
        eq(m.graph() != nullptr, r.has_graph(), "graph present");
        if (m.graph()) graph(*m.graph(), r.graph());
        each(m.proto().training_info, r.training_info(), "training_info count",
             [&](const oi::TrainingInfo& t, const auto& rt) {
                 eq(t.initialization() != nullptr, rt.has_initialization(), "initialization present");
                 if (t.initialization()) graph(*t.initialization(), rt.initialization());
                 eq(t.algorithm() != nullptr, rt.has_algorithm(), "algorithm present");
                 if (t.algorithm()) graph(*t.algorithm(), rt.algorithm());
                 entries(t.initialization_binding, rt.initialization_binding(), "initialization_binding");
                 entries(t.update_binding, rt.update_binding(), "update_binding");
             });
        each(m.proto().functions, r.functions(), "functions count", [&](const oi::Function& f, const auto& rf) {
            eq_str(f.name, rf.name(), "function name");
            eq_str(f.domain, rf.domain(), "function domain");
            eq_str(f.doc_string, rf.doc_string(), "function doc_string");
            eq_strings(f.inputs, rf.input(), "function input");
            eq_strings(f.outputs, rf.output(), "function output");
            eq_strings(f.attributes, rf.attribute(), "function attribute");
            each(f.nodes, rf.node(), "function node count", [&](const auto& o, const auto& n) { node(o, n); });
            opsets(f.opset_import, rf.opset_import());
        });
    }
};

// ---- how often the oracle compares values (GAUNTLET_DIFF_STATS=1) -----------------

/// Which way each input went, printed at exit when GAUNTLET_DIFF_STATS=1 is set (replay
/// or fuzzer binary alike): a differential target that mostly sees inputs both sides
/// refuse checks little beyond accept/reject, and these counts show how much.
struct DiffStats {
    uint64_t inputs = 0;
    uint64_t too_large = 0;               ///< above 16 MiB, not run
    uint64_t compared = 0;                ///< both accept: field values compared
    uint64_t accepted_not_compared = 0;   ///< both accept, values not compared (differences 3, 6)
    uint64_t wire_valid = 0;              ///< we refuse after reading every byte, libprotobuf parses
    uint64_t both_malformed = 0;          ///< both refuse at the wire level
    uint64_t stopped_ref_accepts = 0;     ///< we stop on a model rule mid-input, libprotobuf parses
    uint64_t stopped_ref_refuses = 0;     ///< we stop on a model rule, libprotobuf refuses later bytes
    uint64_t ref_refuses_excused = 0;     ///< we read every byte, libprotobuf refuses (differences 3, 5, 8)
    uint64_t malformed_excused = 0;       ///< we refuse as malformed, libprotobuf accepts (1, 2, 3, 4, 8)

    ~DiffStats() {
        const char* on = std::getenv("GAUNTLET_DIFF_STATS");
        if (!on || std::strcmp(on, "1") != 0) return;
        const auto pct = [&](uint64_t n) {
            return inputs ? 100.0 * static_cast<double>(n) / static_cast<double>(inputs) : 0.0;
        };
        std::fprintf(stderr, "fuzz_diff_protobuf stats: %llu inputs\n", static_cast<unsigned long long>(inputs));
        const std::pair<const char*, uint64_t> rows[] = {
            {"both accept, values compared", compared},
            {"both accept, values not compared (deep or repeated singular message)", accepted_not_compared},
            {"we refuse after reading all (ir_version/graph), libprotobuf parses", wire_valid},
            {"we stop on a model rule, libprotobuf parses", stopped_ref_accepts},
            {"we stop on a model rule, libprotobuf refuses", stopped_ref_refuses},
            {"both refuse at the wire level", both_malformed},
            {"we read all, libprotobuf refuses (allowed difference)", ref_refuses_excused},
            {"we refuse as malformed, libprotobuf accepts (allowed difference)", malformed_excused},
            {"not run (above 16 MiB)", too_large},
        };
        for (const auto& [what, n] : rows)
            std::fprintf(stderr, "  %8llu %5.1f%%  %s\n", static_cast<unsigned long long>(n), pct(n), what);
    }
};
DiffStats stats;

}  // namespace

// libprotobuf logs every invalid UTF-8 string it accepts (difference 1) in builds
// without NDEBUG; the log says nothing the oracle needs and slows fuzzing down.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ++stats.inputs;
    if (size > (1u << 24)) return ++stats.too_large, 0;  // libprotobuf's int sizes; the corpus is far smaller
    // The importer reads ORTM buffers as .ort, not protobuf: fuzz_ort's differential covers them.
    if (size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0) return 0;
    onnx::ModelProto ref;
    const bool ref_ok = ref.ParseFromArray(data, static_cast<int>(size));

    oi::ImportOptions options;
    options.resolve = false;
    options.load_external_data = false;
    std::optional<oi::Model> model;
    std::optional<oi::ImportError> error;
    try {
        model.emplace(oi::import_bytes({data, size}, name, options));
    } catch (const oi::ImportError& e) {
        check_error(e, name, size);
        error = e;
    }

    Shape shape;
    scan(data, data + size, onnx::ModelProto::descriptor(), 0, shape);
    const bool deep = shape.max_depth > 95;                           // difference 3
    const bool varint_rules = shape.long_key || shape.wide_varint || shape.long_length;    // difference 8

    const bool wire_valid_ours =
        model || (error->kind() == oi::ErrorKind::InvalidModel && error->offset() == 0u &&
                  (error->field_path() == "ModelProto.ir_version" || error->field_path() == "ModelProto.graph"));
    const bool malformed_ours = error && error->kind() == oi::ErrorKind::Malformed;

    if (wire_valid_ours && !ref_ok) {
        if (deep || varint_rules || shape.skipped_by_us) return ++stats.ref_refuses_excused, 0;
        fuzz_fail("the importer reads every byte, libprotobuf refuses the input",
                  error ? describe(*error) : std::string("accepted"));
    }
    if (malformed_ours && ref_ok) {
        const auto& e = *error;
        ++stats.malformed_excused;  // unless one of the lines below fails
        if (message_has(e, "UTF-8")) return 0;                                    // difference 1
        if (message_has(e, "group wire type")) return 0;                          // difference 2
        if (message_has(e, "nested deeper")) return 0;                            // difference 3
        if (path_leaves_reference(e.field_path())) return 0;                      // difference 4
        if (message_has(e, "key does not fit") || message_has(e, "overflows 64")) return 0;  // difference 8
        fuzz_fail("the importer refuses as malformed, libprotobuf accepts", describe(e));
    }
    if (model && ref_ok && !shape.repeated_singular_message && !deep) {
        Compare cmp{"ModelProto"};
        cmp.model(*model, ref);
        ++stats.compared;
    } else if (model) {
        ++stats.accepted_not_compared;  // both accept; differences 3 and 6 keep values apart
    } else if (wire_valid_ours) {
        ++stats.wire_valid;
    } else if (malformed_ours) {
        ++stats.both_malformed;
    } else {
        ++(ref_ok ? stats.stopped_ref_accepts : stats.stopped_ref_refuses);
    }
    return 0;
}
