// The parts of a .ort buffer the Model does not keep, checked as thoroughly as the rest
// (rule O2): the kernel type-string resolver and the runtime optimization records. Every
// vector is verified and the keys ONNX Runtime's schema requires are present.
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

/// A required string field (a key of ONNX Runtime's schema): Malformed when absent, as
/// its Verifier decides.
void required_string(OrtContext& c, const FbTable& t, uint16_t vt, std::string_view name) {
    bool present = false;
    c.fb.string(t, vt, name, &present);
    if (!present)
        c.fail(ErrorKind::Malformed, c.fb.address(t.at), std::string(name) + " is required and absent", name);
}

void check_strings(OrtContext& c, const FbTable& t, uint16_t vt, std::string_view name) {
    const FbVector v = c.fb.vector(t, vt, 4, name);
    for (uint32_t i = 0; i < v.count; ++i) c.fb.string_at(v, i, name);
}

/// Each entry of a vector of tables, checked by `check` inside its own path segment.
template <class Check>
void each_table(OrtContext& c, const FbTable& t, uint16_t vt, std::string_view name, Check check) {
    const FbVector v = c.fb.vector(t, vt, 4, name);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable entry = c.fb.table_at(v, i, name);
        PathScope at(c.path, name, i);
        Nested nested(c, entry);
        check(entry);
    }
}

void check_arg(OrtContext& c, const FbTable& arg) {
    using AT = fb::ArgTypeAndIndex;
    c.fb.scalar<int8_t>(arg, AT::VT_ARG_TYPE, 0, "arg_type");
    c.fb.scalar<uint32_t>(arg, AT::VT_INDEX, 0, "index");
}

void check_type_str_entry(OrtContext& c, const FbTable& entry) {
    using K = fb::KernelTypeStrArgsEntry;
    required_string(c, entry, K::VT_KERNEL_TYPE_STR, "kernel_type_str");
    each_table(c, entry, K::VT_ARGS, "args", [&](const FbTable& arg) { check_arg(c, arg); });
}

void check_op_entry(OrtContext& c, const FbTable& entry) {
    using O = fb::OpIdKernelTypeStrArgsEntry;
    required_string(c, entry, O::VT_OP_ID, "op_id");
    each_table(c, entry, O::VT_KERNEL_TYPE_STR_ARGS, "kernel_type_str_args",
               [&](const FbTable& e) { check_type_str_entry(c, e); });
}

void check_nodes_to_optimize(OrtContext& c, const FbTable& n) {
    using NT = fb::NodesToOptimizeIndices;
    c.fb.vector(n, NT::VT_NODE_INDICES, 4, "node_indices");
    c.fb.scalar<uint32_t>(n, NT::VT_NUM_INPUTS, 0, "num_inputs");
    c.fb.scalar<uint32_t>(n, NT::VT_NUM_OUTPUTS, 0, "num_outputs");
    c.fb.scalar<uint8_t>(n, NT::VT_HAS_VARIADIC_INPUT, 0, "has_variadic_input");
    c.fb.scalar<uint8_t>(n, NT::VT_HAS_VARIADIC_OUTPUT, 0, "has_variadic_output");
    c.fb.scalar<uint32_t>(n, NT::VT_NUM_VARIADIC_INPUTS, 0, "num_variadic_inputs");
    c.fb.scalar<uint32_t>(n, NT::VT_NUM_VARIADIC_OUTPUTS, 0, "num_variadic_outputs");
}

void check_record(OrtContext& c, const FbTable& record) {
    using R = fb::RuntimeOptimizationRecord;
    c.fb.string(record, R::VT_ACTION_ID, "action_id");
    if (const FbTable n = c.fb.table(record, R::VT_NODES_TO_OPTIMIZE_INDICES, "nodes_to_optimize_indices")) {
        PathScope at(c.path, "nodes_to_optimize_indices");
        Nested nested(c, n);
        check_nodes_to_optimize(c, n);
    }
    check_strings(c, record, R::VT_PRODUCED_OP_IDS, "produced_op_ids");
}

void check_container_entry(OrtContext& c, const FbTable& entry) {
    using E = fb::RuntimeOptimizationRecordContainerEntry;
    required_string(c, entry, E::VT_OPTIMIZER_NAME, "optimizer_name");
    each_table(c, entry, E::VT_RUNTIME_OPTIMIZATION_RECORDS, "runtime_optimization_records",
               [&](const FbTable& r) { check_record(c, r); });
}

}  // namespace

void check_ort_resolver(OrtContext& c, const FbTable& resolver) {
    Nested nested(c, resolver);
    each_table(c, resolver, fb::KernelTypeStrResolver::VT_OP_KERNEL_TYPE_STR_ARGS, "op_kernel_type_str_args",
               [&](const FbTable& e) { check_op_entry(c, e); });
}

void check_ort_runtime_optimizations(OrtContext& c, const FbTable& optimizations) {
    Nested nested(c, optimizations);
    each_table(c, optimizations, fb::RuntimeOptimizations::VT_RECORDS, "records",
               [&](const FbTable& e) { check_container_entry(c, e); });
}

}  // namespace onnximport::detail
