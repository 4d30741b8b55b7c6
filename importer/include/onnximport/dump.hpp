// The structural dump (sweep/DUMP_FORMAT.md): one fact per line, deterministic, and
// byte-identical to what python/gauntlet/sweep/onnx_dump.py writes from the Python onnx package.
#pragma once

#include <onnximport/model.hpp>

#include <ostream>

namespace onnximport {

/// Writes the dump of an imported model.
/// @throws ImportError(Io) when the model was closed (tensor bytes are hashed).
void write_dump(const Model& model, std::ostream& out);

}  // namespace onnximport
