// One walk over everything a model holds: every graph (the main graph, subgraphs in
// attributes, training graphs) and every tensor (initializers, sparse initializers' parts,
// attribute tensors, function bodies' attributes). The external-data loader and the fuzz
// targets' checks share it, so no tensor is left out of either.
#pragma once

#include "model/access.hpp"

#include <onnximport/model.hpp>

namespace onnximport::detail {

template <class OnGraph, class OnTensor>
class ModelVisitor {
public:
    ModelVisitor(OnGraph on_graph, OnTensor on_tensor) : on_graph_(on_graph), on_tensor_(on_tensor) {}

    void model(ModelProto& m) {
        if (Graph* g = ModelAccess::graph(m)) graph(*g);
        for (TrainingInfo& ti : m.training_info) {
            if (Graph* g = ModelAccess::initialization(ti)) graph(*g);
            if (Graph* g = ModelAccess::algorithm(ti)) graph(*g);
        }
        for (Function& f : m.functions) {
            for (Node& n : f.nodes) attributes(n.attributes);
            attributes(f.attribute_protos);
        }
    }

    void graph(Graph& g) {
        on_graph_(g);
        for (TensorView& t : g.initializers) on_tensor_(t);
        for (SparseTensor& st : g.sparse_initializers) sparse(st);
        for (Node& n : g.nodes) attributes(n.attributes);
    }

private:
    void attributes(List<Attribute>& attrs) {
        for (Attribute& a : attrs) {
            AttributeFields* f = ModelAccess::fields(a);
            if (!f) continue;  // scalars only
            if (f->t) on_tensor_(*f->t);
            for (TensorView& t : f->tensors) on_tensor_(t);
            if (f->sparse_tensor) sparse(*f->sparse_tensor);
            for (SparseTensor& st : f->sparse_tensors) sparse(st);
            if (f->g) graph(*f->g);
            for (Graph& sub : f->graphs) graph(sub);
        }
    }

    void sparse(SparseTensor& st) {
        on_tensor_(st.values);
        on_tensor_(st.indices);
    }

    OnGraph on_graph_;
    OnTensor on_tensor_;
};

/// Calls on_graph(Graph&) for every graph and on_tensor(TensorView&) for every tensor.
template <class OnGraph, class OnTensor>
void visit_model(ModelProto& m, OnGraph on_graph, OnTensor on_tensor) {
    ModelVisitor<OnGraph, OnTensor>(on_graph, on_tensor).model(m);
}

}  // namespace onnximport::detail
