// SPDX-License-Identifier: MIT
// Internal to the Python runtime: shared by the translation units that include pybind11.
#pragma once

#include "core/engine.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rankstep::python {

namespace py = pybind11;

// Who holds a puzzle object (docs/simulation.md, "An object belongs to a rank"): the rank whose
// code made it or received it, and the session (run) it was made in. Rank -1: made outside any
// rank's code (top-level code calling a constructor), which every rank may use.
//
// Made by hand: by the learner calling a constructor (Weight(...), WeightGrad(...)), or from such
// an object (a sum, combine, shard). A run's model operations refuse it: it would stand for work
// no rank did, a gradient no backward computed or a sum no collective made (docs/simulation.md,
// "An object belongs to a rank"). Code outside any run (the notebook's demos) may use it freely.
struct Holder {
    int rank = -1;
    std::uint32_t run = 0;
    bool handMade = false;
};

// The world a set of Python Model objects talks to: a run's engine, or a standalone Dist's.
struct Session {
    Session();
    std::uint32_t run = 0;               // a number of its own, for Holder::run
    core::Engine *engine = nullptr;      // null once the run has ended
    std::unique_ptr<core::Engine> owned; // a standalone Dist's own engine
    std::string fileName;                // the learner's file, to find their current line
    bool standalone = false;
    std::vector<core::WeightsByLayer> finalWeights; // kept when the run ends
};

// The engine of a session; raises ValueError once its run has ended.
inline core::Engine &engineOf(const Session &session)
{
    if (!session.engine)
        throw py::value_error("this model belongs to a run that has ended");
    return *session.engine;
}

// The session of the run executing on this thread, or null (top-level code).
Session *activeSession();
void setActiveSession(Session *session);

// The line of the innermost frame of the learner's file on the Python stack (0 if none).
int learnerLine(const std::string &fileName);
// Forgets the code objects learnerLine has seen (each run starts afresh).
void clearLineCache();

py::object wrapObject(const core::Object &object, Holder holder);
// The object a storage entry holds, handed out: it stands for the entry's `note` (core/storage.h,
// heldoutside.h), so that it is not held outside while the entry holds it.
py::object wrapStored(const core::Object &object, Holder holder, std::uint32_t note);
// The holder of what the code running now makes: the rank the run is resuming, else none.
Holder actingHolder();
// Raises PuzzleError when `rank` (>= 0) runs while the code uses rank `owner`'s `what` (its model,
// one of its storage dictionaries, a call it awaits): ranks do not share memory.
void refuseOtherRanks(const Session &session, int owner, const char *what);
// The C++ value held by a pybind11 instance whose Python type wraps one C++ class (a puzzle
// object, a waiter), or null when pybind11's own conversion must decide (not constructed, ...).
const void *heldValue(PyObject *instance);
// Raises TypeError when `instance` (a pybind11 instance of one of ours) was made by
// `Type.__new__(Type)` alone and holds no value: pybind11's own conversion would hand out memory
// it never constructed, and reading it could crash the run.
void refuseUninitialized(PyObject *instance);
// True for such an instance (holds no value).
bool madeByNewAlone(PyObject *instance);
// The value held by `self`, an instance of `type` or of a subclass; else pybind11's conversion
// (which raises for other objects).
template <typename T>
T &heldOrCast(py::handle self, PyTypeObject *type)
{
    if (type && PyObject_TypeCheck(self.ptr(), type)) {
        if (const void *held = heldValue(self.ptr()))
            return *static_cast<T *>(const_cast<void *>(held));
        refuseUninitialized(self.ptr());
    }
    return self.cast<T &>();
}
bool isPuzzleObject(py::handle value);
const core::Object &puzzleObject(py::handle value); // requires isPuzzleObject
// Converts a value for a storage map or collective; raises TypeError naming `what` (a C string:
// every operation checks its arguments here, and a std::string made each time cost a copy).
const core::Object &requirePuzzleObject(py::handle value, const char *what);
// requirePuzzleObject for the code of `acting`: raises PuzzleError when the object belongs to
// another rank or another run ("rank 1 used rank 0's weight gradient for layer 0 without receiving
// it"). `use` says where: "in update".
const core::Object &ownPuzzleObject(py::handle value, const char *use, Holder acting);
// What a message or collective brings to the rank of `receiver`: puzzle objects, also inside
// lists, tuples, dicts and sets, as the receiver's.
py::object wrapPayload(core::Payload payload, Holder receiver);
// What `sender` sends: its own puzzle object, or another value whose lists, tuples, dicts and
// sets are copied as they are now (later changes do not travel) and may hold only its own puzzle
// objects. `use` names the call: "in pass_to".
core::Payload toPayload(py::handle value, Holder sender, const char *use);
// The copy of a message's value that travels (messages.cpp): its lists, tuples and dicts copied
// as they are now. Sending (`use` names the call), each puzzle object in them must be the
// sender's; receiving (`use` null), each becomes the receiver's.
py::object carryMessage(py::object value, Holder holder, const char *use);
core::IndexSet toIndexSet(py::handle iterable, const char *what);

// Raises the error in Python: PuzzleError (an AssertionError) for the learner's mistakes,
// RunStopped (a BaseException) when the run as a whole is over (deadlock, mismatch, stop).
[[noreturn]] void raiseError(const core::Error &error);
// In a catch (...) of a slot function written against the CPython API: sets the Python error
// the exception in flight stands for, as pybind11's dispatcher would (its translators: the
// engine's MemoryError, builtin exceptions, error_already_set, ...).
void setPythonError() noexcept;
PyObject *puzzleErrorType();
PyObject *runStoppedType();
// A MemoryError raised where the engine's own C++ allocation failed (std::bad_alloc).
PyObject *engineMemoryErrorType();

// Model objects for a run; the waiter type identifies what a suspended coroutine waits on.
py::object makeModel(const std::shared_ptr<Session> &session, int rank);
bool isWaiterOf(py::handle value, int rank);
void bindModel(py::module_ &module);

} // namespace rankstep::python
