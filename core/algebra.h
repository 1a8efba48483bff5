// SPDX-License-Identifier: MIT
#pragma once

#include "error.h"
#include "objects.h"

namespace rankstep::core {

// a + b for weight gradients: same layer and same shards; the result covers the union of
// batches. `overlap` receives the batches both already covered (a double-counted gradient).
// Errors carry no rank or line: the caller knows them.
Result<Object> addGradients(const Object &a, const Object &b, IndexSet *overlap = nullptr);

// a.combine(b) for weights, optimizer states and weight gradients: same kind and layer; the
// union of shards.
Result<Object> combine(const Object &a, const Object &b);

// The same, accumulated into `a` in place, which an error leaves as it was: a collective joins
// its members' values one by one, where each member's made a new sum, copied then moved.
Status addGradientsInto(Object &a, const Object &b, IndexSet *overlap = nullptr);
Status combineInto(Object &a, const Object &b);

// Tensor and sequence parallelism: `a` += `b` for partial activations (gradients) of one
// tensor group (same kind, layer, block and batches), and the union of sequence shards of one
// activation (gradient). Neither finishes the object: the collective does. `overTensorGroup`: the
// collective's group is the tensor group itself, so a slice held twice was loaded by two ranks.
Status sumPartialInto(Object &a, const Object &b, bool overTensorGroup = false);
Status gatherSequenceInto(Object &a, const Object &b);

// x.shard(s, total): x must be complete; returns the single shard s of total.
Result<Object> shard(const Object &x, int index, int total);

} // namespace rankstep::core
