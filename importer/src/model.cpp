// The Model's ownership of its storage, and tensor views into it (spec section 6).
#include "storage.hpp"

#include <onnximport/error.hpp>
#include <onnximport/model.hpp>

#include <cstddef>
#include <random>

namespace onnximport {

// The sizes the layout was designed for (model.hpp, list.hpp): a 200,000-node graph holds
// 800,000 attributes, 400,000 dimensions and millions of lists.
static_assert(sizeof(List<int64_t>) == 16);
static_assert(sizeof(Attribute) == 40);
static_assert(sizeof(Node) == 128);
static_assert(sizeof(Dimension) == 16);
static_assert(sizeof(TypeProto) == 40);
static_assert(sizeof(ValueInfo) == 72);
static_assert(sizeof(Value) == 64);
// What resolution touches of a node and of a value lies in one 64-byte line.
static_assert(alignof(Node) == 64 && offsetof(Node, has_subgraphs) < 64);
static_assert(alignof(Value) == 64);

namespace {

/// One draw from the OS's random source per process: the value indexes' hash seed
/// (value_index.hpp) cannot be guessed from outside.
uint64_t process_hash_seed() {
    static const uint64_t seed = [] {
        std::random_device device;
        return uint64_t{device()} << 32 | device();
    }();
    return seed;
}

}  // namespace

Model::Model() : storage_(std::make_unique<detail::Storage>()) { storage_->hash_seed = process_hash_seed(); }
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

const std::string& Model::source_name() const noexcept { return storage_->source_name; }
uint64_t Model::input_size() const noexcept { return storage_->input_size; }
bool Model::is_mapped() const noexcept { return storage_->input_mapping != nullptr; }
bool Model::is_closed() const noexcept { return storage_->closed; }

void Model::close() noexcept {
    auto& s = *storage_;
    s.closed = true;
    // The input itself stays: names and strings are views into it. Its pages are dropped
    // (a mapped MAP_PRIVATE file loses nothing); a read buffer is at most what was read.
    if (s.input_mapping) s.input_mapping->drop_pages();
    for (auto& [path, file] : s.external_files) file->release();
    s.owned_buffers.clear();
    for (auto& heap : s.helper_heaps) heap->owned_buffers.clear();
}

std::span<const std::byte> TensorView::bytes() const {
    if (storage_ && storage_->closed)
        throw ImportError(ErrorKind::Io, storage_->source_name, std::nullopt, std::string(field_path),
                          "tensor '" + std::string(name) + "' read after the model was closed");
    if (!data_) return {};
    return {data_, static_cast<size_t>(size_)};
}

std::vector<std::byte> TensorView::to_tensor() const {
    auto b = bytes();
    return {b.begin(), b.end()};
}

}  // namespace onnximport
