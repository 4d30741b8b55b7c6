// The external blobs (blob_writer.hpp).
#include "write/blob_writer.hpp"

#include "core/pool.hpp"
#include "write/aligned_sink.hpp"

#include <vector>

namespace onnximport::detail {

void write_blobs(AtomicFile& file, uint64_t alignment, std::span<const ExternalBlob> blobs, unsigned threads,
                 Progress& progress, SourcePages& source) {
    AlignedSink sink(file, alignment);
    std::vector<uint64_t> sizes;
    sizes.reserve(blobs.size());
    for (const ExternalBlob& b : blobs) sizes.push_back(b.bytes.size());
    run_pieces(threads, sizes, share_grain, [&](unsigned share, size_t i, uint64_t from, uint64_t to) {
        const ExternalBlob& b = blobs[i];
        source.copy(share, b.bytes.subspan(from, to - from), [&](uint64_t at, std::span<const std::byte> part) {
            const bool first = from + at == 0;
            if (first) sink.write_reserved(b.from, b.offset, part);  // the zeros before the blob, too
            else file.write_at(b.offset + from + at, part);
            progress.advance(part.size() + (first ? b.offset - b.from : 0));
        });
    });
}

}  // namespace onnximport::detail
