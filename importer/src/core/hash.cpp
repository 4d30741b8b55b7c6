// The per-import hash key (core/hash.hpp).
#include "core/hash.hpp"
#include "core/hash_key_reserve.hpp"

#include <cerrno>
#include <cstring>
#include <initializer_list>
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

KeySeed random_key_seed() {
    KeySeed seed;
    if (fill_random(&seed, sizeof seed)) return seed;
    std::random_device device;  // no getrandom (or not seeded yet): the OS's source all the same
    seed.k0 = uint64_t{device()} << 32 | device();
    seed.k1 = uint64_t{device()} << 32 | device();
    return seed;
}

uint64_t siphash24_word(KeySeed seed, uint64_t message) {
    sip::State s = sip::State::keyed(seed.k0, seed.k1);
    const uint64_t last = uint64_t{8} << 56;  // no bytes left over, and the length 8
    for (uint64_t m : {message, last}) {
        s.v3 ^= m;
        s.round();
        s.round();
        s.v0 ^= m;
    }
    s.v2 ^= 0xff;
    for (int i = 0; i < 4; ++i) s.round();
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

HashKey derive_hash_key(KeySeed seed, uint64_t counter) {
    constexpr size_t words = sizeof(HashKey) / 8;
    static_assert(words <= 32 && sizeof(HashKey) == 8 * words);
    uint64_t w[words];
    for (size_t i = 0; i < words; ++i) w[i] = siphash24_word(seed, counter << 5 | i);
    HashKey key;
    std::memcpy(&key, w, sizeof key);
    return key;
}

HashKey random_hash_key() { return derive_hash_key(random_key_seed(), 0); }

HashKey HashKeyReserve::take() {
    KeySeed seed;
    uint64_t number;
    {
        std::lock_guard lock(mutex_);
        if (left_ == 0) {
            seed_ = random_key_seed();
            left_ = batch;
        }
        seed = seed_;
        number = batch - left_;
        if (--left_ == 0) seed_ = {};  // no key of a spent batch can be derived again
    }
    return derive_hash_key(seed, number);  // outside the lock: imports on other threads need not wait
}

}  // namespace onnximport::detail
