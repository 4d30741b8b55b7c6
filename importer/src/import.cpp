// The entry points: take the input (io/, spec section 6), read the messages (onnx/,
// sections 1-3), load external data (external/, section 5), resolve the graph (resolve/,
// section 4). Nothing between the start and the end of the read makes a system call but
// the release of passed raw_data pages of the importer's own mapping (io/input.hpp).
#include "core/refusal.hpp"
#include "core/step_clock.hpp"
#include "external/external_data.hpp"
#include "io/input.hpp"
#include "io/payloads.hpp"
#include "model/access.hpp"
#include "model/visit.hpp"
#include "onnx/fields.hpp"
#include "onnx/tensor_alone.hpp"
#include "ort/reader.hpp"
#include "resolve/resolve.hpp"

#include <onnximport/import.hpp>
#include <onnximport/workspace.hpp>

#include <algorithm>
#include <bit>
#include <new>
#include <stdexcept>
#include <vector>

namespace onnximport {

namespace {

static_assert(std::endian::native == std::endian::little, "the raw layout is read in place: little-endian hosts only");

void check_options(const ImportOptions& o) {
    if (o.max_nesting < ImportOptions::min_nesting_limit || o.max_nesting > ImportOptions::max_nesting_limit)
        throw std::invalid_argument("max_nesting must be between 8 and 250");
    if (o.ort_max_depth < ImportOptions::min_ort_depth_limit || o.ort_max_depth > ImportOptions::max_ort_depth_limit)
        throw std::invalid_argument("ort_max_depth must be between 8 and 250");
    if (o.ort_max_tables == 0) throw std::invalid_argument("ort_max_tables must be at least 1");
    if (o.threads < 1 || o.threads > ImportOptions::max_threads)
        throw std::invalid_argument("threads must be between 1 and 64");
}

/// Asks for the input's first lines at once (docs/performance-history.md, "A small model's lines at
/// once", which says why this many): they then load side by side, where the read would wait
/// for each in turn.
void prefetch_head(const detail::ModelInput& in) noexcept {
    constexpr size_t head = 4096, line_size = 64;
    const auto begin = reinterpret_cast<uintptr_t>(in.data());  // the first line may start before the input
    const uintptr_t end = begin + std::min(in.size(), head);
    for (uintptr_t line = begin & ~uintptr_t{line_size - 1}; line < end; line += line_size)
        __builtin_prefetch(reinterpret_cast<const void*>(line));
}

/// The .onnx reader (onnx/, wire/).
void read_onnx(detail::Storage& s, const ImportOptions& o) {
    prefetch_head(s.input);
    detail::Context c(s, s.input.data(), o.max_nesting, "ModelProto");
    detail::Reader r(c, s.input.data(), s.input.data() + s.input.size());
    detail::read_model(c, r, s.proto);
}

/// Whether the bytes of a buffer that read as a .ort also read as a .onnx (on storage of
/// its own, borrowing the bytes): a real .ort fails at its first byte, a root offset.
bool also_reads_as_onnx(const detail::Storage& s, const ImportOptions& o) {
    detail::Storage scratch(s.source_name, detail::ModelInput::borrow({s.input.data(), s.input.size()}, s.source_name),
                            nullptr, s.hash_key);
    try {
        read_onnx(scratch, o);
        return true;
    } catch (const ImportError&) {
        return false;
    }
}

/// ORTM at bytes 4..7 names a .ort (rule O1), unless it is not a well-formed .ort and reads
/// as a .onnx: a ModelProto whose first fields are ir_version and a producer_name
/// "ORTM..." carries those bytes too (fuzz_roundtrip wrote one); neither: the .ort's
/// refusal. The .onnx reader then starts on fresh storage. Both at once is refused (O16).
void read_messages(std::unique_ptr<detail::Storage>& s, const ImportOptions& o) {
    if (o.format == ModelFormat::Onnx) return read_onnx(*s, o);
    if (o.format == ModelFormat::Ort) return detail::read_ort_model(*s, o);
    if (!detail::looks_like_ort(s->input.data(), s->input.size())) return read_onnx(*s, o);
    try {
        detail::read_ort_model(*s, o);
    } catch (const ImportError& not_ort) {
        if (not_ort.kind() != ErrorKind::Malformed) throw;
        s = std::make_unique<detail::Storage>(std::move(s->source_name), std::move(s->input), s->pool, s->hash_key);
        try {
            read_onnx(*s, o);
        } catch (const ImportError&) {
            throw not_ort;
        }
        return;
    }
    // Located at the file identifier, which makes the buffer a .ort as well.
    if (also_reads_as_onnx(*s, o))
        detail::refuse(ErrorKind::InvalidModel, s->source_name, uint64_t{4}, "InferenceSession",
                       "the buffer is a valid .ort and a valid .onnx at once; ONNX Runtime would choose by the file "
                       "name: name the format (ImportOptions::format, --format) (rule O16)");
}

/// Resolution names ModelProto's fields; a .ort's refusal names its own (rule O13).
void resolve(detail::Storage& s, ImportTimes* times) {
    if (!s.from_ort) return detail::resolve_model(s, times);
    try {
        detail::resolve_model(s, times);
    } catch (const ImportError& e) {
        detail::refuse(e.kind(), e.source_name(), e.offset(), detail::ort_field_path(e.field_path()), e.message());
    }
}

/// With more than one thread, the tensors' bytes are made resident on them before the
/// import returns (io/payloads.hpp); with one, nothing here touches a weight page.
void make_payloads_resident(detail::Storage& s, unsigned threads) {
    if (threads <= 1) return;
    std::vector<detail::ByteRange> ranges;
    detail::visit_model(s.proto, [](Graph&) {}, [&](TensorView& t) {
        const auto b = t.bytes();
        if (!b.empty()) ranges.push_back({reinterpret_cast<const uint8_t*>(b.data()), b.size()});
    });
    detail::touch_pages(ranges, threads);
}

/// Reads the messages (.ort or .onnx, by content), then the external data, then resolves.
Model read_model(std::unique_ptr<detail::Storage> s, const ImportOptions& o, const detail::ExternalPlace& place) {
    try {
        detail::StepClock clock(o.times);
        read_messages(s, o);
        clock.lap(&ImportTimes::read);
        if (o.load_external_data) detail::load_external_data(*s, o, place);
        clock.lap(&ImportTimes::external);
        if (o.resolve) resolve(*s, o.times);
        make_payloads_resident(*s, o.threads);
        s->hash_key.forget_reserve();
    } catch (const std::bad_alloc&) {
        // The graph grows with what the input holds (never with a declared length), but a
        // large input of tiny messages can still need more memory than there is.
        detail::refuse(ErrorKind::Unsupported, s->source_name, std::nullopt, {},
                       "the model's graph does not fit in memory");
    }
    return detail::ModelAccess::make(std::move(s));
}

std::unique_ptr<detail::Storage> storage_for(std::string name, detail::ModelInput input, const ImportOptions& o) {
    return std::make_unique<detail::Storage>(std::move(name), std::move(input), detail::pool_of(o.workspace),
                                             detail::ImportHashKey(detail::key_reserve_of(o.workspace)));
}

/// Bytes have no directory and no file name: only the options name them.
Model import_input(std::string name, detail::ModelInput input, const ImportOptions& options) {
    detail::ExternalPlace place;
    if (options.external_data_dir) place.dir = &*options.external_data_dir;
    return read_model(storage_for(std::move(name), std::move(input), options), options, place);
}

}  // namespace

Model import_file(const std::filesystem::path& path, const ImportOptions& options) {
    check_options(options);
    std::string name = path.string();
    auto input = detail::ModelInput::open_file(path, name, options.load_mode, options.map_threshold, options.threads);
    // A file's external data is beside it unless the options say where.
    std::filesystem::path dir = options.external_data_dir ? *options.external_data_dir : path.parent_path();
    if (dir.empty()) dir = ".";
    const detail::ExternalPlace place{&dir, &path};
    return read_model(storage_for(std::move(name), std::move(input), options), options, place);
}

Model import_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options) {
    check_options(options);
    std::string owned(name);  // one copy of the name, for the input's check and the Model
    auto input = detail::ModelInput::borrow(bytes, owned);
    return import_input(std::move(owned), std::move(input), options);
}

