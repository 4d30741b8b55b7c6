// The per-import hash key (core/hash.hpp).
#include "core/hash.hpp"
#include "core/hash_key_reserve.hpp"

#include <random>
#include <sys/random.h>

namespace onnximport::detail {

HashKey random_hash_key() {
    // One getrandom call: a std::random_device per import cost a quarter of the time of
    // importing a tiny model (docs/performance.md).
    HashKey key;
    if (::getrandom(&key, sizeof key, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof key)) return key;
    std::random_device device;  // no getrandom (or not seeded yet): the OS's source all the same
    auto word = [&] { return uint64_t{device()} << 32 | device(); };
    return {word(), word()};
}

HashKey HashKeyReserve::take() {
    std::lock_guard lock(mutex_);
    if (left_ == 0) {
        if (::getrandom(keys_.data(), sizeof keys_, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof keys_))
            return random_hash_key();
        left_ = batch;
    }
    const HashKey key = keys_[--left_];
    keys_[left_] = {};
    return key;
}

}  // namespace onnximport::detail
