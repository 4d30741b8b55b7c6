// The per-import hash key (core/hash.hpp).
#include "core/hash.hpp"
#include "core/hash_key_reserve.hpp"

#include <cerrno>
#include <random>
#include <sys/random.h>

namespace onnximport::detail {

namespace {

/// Fills [p, p + n) from getrandom: above 256 bytes it may return fewer (cut short by a signal).
bool fill_random(void* p, size_t n) {
    auto* at = static_cast<unsigned char*>(p);
    while (n > 0) {
        const ssize_t got = ::getrandom(at, n, GRND_NONBLOCK);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        at += got;
        n -= static_cast<size_t>(got);
    }
    return true;
}

}  // namespace

HashKey random_hash_key() {
    // One getrandom call: a std::random_device per import cost a quarter of the time of
    // importing a tiny model (docs/performance.md).
    HashKey key;
    if (fill_random(&key, sizeof key)) return key;
    std::random_device device;  // no getrandom (or not seeded yet): the OS's source all the same
    auto word = [&] { return uint64_t{device()} << 32 | device(); };
    key.k0 = word();
    key.k1 = word();
    for (uint64_t& w : key.short_key) w = word();
    for (uint64_t& w : key.length_key) w = word();
    for (uint64_t& w : key.nh_key) w = word();
    return key;
}

HashKey HashKeyReserve::take() {
    std::lock_guard lock(mutex_);
    if (left_ == 0) {
        if (!fill_random(keys_.data(), sizeof keys_)) return random_hash_key();
        left_ = batch;
    }
    const HashKey key = keys_[--left_];
    keys_[left_] = {};
    return key;
}

}  // namespace onnximport::detail
