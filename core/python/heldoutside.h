// SPDX-License-Identifier: MIT
// Internal to the Python runtime: what each rank's code holds outside its five storage
// dictionaries (docs/simulation.md, "Storage of a rank"). A rank's memory is what its storage
// holds, so an activation kept in a list instead is counted by no figure; the verdict must know
// of it, or keeping activations in a list would pass the checkpointing lesson without
// recomputing one (core/lessons/verdict.cpp).
//
// Kept as it changes, in O(1) per change: every puzzle object of a rank's run is a cell that
// knows its rank, its bytes, how many Python objects stand for it (the one an operation gave, and
// each one a storage dictionary handed out for it) and how many storage entries hold it. A cell
// that Python objects stand for and no entry holds is held outside. Code holds objects there in
// flight (a result on its way to a collective or the storage, a variable not reassigned yet, a
// gradient being summed); an object the code uses again (an argument, or stored) after it stayed
// outside over one of its rank's computations was kept there for later. The trace keeps the most
// a rank kept so at one computation (core::HeldOutside), found at the run's end from those
// intervals.
#pragma once

#include "session.h"

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace rankstep::python {

// In each puzzle object (pyobjects.cpp): the cell it stands for; 0 for none (an object made
// outside a run, or by hand). Moved, never copied: the cell counts each Python object once.
class HeldMark
{
public:
    HeldMark() = default;
    explicit HeldMark(std::uint32_t cell) : m_cell(cell) {}
    HeldMark(HeldMark &&other) noexcept : m_cell(std::exchange(other.m_cell, 0)) {}
    HeldMark &operator=(HeldMark &&other) noexcept
    {
        if (this != &other) {
            release();
            m_cell = std::exchange(other.m_cell, 0);
        }
        return *this;
    }
    HeldMark(const HeldMark &) = delete;
    HeldMark &operator=(const HeldMark &) = delete;
    ~HeldMark() { release(); }
    std::uint32_t cell() const { return m_cell; }

private:
    void release();
    std::uint32_t m_cell = 0;
};

// Starts counting for the run of `session` on `engine` (its ranks' storages); the puzzle objects
// of another run, or of none, are not counted.
void openHeldBook(const Session &session, const core::Engine &engine);
// Stops counting: the peak over every rank (bytes 0: none held anything outside at an
// operation). Lets go of what the storages of `engine` hold.
core::HeldOutside closeHeldBook(const core::Engine &engine);

// The mark of a new puzzle object of `holder` (an operation's result, a message received, a sum):
// held outside until stored. No cell when no run counts it.
HeldMark markMade(const core::Object &object, Holder holder);
// The mark of another Python object for the cell `note` (what a storage dictionary handed out).
HeldMark markHanded(std::uint32_t note);
// The cell of `value`, a puzzle object (0: none, or not a puzzle object). pyobjects.cpp.
std::uint32_t heldCellOf(py::handle value);

// After `map[key] = value` (a stored puzzle object of rank `rank`'s run `run`): the entry holds
// the cell of `value` instead of the one it held.
void noteStored(const core::Storage &storage, core::MapKind map, const core::Key &key,
                py::handle value, std::uint32_t run);
// Before `del map[key]`, the entry's note; after it, noteErased(that note).
void noteErased(std::uint32_t note);

// At an operation of `rank` whose puzzle-object arguments are `arguments` (lists, tuples and
// dicts of them too; null ones skipped): an argument the rank kept outside the storage over one
// of its computations (forward, backward and its halves, loss, update) was kept there for later.
// `computation`: this operation is one.
void noteOperation(const Session &session, int rank, std::initializer_list<PyObject *> arguments,
                   bool computation);

} // namespace rankstep::python
