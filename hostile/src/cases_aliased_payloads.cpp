// Hostile cases of payloads aliased by many tensors (docs/rules.md E11): many tensors name
// one large range of one file, in a .onnx (external data) and in a .ort (the companion
// file), imported on two threads. A reader that makes each tensor's range resident on its
// own touches the range once per tensor; the bound is the bytes the ranges cover. The data
// files are sparse (no disk space), so the cases are generated only; their sizes and times
// are in docs/performance.md ("Sizes the tests rely on").
#include "build.hpp"
#include "corpus.hpp"
#include "rules.hpp"

#include <ort_builder.hpp>

#include <string>

namespace hostile {

namespace {

constexpr int aliases = 60'000;
constexpr int64_t floats = int64_t{64} << 20;  // FLOAT [2^26]: 256 MiB
constexpr uint64_t range_bytes = uint64_t(floats) * 4;
constexpr Rule companion{"O14", "ort"};

std::string alias_name(int i) { return "a" + std::to_string(i); }

/// The minimal graph and `aliases` FLOAT initializers, each the whole of `location`.
std::string onnx_aliases(const std::string& location) {
    WireWriter g = base_graph();
    for (int i = 0; i < aliases; ++i) {
        WireWriter t = tensor_head(alias_name(i), 1, {floats});
        t.message(p::Tensor::external_data, ob::string_entry("location", location));
        t.int_field(p::Tensor::data_location, 1);
        g.message(p::Graph::initializer, t);
    }
    return ob::model(g).str();
}

/// relu_model and `aliases` FLOAT initializers, each at offset 0 of the companion file.
std::string ort_aliases() {
    ob::OrtModelSpec m = ob::relu_model();
    for (int i = 0; i < aliases; ++i) {
        m.graph.node_args.push_back({alias_name(i)});
        m.graph.initializers.push_back({.name = alias_name(i), .dims = {floats}, .external_data_offset = 0});
    }
    const std::vector<uint8_t> b = ob::build_ort(m);
    return {b.begin(), b.end()};
}

json bytes_of_first_and_last() {
    return {{"tensor_bytes", {{alias_name(0), range_bytes}, {alias_name(aliases - 1), range_bytes}}}};
}

}  // namespace

void add_aliased_payload_cases(Corpus& c) {
    const std::string why = "60,000 FLOAT [2^26] tensors all name the 256 MiB of one sparse file, read on 2 threads: "
                            "the pages are made resident once, not once per tensor (14.6 TiB)";
    c.side_sparse("aliased-256mib.bin", range_bytes);
    Case& onnx = c.accept("external-60000-tensors-alias-256mib", rules::aliased, "external data: " + why,
                          onnx_aliases("aliased-256mib.bin"), bytes_of_first_and_last());
    onnx.options = {{"threads", 2}};
    onnx.generated_only = true;  // megabytes of tensors, and its data file is sparse
    Case& ort = c.accept("ort-external-60000-tensors-alias-256mib.ort", companion, "the companion file: " + why,
                         ort_aliases(), bytes_of_first_and_last());
    ort.options = {{"threads", 2}};
    ort.generated_only = true;
    c.side_sparse(ort.file + ".data", range_bytes);
}

}  // namespace hostile
