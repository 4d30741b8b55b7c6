// The per-import hash key (core/hash.hpp).
#include "core/hash.hpp"

#include <random>

namespace onnximport::detail {

HashKey random_hash_key() {
    std::random_device device;  // the OS's random source (getrandom on Linux)
    auto word = [&] { return uint64_t{device()} << 32 | device(); };
    return {word(), word()};
}

}  // namespace onnximport::detail
