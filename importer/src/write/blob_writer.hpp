// The external file's blobs at their reserved offsets, zeros before each, split into byte
// shares over the threads asked for (core/pool.hpp): both writers' last step.
#pragma once

#include "write/atomic_file.hpp"
#include "write/progress.hpp"
#include "write/source_pages.hpp"
#include "write/tensor_router.hpp"

#include <cstdint>
#include <span>

namespace onnximport::detail {

/// @throws ImportError(Io) when a write fails (the first share's error, as one thread would)
void write_blobs(AtomicFile& file, uint64_t alignment, std::span<const ExternalBlob> blobs, unsigned threads,
                 Progress& progress, SourcePages& source);

}  // namespace onnximport::detail
