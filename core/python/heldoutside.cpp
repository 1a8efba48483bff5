// SPDX-License-Identifier: MIT
#include "heldoutside.h"

#include <algorithm>
#include <array>
#include <vector>

namespace rankstep::python {
namespace {

// One puzzle object of a run. Cells live in one vector and are named by their place (a storage
// entry keeps the number in 32 bits, core/storage.h); a free cell links to the next free one.
struct Cell {
    std::int64_t bytes = 0;
    std::uint32_t objects = 0; // Python objects that stand for it
    std::uint32_t entries = 0; // storage entries that hold it
    std::uint32_t run = 0;
    std::int32_t rank = 0;
    core::ObjectKind kind = core::ObjectKind::Weight;
    std::uint32_t nextFree = 0;
    std::uint32_t since = 0; // its rank's computations done when it was last left outside
};

// An object kept outside the storage from one computation of its rank to a later one, and then
// used: outside while the rank made its computations [from, to).
struct Kept {
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    std::int64_t bytes = 0;
    core::ObjectKind kind = core::ObjectKind::Weight;
};
// Kept intervals a run records at most (a learner's loop could make them without end).
constexpr std::size_t kMostKept = std::size_t(1) << 20;

// Each rank: what it holds outside now, its computations so far (forward, backward and its
// halves, loss, update: one event each), and what it kept outside and used again.
struct Rank {
    std::int64_t bytes = 0;
    std::array<std::int32_t, core::kObjectKindCount> objects{};
    std::uint32_t computed = 0;
    std::vector<Kept> kept;
};

// The run being counted. Not per thread: a Python object dropped on a thread the code started
// still leaves its rank's sum (every change holds the GIL).
struct Book {
    std::uint32_t run = 0; // 0: no run is counted
    core::Sizes sizes;
    std::vector<Rank> ranks;
    std::size_t kept = 0; // intervals recorded, of every rank
};

std::vector<Cell> g_cells(1); // cell 0 is none
std::uint32_t g_free = 0;
Book g_book;

// The rank of `cell` in the book, or null when its run is not the one counted.
Rank *rankOf(const Cell &cell)
{
    if (cell.run != g_book.run || g_book.run == 0 || std::size_t(cell.rank) >= g_book.ranks.size())
        return nullptr;
    return &g_book.ranks[std::size_t(cell.rank)];
}

// Adds (sign 1) or takes away (-1) the cell from its rank's sum held outside.
void count(const Cell &cell, int sign)
{
    if (Rank *rank = rankOf(cell)) {
        rank->bytes += sign * cell.bytes;
        rank->objects[std::size_t(cell.kind)] += sign;
    }
}

bool outside(const Cell &cell)
{
    return cell.objects > 0 && cell.entries == 0;
}

void freeCell(std::uint32_t id)
{
    g_cells[id].nextFree = g_free;
    g_free = id;
}

void dropObject(std::uint32_t id)
{
    Cell &cell = g_cells[id];
    if (--cell.objects == 0) {
        if (cell.entries == 0) {
            count(cell, -1);
            freeCell(id);
        }
    }
}

void addEntry(std::uint32_t id)
{
    Cell &cell = g_cells[id];
    if (outside(cell))
        count(cell, -1);
    ++cell.entries;
}

void dropEntry(std::uint32_t id)
{
    Cell &cell = g_cells[id];
    if (--cell.entries != 0)
        return;
    if (cell.objects == 0) {
        freeCell(id);
        return;
    }
    count(cell, 1);
    if (const Rank *rank = rankOf(cell))
        cell.since = rank->computed;
}

// The cell, outside the storage, is used (an argument, or stored): when it stayed outside over
// a computation of its rank, the rank kept it there for later. From `next` on (the computation
// after this use) it is held again.
void noteUse(Cell &cell, Rank &rank, std::uint32_t next)
{
    if (!outside(cell))
        return;
    if (rank.computed > cell.since && g_book.kept < kMostKept) {
        rank.kept.push_back({cell.since, rank.computed, cell.bytes, cell.kind});
        ++g_book.kept;
    }
    cell.since = next;
}

// The most one rank kept outside at one of its computations: a sweep over its intervals.
struct Peak {
    std::int64_t bytes = 0;
    std::uint32_t at = 0; // the computation
    std::array<std::int32_t, core::kObjectKindCount> objects{};
};
Peak peakOf(const std::vector<Kept> &kept)
{
    struct Step {
        std::uint32_t at;
        int sign; // -1 (an end) before +1 (a start) at the same computation
        const Kept *interval;
    };
    std::vector<Step> steps;
    steps.reserve(2 * kept.size());
    for (const Kept &interval : kept) {
        steps.push_back({interval.from, 1, &interval});
        steps.push_back({interval.to, -1, &interval});
    }
    std::sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
        return a.at != b.at ? a.at < b.at : a.sign < b.sign;
    });
    Peak now, most;
    for (const Step &step : steps) {
        now.bytes += step.sign * step.interval->bytes;
        now.objects[std::size_t(step.interval->kind)] += step.sign;
        now.at = step.at;
        if (now.bytes > most.bytes)
            most = now;
    }
    return most;
}

bool isComputation(core::OpKind op)
{
    return op == core::OpKind::Forward || core::isBackward(op) || op == core::OpKind::Loss ||
           op == core::OpKind::Update;
}

