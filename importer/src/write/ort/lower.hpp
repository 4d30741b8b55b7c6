// The lowering pass of the .ort writer (docs/ort.md, "Writing"): from a resolved Model, the
// plan of what is written (plan.hpp), decided from the operators' facts: which Constants
// become initializers (lift_constant.hpp), what a CastLike becomes (cast_like.hpp), the type
// of every NodeArg (node_args.hpp, infer_types.hpp) and the operator versions the resolver
// holds (node_operator.hpp). What cannot be lowered is decided here: a model-local function
// or training_info is refused at once, an operator the .ort cannot run or a Constant without
// its value is marked in the plan and refused when the serialization reaches it (plan.hpp), as
// are the format's own limits where put_*.cpp serializes the plan.
#pragma once

#include "core/refusal.hpp"
#include "write/ort/infer_types.hpp"
#include "write/ort/plan.hpp"

namespace onnximport::detail {

/// The plan of `m`'s main graph and every subgraph. `untyped` is called for each value left
/// without a type (OrtWriteOptions::untyped).
/// @throws ImportError(Unsupported) at `refusal`'s source and path for model-local functions
///         or training_info
OrtPlan lower_model(const ModelProto& m, const Refusal& refusal, const InferredTypes::Untyped& untyped);

}  // namespace onnximport::detail
