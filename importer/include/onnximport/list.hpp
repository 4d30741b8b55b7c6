// A repeated field of the imported model (spec section 6, "Importing therefore allocates
// only the graph itself"): a run of elements in the Model's arena.
//
// Why not std::vector: a large graph holds millions of repeated fields (inputs,
// outputs, attributes, dims); a vector each means a heap allocation each, 24 bytes of
// header each, and a destructor walk at the end. A List is 16 bytes, its elements come
// from the Model's arena (a pointer bump), and nothing in the model needs destroying: the
// arena's blocks are freed with the Model. Elements are therefore trivially copyable and
// destructible, and copying a List copies the view, not the elements.
//
// The importer fills lists through detail::ListAccess (importer/src/core/arena.hpp); users
// read them like a const vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace onnximport {

namespace detail {
struct ListAccess;
}

template <class T>
class List {
public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    T* begin() noexcept { return data_; }
    T* end() noexcept { return data_ + size_; }
    const T* begin() const noexcept { return data_; }
    const T* end() const noexcept { return data_ + size_; }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }

    size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }

    T& operator[](size_t i) noexcept { return data_[i]; }
    const T& operator[](size_t i) const noexcept { return data_[i]; }
    /// Bounds-checked access. @throws std::out_of_range
    T& at(size_t i) {
        if (i >= size_) throw std::out_of_range("onnximport::List::at");
        return data_[i];
    }
    const T& at(size_t i) const {
        if (i >= size_) throw std::out_of_range("onnximport::List::at");
        return data_[i];
    }
    T& front() noexcept { return data_[0]; }
    const T& front() const noexcept { return data_[0]; }
    T& back() noexcept { return data_[size_ - 1]; }
    const T& back() const noexcept { return data_[size_ - 1]; }

    /// The empty list that accessors of absent out-of-line fields return.
    static const List& none() noexcept {
        static constexpr List empty;
        return empty;
    }

    /// A copy of the elements.
    std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

    friend bool operator==(const List& a, const List& b) {
        if (a.size_ != b.size_) return false;
        for (uint32_t i = 0; i < a.size_; ++i)
            if (!(a.data_[i] == b.data_[i])) return false;
        return true;
    }

private:
    friend struct detail::ListAccess;
    T* data_ = nullptr;
    // 32 bits suffice: every element stands for at least one byte of an input of at most
    // 2^31 - 1 bytes.
    uint32_t size_ = 0;
    uint32_t capacity_ = 0;
};

}  // namespace onnximport
