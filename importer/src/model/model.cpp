// The Model's ownership of its storage, and tensor views into it (spec section 6).
#include "model/access.hpp"
#include "model/storage.hpp"
#include "model/value_index.hpp"

#include "core/refusal.hpp"
#include "core/text.hpp"

#include <onnximport/error.hpp>
#include <onnximport/model.hpp>

#include <cstddef>

namespace onnximport {

// The sizes the layout was designed for (docs/performance.md): a large graph holds
// millions of attributes, dimensions and lists.
static_assert(sizeof(List<int64_t>) == 16);
static_assert(sizeof(Attribute) == 40);
static_assert(sizeof(Node) == 128);
static_assert(sizeof(Dimension) == 16);
static_assert(sizeof(TypeProto) == 40);
static_assert(sizeof(ValueInfo) == 72);
static_assert(sizeof(Value) == 64);
static_assert(alignof(Node) == 64 && alignof(Value) == 64);

namespace {

const ModelProto empty_proto{};

}  // namespace

Model::Model() noexcept = default;
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

const ModelProto& Model::proto() const noexcept { return storage_ ? storage_->proto : empty_proto; }
std::string_view Model::source_name() const noexcept { return storage_ ? storage_->source_name : std::string_view(); }
uint64_t Model::input_size() const noexcept { return storage_ ? storage_->input.size() : 0; }
bool Model::is_mapped() const noexcept { return storage_ && storage_->input.is_mapped(); }
bool Model::is_closed() const noexcept { return storage_ && storage_->closed; }

void Model::close() noexcept {
    if (!storage_) return;
    auto& s = *storage_;
    s.closed = true;
    // The input itself stays: names and strings are views into it. Its pages are dropped
    // (a mapped file loses nothing); a read buffer is at most what was read.
    s.input.drop_pages();
    for (auto& [id, file] : s.external_files) file->unmap_and_close();
    s.owned_buffers.clear();
}

const Value* Graph::find_value(std::string_view value_name) const noexcept {
    if (!value_index_) return nullptr;
    uint32_t i = value_index_->find(value_name);
    return i == detail::ValueIndex::npos ? nullptr : &values[i];
}

std::span<const std::byte> TensorView::bytes() const {
    if (storage_ && storage_->closed)
        detail::refuse(ErrorKind::Io, storage_->source_name, std::nullopt, std::string(field_path_),
                       "tensor " + detail::quoted(name, '\'') + " read after the model was closed");
    if (!data_) return {};
    return {data_, static_cast<size_t>(size_)};
}

std::vector<std::byte> TensorView::to_tensor() const {
    auto b = bytes();
    return {b.begin(), b.end()};
}

}  // namespace onnximport