Model import_bytes(std::vector<uint8_t>&& bytes, std::string_view name, const ImportOptions& options) {
    check_options(options);
    std::string owned(name);
    auto input = detail::ModelInput::take(std::move(bytes), owned);
    return import_input(std::move(owned), std::move(input), options);
}

}  // namespace onnximport

namespace onnximport::detail {

namespace {

Model read_tensor_alone(ModelInput input, std::string_view name, const ImportOptions& options) {
    check_options(options);
    auto s = storage_for(std::string(name), std::move(input), options);
    Graph* g = s->arena.make<Graph>();
    ModelAccess::graph(s->proto) = g;
    Context c(*s, s->input.data(), options.max_nesting, "TensorProto");
    Reader r(c, s->input.data(), s->input.data() + s->input.size());
    read_tensor(c, r, s->input.data(), ListAccess::append(s->arena, g->initializers));
    return ModelAccess::make(std::move(s));
}

}  // namespace

Model import_tensor_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options) {
    return read_tensor_alone(ModelInput::borrow(bytes, std::string(name)), name, options);
}

Model import_tensor_bytes(std::vector<uint8_t>&& bytes, std::string_view name, const ImportOptions& options) {
    return read_tensor_alone(ModelInput::take(std::move(bytes), std::string(name)), name, options);
}

}  // namespace onnximport::detail
