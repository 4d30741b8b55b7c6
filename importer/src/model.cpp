// The Model's ownership of its storage, and tensor views into it (spec section 6).
#include "storage.hpp"

#include <onnximport/error.hpp>
#include <onnximport/model.hpp>

namespace onnximport {

Model::Model() : storage_(std::make_unique<detail::Storage>()) {}
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
    if (s.input_mapping) s.input_mapping->release();
    s.input_buffer.reset();
    for (auto& [path, file] : s.external_files) file->release();
    s.owned_buffers.clear();
}

std::span<const std::byte> TensorView::bytes() const {
    if (storage_ && storage_->closed)
        throw ImportError(ErrorKind::Io, storage_->source_name, std::nullopt, field_path,
                          "tensor '" + std::string(name) + "' read after the model was closed");
    if (!data_) return {};
    return {data_, static_cast<size_t>(size_)};
}

std::vector<std::byte> TensorView::to_tensor() const {
    auto b = bytes();
    return {b.begin(), b.end()};
}

}  // namespace onnximport
