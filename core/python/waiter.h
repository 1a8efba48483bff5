// SPDX-License-Identifier: MIT
// Internal to the Python runtime: what `await model.allreduce(...)` and the other communications
// return.
#pragma once

#include "session.h"

#include <memory>
#include <optional>
#include <vector>

namespace rankstep::python {

// What `await model.allreduce(...)` waits on. The operation starts at the await, so the event
// carries the line of the await; the coroutine stays suspended until the engine completes it.
struct Waiter {
    std::shared_ptr<Session> session;
    int rank = 0;
    core::OpKind op = core::OpKind::AllReduce;
    py::object value;
    int layer = -1;
    std::vector<int> group; // given to the engine (moved) when the operation starts
    std::optional<int> peer;
    bool started = false;
    bool done = false; // its result was taken, or it failed to start: awaiting again is an error
    // A non-blocking collective's handle (model.allreduce_start and the like): the collective
    // started at that call; awaiting waits for its end.
    std::int64_t handle = -1;

    // Starts the operation once; raises when it was already awaited or fails to start.
    void start();
    // `self` (this waiter's Python object) while the operation is pending; then raises
    // StopIteration(result).
    py::object next(py::handle self);
};

void bindWaiter(py::module_ &module);

// alltoall's pieces: a list or tuple of the rank's own puzzle objects or None, one per member of
// the group; anything else raises a TypeError that names `method` (alltoall or alltoall_start),
// and more items than the run's `ranks` a ValueError.
std::vector<std::optional<core::Object>> piecesOf(const py::object &value, Holder me,
                                                  const char *method, int ranks);

} // namespace rankstep::python