// The distinct cells held outside among the arguments, at most this many (an operation takes
// at most six puzzle objects besides a message's).
constexpr int kMostArguments = 64;
struct Arguments {
    std::uint32_t cells[kMostArguments] = {};
    int count = 0;

    void add(std::uint32_t id)
    {
        if (id == 0 || !outside(g_cells[id]) || count == kMostArguments)
            return;
        for (int i = 0; i < count; ++i)
            if (cells[i] == id)
                return;
        cells[count++] = id;
    }
    // A puzzle object, or the puzzle objects in a list, tuple or dict (a message's value).
    void addValue(PyObject *value, int depth)
    {
        if (value == nullptr)
            return;
        if (const std::uint32_t id = heldCellOf(value)) {
            add(id);
            return;
        }
        if (depth == 0)
            return;
        if (PyList_Check(value) || PyTuple_Check(value)) {
            const Py_ssize_t size = PySequence_Fast_GET_SIZE(value);
            for (Py_ssize_t i = 0; i < size && count < kMostArguments; ++i)
                addValue(PySequence_Fast_GET_ITEM(value, i), depth - 1);
        } else if (PyDict_Check(value)) {
            Py_ssize_t at = 0;
            PyObject *key = nullptr, *item = nullptr;
            while (PyDict_Next(value, &at, &key, &item) && count < kMostArguments)
                addValue(item, depth - 1);
        }
    }
};

} // namespace

void HeldMark::release()
{
    if (m_cell != 0)
        dropObject(std::exchange(m_cell, 0));
}

void openHeldBook(const Session &session, const core::Engine &engine)
{
    g_book.run = session.run;
    g_book.sizes = engine.ranks() > 0 ? engine.storage(0).sizes() : core::Sizes{};
    g_book.ranks.assign(std::size_t(std::max(engine.ranks(), 0)), Rank{});
}

core::HeldOutside closeHeldBook(const core::Engine &engine)
{
    core::HeldOutside most;
    Peak peak;
    for (std::size_t r = 0; r < g_book.ranks.size(); ++r) {
        if (g_book.ranks[r].kept.empty())
            continue;
        const Peak rank = peakOf(g_book.ranks[r].kept);
        if (rank.bytes > peak.bytes) {
            peak = rank;
            most.rank = int(r);
        }
    }
    g_book = Book{};
    for (int rank = 0; rank < engine.ranks(); ++rank)
        engine.storage(rank).forEachNote([](std::uint32_t note) { dropEntry(note); });
    if (peak.bytes == 0)
        return most;
    most.bytes = peak.bytes;
    most.objects = peak.objects;
    // The computation's event: its line, and the rank's memory then.
    std::uint32_t seen = 0;
    for (const core::Event &event : engine.trace().events) {
        if (event.rank != most.rank || !isComputation(event.op))
            continue;
        if (seen++ == peak.at) {
            most.line = event.line;
            most.memory = event.memory;
            break;
        }
    }
    return most;
}

HeldMark markMade(const core::Object &object, Holder holder)
{
    if (holder.run != g_book.run || g_book.run == 0 || holder.handMade || holder.rank < 0 ||
        std::size_t(holder.rank) >= g_book.ranks.size())
        return {};
    std::uint32_t id = g_free;
    if (id != 0) {
        g_free = g_cells[id].nextFree;
    } else {
        id = std::uint32_t(g_cells.size());
        g_cells.emplace_back();
    }
    Cell &cell = g_cells[id];
    cell = Cell{core::memoryOf(object, g_book.sizes),
                1,
                0,
                holder.run,
                holder.rank,
                object.kind,
                0,
                g_book.ranks[std::size_t(holder.rank)].computed};
    count(cell, 1);
    return HeldMark(id);
}

HeldMark markHanded(std::uint32_t note)
{
    if (note == 0)
        return {};
    ++g_cells[note].objects; // held by an entry: not outside, before or after
    return HeldMark(note);
}

void noteStored(const core::Storage &storage, core::MapKind map, const core::Key &key,
                py::handle value, std::uint32_t run)
{
    if (run != g_book.run || g_book.run == 0)
        return;
    const std::uint32_t id = heldCellOf(value);
    if (id != 0) {
        if (Rank *rank = rankOf(g_cells[id]))
            noteUse(g_cells[id], *rank, rank->computed); // kept outside, then stored back
        addEntry(id); // first: the same cell stored again under its key stays held
    }
    if (const std::uint32_t old = storage.swapNote(map, key, id))
        dropEntry(old);
}

void noteErased(std::uint32_t note)
{
    if (note != 0)
        dropEntry(note);
}

void noteOperation(const Session &session, int rank, std::initializer_list<PyObject *> arguments,
                   bool computation)
{
    if (session.run != g_book.run || g_book.run == 0 || rank < 0 ||
        std::size_t(rank) >= g_book.ranks.size())
        return;
    Rank &held = g_book.ranks[std::size_t(rank)];
    if (held.bytes > 0) { // else no argument is outside
        Arguments given;
        for (PyObject *argument : arguments)
            given.addValue(argument, 3);
        for (int i = 0; i < given.count; ++i)
            if (Cell &cell = g_cells[given.cells[i]]; cell.rank == rank)
                noteUse(cell, held, held.computed + (computation ? 1 : 0));
    }
    if (computation)
        ++held.computed;
}

} // namespace rankstep::python
