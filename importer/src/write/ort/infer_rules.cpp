// The operator rules (infer_rules.hpp). Each output has a list of sources tried in order:
// a source that does not apply (an omitted input, an absent attribute) passes to the next;
// one that applies gives the type, Unknown included, so an unknown input never falls back
// to a default. Written from the ONNX operator documentation (onnx.ai/onnx/operators).
#include "write/ort/infer_rules.hpp"

#include <onnximport/data_type.hpp>

#include <initializer_list>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

namespace {

enum class Src : uint8_t {
    In,          ///< input arg's type, whatever its kind
    Elem,        ///< the tensor of input arg's sequence
    SeqOf,       ///< a sequence of input arg's tensor
    Inner,       ///< what input arg's optional holds (a tensor or sequence as is)
    Fixed,       ///< a tensor of element type arg
    Attr,        ///< a tensor of the element type in int attribute `attr` (absent or 0: next)
    TensorAttr,  ///< a tensor of the element type of tensor attribute `attr`
    SparseAttr,  ///< a tensor of the element type of sparse tensor attribute `attr`
    Present,     ///< a tensor of element type arg when attribute `attr` is present
};

struct Alt {
    Src src;
    int32_t arg = 0;
    std::string_view attr{};
    bool seq = false;  ///< the result is a sequence of that tensor (SequenceEmpty)
};
using Out = std::vector<Alt>;

struct Rule {
    int64_t since = 1;  ///< the rule holds from this opset version of the domain on
    std::vector<Out> outs;
    bool variadic = false;  ///< the last output's source holds for every later output
};

constexpr int32_t kFloat = static_cast<int32_t>(DataType::Float);
constexpr int32_t kUint8 = static_cast<int32_t>(DataType::Uint8);
constexpr int32_t kInt32 = static_cast<int32_t>(DataType::Int32);
constexpr int32_t kInt64 = static_cast<int32_t>(DataType::Int64);
constexpr int32_t kString = static_cast<int32_t>(DataType::String);
constexpr int32_t kBool = static_cast<int32_t>(DataType::Bool);

Alt in(int32_t k) { return {Src::In, k}; }
Alt fixed(int32_t code) { return {Src::Fixed, code}; }
Alt attr(std::string_view name) { return {Src::Attr, 0, name}; }

/// Every output has input k's type (elementwise, shape and data movement operators).
Rule like(int32_t k, bool variadic = false) { return {1, {{in(k)}}, variadic}; }
/// One output of a fixed element type.
Rule of(int32_t code) { return {1, {{fixed(code)}}}; }
/// Outputs each from one source.
Rule outs(std::initializer_list<Alt> each) {
    Rule r;
    for (const Alt& a : each) r.outs.push_back({a});
    return r;
}

/// Domain, then operator: the keys view the string literals of the rules below.
using Table = std::unordered_map<std::string_view, std::unordered_map<std::string_view, std::vector<Rule>>>;

void add(Table& t, std::string_view domain, std::initializer_list<std::string_view> ops, const Rule& r) {
    for (std::string_view op : ops) t[domain][op].push_back(r);
}

Rule since(int64_t version, Rule r) {
    r.since = version;
    return r;
}

void add_input_type_rules(Table& t) {
    // The output has the first input's element type: arithmetic, activations, reductions,
    // normalizations, pooling, convolutions, shape and data movement.
    add(t, "", {"Abs", "Acos", "Acosh", "Add", "AffineGrid", "Asin", "Asinh", "Atan", "Atanh", "AveragePool",
                "BitShift", "BitwiseAnd", "BitwiseNot", "BitwiseOr", "BitwiseXor", "Ceil", "Celu", "CenterCropPad",
                "Clip", "Col2Im", "Compress", "Concat", "Conv", "ConvTranspose", "Cos", "Cosh", "CumProd", "CumSum",
                "DFT", "DeformConv", "DepthToSpace", "Det", "Div", "Einsum", "Elu", "Erf", "Exp", "Expand", "Flatten",
                "Floor", "Gather", "GatherElements", "GatherND", "Gelu", "Gemm", "GlobalAveragePool", "GlobalLpPool",
                "GlobalMaxPool", "GridSample", "GroupNormalization", "HardSigmoid", "HardSwish", "Hardmax", "Identity",
                "InstanceNormalization", "LRN", "LeakyRelu", "Log", "LogSoftmax", "LpNormalization", "LpPool", "MatMul",
                "Max", "MaxRoiPool", "MaxUnpool", "Mean", "MeanVarianceNormalization", "Min", "Mish", "Mod", "Mul",
                "Neg", "NegativeLogLikelihoodLoss", "PRelu", "Pad", "Pow", "Range", "Reciprocal", "ReduceL1",
                "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd",
                "ReduceSum", "ReduceSumSquare", "Relu", "Reshape", "Resize", "ReverseSequence", "RoiAlign",
                "RotaryEmbedding", "Round", "STFT", "Scatter", "ScatterElements", "ScatterND", "Selu", "Shrink",
                "Sigmoid", "Sign", "Sin", "Sinh", "Slice", "Softmax", "Softplus", "Softsign", "SpaceToDepth", "Sqrt",
                "Squeeze", "Sub", "Sum", "Swish", "Tan", "Tanh", "TensorScatter", "ThresholdedRelu", "Tile",
                "Transpose", "Trilu", "Unsqueeze", "Upsample"},
        like(0));
    add(t, "", {"Split"}, like(0, true));                // every piece is the input's
    add(t, "", {"GRU", "RNN", "LSTM"}, like(0, true));   // Y, Y_h (and Y_c) are X's
    add(t, "", {"SoftmaxCrossEntropyLoss"}, outs({in(0), in(0)}));  // loss and log_prob are the scores'
    add(t, "", {"Where"}, like(1));                     // the condition is BOOL; X and Y share T
    add(t, "", {"OneHot"}, like(2));                    // the values input's
    add(t, "", {"CastLike"}, like(1));                  // target_type's
    add(t, "", {"QLinearConv", "QLinearMatMul"}, like(7));  // y_zero_point's
    add(t, "", {"Attention"}, outs({in(0), in(1), in(2), in(0)}));  // Y, present_key, present_value, qk_matmul_output
    add(t, "", {"SwiGLU"}, like(0));
    // present_state is the state's, past_state's when given (the function body's CastLike), else query's.
    add(t, "", {"LinearAttention"}, {1, {{in(0)}, {in(3), in(0)}}});
    add(t, "", {"CausalConvWithState"}, like(0, true));  // the state is concatenated with the input
    add(t, "", {"LayerNormalization"}, {1, {{in(0)}, {attr("stash_type"), fixed(kFloat)}}, true});
    add(t, "", {"RMSNormalization"}, like(1));          // Y is the scale's type V
    // Y is X's, running (or saved) mean and variance input_mean's; versions below 7 have T everywhere.
    add(t, "", {"BatchNormalization"}, outs({in(0), in(3), in(3), in(0), in(0)}));
    add(t, "", {"MaxPool"}, outs({in(0), fixed(kInt64)}));  // Y, Indices
    add(t, "", {"TopK"}, outs({in(0), fixed(kInt64)}));     // Values, Indices
    add(t, "", {"Unique"}, outs({in(0), fixed(kInt64), fixed(kInt64), fixed(kInt64)}));
    add(t, "", {"Dropout"}, outs({in(0), in(0)}));                   // mask of type T until version 10
    add(t, "", {"Dropout"}, since(10, outs({in(0), fixed(kBool)})));  // then BOOL
}

void add_fixed_type_rules(Table& t) {
    add(t, "", {"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "And", "Or", "Xor", "Not", "IsInf",
                "IsNaN", "RegexFullMatch", "OptionalHasElement"},
        of(kBool));
    add(t, "", {"Shape", "Size", "NonZero", "ArgMax", "ArgMin", "NonMaxSuppression", "SequenceLength"}, of(kInt64));
    add(t, "", {"ConvInteger", "MatMulInteger"}, of(kInt32));
    add(t, "", {"ImageDecoder"}, of(kUint8));
    add(t, "", {"StringConcat", "StringNormalizer"}, of(kString));
    add(t, "", {"StringSplit"}, outs({fixed(kString), fixed(kInt64)}));  // substrings, their counts
    add(t, "", {"TfIdfVectorizer"}, of(kFloat));
    add(t, "", {"DynamicQuantizeLinear"}, outs({fixed(kUint8), fixed(kFloat), fixed(kUint8)}));
}

void add_attribute_rules(Table& t) {
    add(t, "", {"Cast", "BitCast"}, {1, {{attr("to")}}});
    add(t, "", {"EyeLike", "RandomNormalLike", "RandomUniformLike", "Bernoulli"}, {1, {{attr("dtype"), in(0)}}});
    add(t, "", {"RandomNormal", "RandomUniform"}, {1, {{attr("dtype"), fixed(kFloat)}}});
    add(t, "", {"Multinomial"}, {1, {{attr("dtype"), fixed(kInt32)}}});
    add(t, "", {"HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix"},
        {1, {{attr("output_datatype"), fixed(kFloat)}}});
    add(t, "", {"ConstantOfShape"}, {1, {{{Src::TensorAttr, 0, "value"}, fixed(kFloat)}}});
    // output_dtype (version 21 on), else y_zero_point's, else UINT8.
    add(t, "", {"QuantizeLinear"}, {1, {{attr("output_dtype"), in(2), fixed(kUint8)}}});
    // output_dtype (version 23 on), else x_scale's.
    add(t, "", {"DequantizeLinear"}, {1, {{attr("output_dtype"), in(1)}}});
    add(t, "", {"Constant"},
        {1,
         {{{Src::TensorAttr, 0, "value"},
           {Src::SparseAttr, 0, "sparse_value"},
           {Src::Present, kFloat, "value_float"},
           {Src::Present, kFloat, "value_floats"},
           {Src::Present, kInt64, "value_int"},
           {Src::Present, kInt64, "value_ints"},
           {Src::Present, kString, "value_string"},
           {Src::Present, kString, "value_strings"}}}});
}

void add_sequence_rules(Table& t) {
    add(t, "", {"SequenceConstruct", "SplitToSequence"}, {1, {{{Src::SeqOf, 0}}}});
    add(t, "", {"SequenceInsert", "SequenceErase"}, like(0));
    add(t, "", {"SequenceAt", "ConcatFromSequence"}, {1, {{{Src::Elem, 0}}}});
    add(t, "", {"SequenceEmpty"}, {1, {{{Src::Attr, 0, "dtype", true}, {Src::Fixed, kFloat, {}, true}}}});
    add(t, "", {"OptionalGetElement"}, {1, {{{Src::Inner, 0}}}});
}

void add_other_domains(Table& t) {
    add(t, "ai.onnx.ml", {"ArrayFeatureExtractor", "Binarizer", "TreeEnsemble"}, like(0));
    // The type of the values the keys map to.
    add(t, "ai.onnx.ml", {"LabelEncoder"},
        since(2, {1, {{{Src::TensorAttr, 0, "values_tensor"}, {Src::Present, kString, "values_strings"},
                       {Src::Present, kInt64, "values_int64s"}, {Src::Present, kFloat, "values_floats"}}}}));
    // The updated tensors (and their accumulators) share the type of the first tensor X1.
    add(t, "ai.onnx.preview.training", {"Adagrad", "Adam", "Momentum"}, like(2, true));
    add(t, "ai.onnx.preview", {"FlexAttention"}, like(0));  // Y is Q's
}

const Table& table() {
    static const Table t = [] {
        Table built;
        add_input_type_rules(built);
        add_fixed_type_rules(built);
        add_attribute_rules(built);
        add_sequence_rules(built);
        add_other_domains(built);
        return built;
    }();
    return t;
}

/// The rule for n's version: the one of the highest `since` not above it.
const Rule* rule_of(const Node& n) {
    const auto domain = table().find(n.domain == "ai.onnx" ? std::string_view() : n.domain);
    if (domain == table().end()) return nullptr;
    const auto found = domain->second.find(n.op_type);
    if (found == domain->second.end()) return nullptr;
    const Rule* best = nullptr;
    for (const Rule& r : found->second)
        if (r.since <= n.opset_version && (!best || r.since > best->since)) best = &r;
    return best;
}

const Attribute* find_attribute(const Node& n, std::string_view name) {
    for (const Attribute& a : n.attributes)
        if (a.name == name && a.ref_attr_name().empty()) return &a;
    return nullptr;
}

/// The source's type; nullopt when it does not apply (the next one is tried).
std::optional<ValueType> apply(const Alt& alt, const Node& n, std::span<const ValueType> inputs) {
    using K = ValueType::Kind;
    const bool has_input = alt.arg >= 0 && static_cast<size_t>(alt.arg) < n.inputs.size() && !n.inputs[alt.arg].empty();
    const ValueType input = has_input && static_cast<size_t>(alt.arg) < inputs.size() ? inputs[alt.arg] : ValueType{};
    const Attribute* a = alt.attr.empty() ? nullptr : find_attribute(n, alt.attr);
    const auto made = [&](int32_t elem) { return alt.seq ? ValueType::sequence(elem) : ValueType::tensor(elem); };
    switch (alt.src) {
    case Src::In:
        if (!has_input) return std::nullopt;
        return input;
    case Src::Elem:
        if (!has_input) return std::nullopt;
        return input.kind == K::Sequence ? ValueType::tensor(input.elem) : ValueType{};
    case Src::SeqOf:
        if (!has_input) return std::nullopt;
        return input.kind == K::Tensor ? ValueType::sequence(input.elem) : ValueType{};
    case Src::Inner:
        if (!has_input) return std::nullopt;
        if (input.kind == K::Optional) return ValueType::tensor(input.elem);
        if (input.kind == K::OptionalSequence) return ValueType::sequence(input.elem);
        return input;
    case Src::Fixed: return made(alt.arg);
    case Src::Attr:
        if (!a || a->type != AttributeType::Int || a->i == 0) return std::nullopt;
        if (a->i < 0 || a->i > max_data_type_code) return ValueType{};
        return made(static_cast<int32_t>(a->i));
    case Src::TensorAttr:
        if (!a || !a->t()) return std::nullopt;
        return made(a->t()->data_type);
    case Src::SparseAttr:
        if (!a || !a->sparse_tensor()) return std::nullopt;
        return made(a->sparse_tensor()->values.data_type);
    case Src::Present:
        if (!a) return std::nullopt;
        return made(alt.arg);
    }
    return std::nullopt;
}

}  // namespace

ValueType rule_output_type(const Node& n, size_t k, std::span<const ValueType> inputs) {
    const Rule* r = rule_of(n);
    if (!r || r->outs.empty()) return {};
    if (k >= r->outs.size() && !r->variadic) return {};
    const Out& out = r->outs[k < r->outs.size() ? k : r->outs.size() - 1];
    for (const Alt& alt : out)
        if (const auto t = apply(alt, n, inputs)) return t->known() ? *t : ValueType{};
    return {};
}

}  // namespace onnximport::detail
