// The lowering pass of the .ort writer (docs/ort.md, "Writing"): from a resolved Model, the
// plan of what is written (plan.hpp), decided from the operators' facts: which Constants
// become initializers (lift_constant.hpp), what a CastLike becomes (cast_like.hpp), the type
// of every NodeArg (node_args.hpp, infer_types.hpp) and the operator versions the resolver
// holds (node_operator.hpp). What cannot be lowered is refused here; the format's own limits
// are refused where put_*.cpp serializes the plan.
#pragma once

#include "core/refusal.hpp"
#include "write/ort/infer_types.hpp"
#include "write/ort/plan.hpp"

namespace onnximport::detail {

/// The plan of `m`'s main graph and every subgraph. `untyped` is called for each value left
/// without a type (OrtWriteOptions::untyped). The refusals carry `refusal`'s source and path.
/// @throws ImportError(Unsupported) for model-local functions, training_info, an operator
///         outside the signature table or run only as a function, a Constant without its value
OrtPlan lower_model(const ModelProto& m, Refusal& refusal, const InferredTypes::Untyped& untyped);

}  // namespace onnximport::detail
