// SPDX-License-Identifier: MIT
// The puzzle objects (Weight, OptState, Activation, ActivationGrad, WeightGrad) as Python classes
// with the notebook's constructors, and the `_rankstep` module that lib.py re-exports.
#include "core/algebra.h"
#include "core/attention.h"
#include "fastinstance.h"
#include "heldoutside.h"
#include "outputcapture.h"
#include "session.h"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <type_traits>

namespace rankstep::python {
namespace {

struct PyPuzzle {
    core::Object object;
    Holder holder;      // docs/simulation.md, "An object belongs to a rank"
    HeldMark mark = {}; // docs/simulation.md, "Storage of a rank": held outside the storage?
};
struct PyWeight : PyPuzzle {};
struct PyOptState : PyPuzzle {};
struct PyActivation : PyPuzzle {};
struct PyActivationGrad : PyPuzzle {};
struct PyWeightGrad : PyPuzzle {};
struct PyKeysValues : PyPuzzle {}; // docs/simulation.md, "Context parallelism"

// pybind11 finds a C++ type's Python type by its typeid on every conversion; the puzzle types are
// looked up once, when the module is made. Each puzzle type's PyPuzzle is its first and only
// base, at the address of the whole value.
static_assert(std::is_standard_layout_v<PyWeight> && std::is_standard_layout_v<PyOptState> &&
              std::is_standard_layout_v<PyActivation> &&
              std::is_standard_layout_v<PyActivationGrad> &&
              std::is_standard_layout_v<PyWeightGrad> && std::is_standard_layout_v<PyKeysValues>);
PyTypeObject *g_puzzleType = nullptr;

template <typename T>
py::object castPuzzle(T value)
{
    return FastInstance<T>::make(std::move(value));
}

template <typename T>
void rememberType()
{
    FastInstance<T>::install();
}

PyObject *g_puzzleError = nullptr;
PyObject *g_runStopped = nullptr;
PyObject *g_engineMemoryError = nullptr;
thread_local Session *g_active = nullptr;
// The session of the run going on in this interpreter, whichever thread runs it: a thread the
// learner's code started has no g_active of its own, and must not act as code outside any run.
std::atomic<Session *> g_running = nullptr;

constexpr int kLargestIndex = 1 << 20;

py::frozenset toFrozenSet(const core::IndexSet &set)
{
    py::set out;
    set.forEach([&](int i) { out.add(py::int_(i)); });
    return py::frozenset(out);
}

core::Object makeObject(core::ObjectKind kind, int layer, int layers)
{
    core::Object object;
    object.kind = kind;
    object.layer = layer;
    object.layers = layers;
    object.shards = core::IndexSet{0};
    return object;
}

// The line of the learner's code running now, for an error raised outside an engine call.
int currentLine()
{
    const Session *session = activeSession();
    return session ? learnerLine(session->fileName) : 0;
}

// docs/simulation.md, "An object belongs to a rank": what a rank may do with an object instead.
const char *hintFor(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::WeightGrad:
            return "send it (pass_to) or reduce it (allreduce, scatterreduce) first";
        case core::ObjectKind::Weight:
        case core::ObjectKind::OptState:
            return "send it (pass_to) or gather it (allgather) first";
        default:
            return "send it (pass_to) first";
    }
}

[[noreturn]] void refuseForeign(const PyPuzzle &puzzle, const char *what, Holder acting)
{
    const core::Object &object = puzzle.object;
    const std::string rank = "rank " + std::to_string(acting.rank);
    const std::string kind =
        std::string(core::kindWords(object.kind)) + " for layer " + std::to_string(object.layer);
    std::string message;
    if (puzzle.holder.run != acting.run)
        message = rank + " used a " + kind + " in " + what +
                  " that was made outside this run (by an earlier run, or by a Dist of its "
                  "own): a rank works only with what its code made or received in this run";
    else
        message = rank + " used rank " + std::to_string(puzzle.holder.rank) + "'s " + kind +
                  " in " + what + " without receiving it: ranks do not share memory; " +
                  hintFor(object.kind);
    raiseError(core::Error(core::ErrorKind::Check, acting.rank, currentLine(), message));
}

[[noreturn]] void refuseHandMade(const PyPuzzle &puzzle, const char *what, Holder acting)
{
    const core::Object &object = puzzle.object;
    const std::string kind = core::kindWords(object.kind);
    const std::string a = kind.find_first_of("aeiou") == 0 ? "an " : "a ";
    raiseError(core::Error(
        core::ErrorKind::Check, acting.rank, currentLine(),
        "rank " + std::to_string(acting.rank) + " used " + a + kind + " for layer " +
            std::to_string(object.layer) + " in " + what + " that was made by hand (" + a + kind +
            " built by its constructor, or from one): in a run, puzzle objects come from the "
            "model (load_weights, get_activation, forward, backward, fake_grad, the collectives, "
            "receive), so that each stands for work a rank did"));
}

Holder handMadeHolder()
{
    Holder holder = actingHolder();
    holder.handMade = true;
    return holder;
}

const PyPuzzle &puzzleOf(py::handle value)
{
    if (const void *held = heldValue(value.ptr()))
        return *static_cast<const PyPuzzle *>(held);
    refuseUninitialized(value.ptr());
    return value.cast<const PyPuzzle &>();
}

core::Object unwrapOrRaise(core::Result<core::Object> result)
{
    if (!result)
        raiseError(result.error());
    return std::move(*result);
}

// `self` of a puzzle object's method: pybind11 no longer checks its type (the methods take a
// handle), so a method taken from the class and called on anything else raises here.
const core::Object &selfObject(py::handle self)
{
    return requirePuzzleObject(self, "a puzzle object's method");
}

py::object add(py::handle self, py::handle b)
{
    if (!isPuzzleObject(b))
        throw py::type_error("+ adds a WeightGrad to a WeightGrad");
    const Holder me = actingHolder();
    const core::Object &a = ownPuzzleObject(self, "a sum", me);
    const core::Object &other = ownPuzzleObject(b, "a sum", me);
    if (Session *session = activeSession(); session && session->engine && me.rank >= 0)
        return wrapObject(unwrapOrRaise(session->engine->add(
                              core::CallSite{me.rank, learnerLine(session->fileName)}, a, other)),
                          me);
    // Outside a run (a run refused them above): a sum of hand-made gradients is made by hand.
    Holder out = me;
    out.handMade = puzzleOf(self).holder.handMade || puzzleOf(b).holder.handMade;
    core::IndexSet overlap;
    core::Object sum = unwrapOrRaise(core::addGradients(a, other, &overlap));
    if (!overlap.empty())
        PyErr_WarnEx(PyExc_RuntimeWarning,
                     ("both gradients already cover " + describeSet(overlap, "batch", "batches") +
                      ", so the sum counts " + (overlap.size() == 1 ? "it" : "them") + " twice")
                         .c_str(),
                     1);
    return wrapObject(sum, out);
}

template <typename T>
void addShardedApi(py::class_<T, PyPuzzle> &cls)
{
    cls.def_property_readonly("shards",
                              [](py::handle self) { return toFrozenSet(selfObject(self).shards); })
        .def_property_readonly("total", [](py::handle self) { return selfObject(self).total; })
        .def_property_readonly("expert",
                               [](py::handle self) -> py::object {
                                   const int expert = selfObject(self).expert;
                                   if (expert < 0)
                                       return py::none(); // a dense layer's
                                   return py::int_(expert);
                               })
        .def("combine",
             [](py::handle self, py::handle other) {
                 const Holder me = actingHolder();
                 selfObject(self);
                 const core::Object &a = ownPuzzleObject(self, "combine", me);
                 const core::Object &b = ownPuzzleObject(other, "combine", me);
                 Holder out = me; // made by hand from what was
                 out.handMade = puzzleOf(self).holder.handMade || puzzleOf(other).holder.handMade;
                 return wrapObject(unwrapOrRaise(core::combine(a, b)), out);
             })
        .def(
            "shard",
            [](py::handle self, int index, int total) {
                const Holder me = actingHolder();
                selfObject(self);
                const core::Object &whole = ownPuzzleObject(self, "shard", me);
                Holder out = me; // made by hand from what was
                out.handMade = puzzleOf(self).holder.handMade;
                return wrapObject(unwrapOrRaise(core::shard(whole, index, total)), out);
            },
            py::arg("shard"), py::arg("total"));
}

template <typename T>
void addBatchApi(py::class_<T, PyPuzzle> &cls)
{
    cls.def_property_readonly("batches",
                              [](py::handle self) { return toFrozenSet(selfObject(self).batches); })
        .def_property_readonly("total_batches",
                               [](py::handle self) { return selfObject(self).totalBatches; });
}

// An activation's (gradient's) sequence shards: {} of 1 when it holds the whole sequence.
template <typename T>
void addSequenceApi(py::class_<T, PyPuzzle> &cls)
{
    cls.def_property_readonly("shards",
                              [](py::handle self) { return toFrozenSet(selfObject(self).shards); })
        .def_property_readonly("total", [](py::handle self) { return selfObject(self).total; })
        .def(
            "shard",
            [](py::handle self, int index, int total) {
                const Holder me = actingHolder();
                selfObject(self);
                const core::Object &whole = ownPuzzleObject(self, "shard", me);
                Holder out = me; // made by hand from what was
                out.handMade = puzzleOf(self).holder.handMade;
                return wrapObject(unwrapOrRaise(core::shard(whole, index, total)), out);
            },
            py::arg("shard"), py::arg("total"));
}

// An activation's or activation gradient's tokens for one destination: what alltoall sends each
// rank (docs/simulation.md, "Expert parallelism").
template <typename T>
void addPickApi(py::class_<T, PyPuzzle> &cls)
{
    cls.def(
        "pick",
        [](py::handle self, py::handle batches) {
            const Holder me = actingHolder();
            selfObject(self);
            const core::Object &object = ownPuzzleObject(self, "pick", me);
            const core::IndexSet chosen = toIndexSet(batches, "pick(batches): batches");
            if (!chosen.isSubsetOf(object.batches))
                throw py::value_error(
                    "pick(batches): this " + std::string(core::kindWords(object.kind)) + " holds " +
                    core::describeSet(object.batches, "batch", "batches") + ", not " +
                    core::describeSet(chosen.minus(object.batches), "batch", "batches"));
            core::Object piece = object;
            piece.batches = chosen;
            Holder out = me; // made by hand from what was
            out.handMade = puzzleOf(self).holder.handMade;
            return wrapObject(piece, out);
        },
        py::arg("batches"), "The same object on only these of its batches (a piece for alltoall)");
}

void bindObjects(py::module_ &m)
{
    py::class_<PyPuzzle>(m, "PuzzleObject", "Base of the five puzzle object kinds.")
        .def_property_readonly("layer", [](py::handle self) { return selfObject(self).layer; })
        .def_property_readonly("layers", [](py::handle self) { return selfObject(self).layers; })
        .def("is_complete", [](py::handle self) { return selfObject(self).isComplete(); })
        // Tensor and sequence parallelism (docs/simulation.md).
        .def_property_readonly("partial", [](py::handle self) { return selfObject(self).partial; })
        .def_property_readonly("block", [](py::handle self) { return int(selfObject(self).block); })
        .def_property_readonly("split",
                               [](py::handle self) -> py::object {
                                   if (selfObject(self).slice)
                                       return py::str("tensor");
                                   return py::none();
                               })
        // Context parallelism: the sequence chunks an activation, its gradient or keys and values
        // hold (empty: the whole sequence).
        .def_property_readonly(
            "chunks",
            [](py::handle self) {
                const core::Object &object = selfObject(self);
                return toFrozenSet(object.context && core::hasBatches(object.kind)
                                       ? object.shards
                                       : core::IndexSet{});
            })
        // Blockwise attention: the chunks an unfinished output has seen (empty: none left out).
        .def_property_readonly(
            "attended",
            [](py::handle self) { return toFrozenSet(core::attendedChunks(selfObject(self))); })
        .def("memory", [](py::handle self) { return core::memoryOf(selfObject(self), {}); })
        .def("__repr__", [](py::handle self) { return core::describe(selfObject(self)); })
        .def("__eq__", [](py::handle self, py::handle other) {
            return isPuzzleObject(other) && puzzleObject(other) == selfObject(self);
        });

    auto weightInit = [](core::ObjectKind kind) {
        return [kind](int layer, int layers, int step, py::object shards, int total) {
            core::Object object = makeObject(kind, layer, layers);
            object.step = step;
            if (!shards.is_none())
                object.shards = toIndexSet(shards, "shards");
            object.total = total;
            return object;
        };
    };
    py::class_<PyWeight, PyPuzzle> weight(m, "Weight");
    weight
        .def(py::init([=](int l, int ls, int s, py::object sh, int t) {
                 return PyWeight{
                     {weightInit(core::ObjectKind::Weight)(l, ls, s, sh, t), handMadeHolder()}};
             }),
             py::arg("layer"), py::arg("layers"), py::arg("step"), py::arg("shards") = py::none(),
             py::arg("total") = 1)
        .def_property_readonly("step", [](py::handle self) { return selfObject(self).step; });
    addShardedApi(weight);
    py::class_<PyOptState, PyPuzzle> opt(m, "OptState");
    opt.def(py::init([=](int l, int ls, int s, py::object sh, int t) {
                return PyOptState{
                    {weightInit(core::ObjectKind::OptState)(l, ls, s, sh, t), handMadeHolder()}};
            }),
            py::arg("layer"), py::arg("layers"), py::arg("step"), py::arg("shards") = py::none(),
            py::arg("total") = 1)
        .def_property_readonly("step", [](py::handle self) { return selfObject(self).step; });
    addShardedApi(opt);

    auto activationInit = [](core::ObjectKind kind, int layer, int layers, py::handle batches,
                             int totalBatches) {
        core::Object object = makeObject(kind, layer, layers);
        object.batches = toIndexSet(batches, "batches");
        object.totalBatches = totalBatches;
        return object;
    };
    py::class_<PyActivation, PyPuzzle> activation(m, "Activation");
    activation.def(
        py::init([=](int l, int ls, py::object b, int tb) {
            return PyActivation{
                {activationInit(core::ObjectKind::Activation, l, ls, b, tb), handMadeHolder()}};
        }),
        py::arg("layer"), py::arg("layers"), py::arg("batches"), py::arg("total_batches"));
    addBatchApi(activation);
    addSequenceApi(activation);
    addPickApi(activation);
    py::class_<PyActivationGrad, PyPuzzle> activationGrad(m, "ActivationGrad");
    activationGrad.def(
        py::init([=](int l, int ls, py::object b, int tb) {
            return PyActivationGrad{
                {activationInit(core::ObjectKind::ActivationGrad, l, ls, b, tb), handMadeHolder()}};
        }),
        py::arg("layer"), py::arg("layers"), py::arg("batches"), py::arg("total_batches"));
    addBatchApi(activationGrad);
    addSequenceApi(activationGrad);
    addPickApi(activationGrad);

    py::class_<PyWeightGrad, PyPuzzle> weightGrad(m, "WeightGrad");
    weightGrad
        .def(py::init([=](int l, int ls, py::object b, int tb, py::object sh, int t) {
                 core::Object object = activationInit(core::ObjectKind::WeightGrad, l, ls, b, tb);
                 if (!sh.is_none())
                     object.shards = toIndexSet(sh, "shards");
                 object.total = t;
                 return PyWeightGrad{{object, handMadeHolder()}};
             }),
             py::arg("layer"), py::arg("layers"), py::arg("batches"), py::arg("total_batches"),
             py::arg("shards") = py::none(), py::arg("total") = 1)
        .def("__add__",
             [](py::handle self, py::handle other) {
                 selfObject(self);
                 return add(self, other);
             })
        .def("__radd__", [](py::handle self, py::handle other) -> py::object {
            selfObject(self);
            if (py::isinstance<py::int_>(other) && other.cast<long long>() == 0) {
                const Holder me = actingHolder(); // sum(gradients) starts from 0
                Holder out = me;                  // a hand-made gradient's sum is made by hand
                out.handMade = puzzleOf(self).holder.handMade;
                return wrapObject(ownPuzzleObject(self, "a sum", me), out);
            }
            return add(self, other);
        });
    addBatchApi(weightGrad);
    addShardedApi(weightGrad);
    // Made only by model.keys_values (no constructor): keys and values stand for a forward's work.
    py::class_<PyKeysValues, PyPuzzle> keysValues(m, "KeysValues");
    addBatchApi(keysValues);

    g_puzzleType = reinterpret_cast<PyTypeObject *>(py::type::of<PyPuzzle>().ptr());
    rememberType<PyWeight>();
    rememberType<PyOptState>();
    rememberType<PyActivation>();
    rememberType<PyActivationGrad>();
    rememberType<PyWeightGrad>();
    rememberType<PyKeysValues>();
}

} // namespace

Session::Session()
{
    static std::uint32_t made = 0;
    run = ++made;
}

// Each rank's code runs on the thread that runs the engine. Code on any other thread while a
// run is going (a threading.Thread the learner's code started) would act for no rank: what it
// made would pass as made outside any run, every rank's to use, and a hand-made object or another
// rank's would come out of it clean.
static void refuseOtherThreads()
{
    const Session *running = g_running.load(std::memory_order_relaxed);
    if (g_active || !running) [[likely]]
        return;
    raiseError(core::Error(
        core::ErrorKind::Check, -1, learnerLine(running->fileName),
        "a thread the code started used the puzzle API during the run: only the ranks' own code "
        "may make, use or store puzzle objects and call the model, each rank on the thread that "
        "runs it (a thread would act for no rank, so what it made would belong to none)"));
}

Holder actingHolder()
{
    if (const Session *session = g_active; session && session->engine) {
        const int rank = session->engine->currentRank();
        if (rank >= 0)
            return {rank, session->run};
    }
    refuseOtherThreads();
    return {};
}

void refuseOtherRanks(const Session &session, int owner, const char *what)
{
    refuseOtherThreads();
    if (!session.engine || session.standalone)
        return;
    const int rank = session.engine->currentRank();
    if (rank < 0 || rank == owner)
        return;
    raiseError(core::Error(core::ErrorKind::Check, rank, learnerLine(session.fileName),
                           "rank " + std::to_string(rank) + " used rank " + std::to_string(owner) +
                               "'s " + what +
                               ": ranks do not share memory; each rank works with the model "
                               "it was given, its own storage and its own calls"));
}

Session *activeSession()
{
    return g_active;
}

void setActiveSession(Session *session)
{
    // A standalone Dist's session is no run: code on other threads may use it as before.
    if (session && session->engine && !session->standalone)
        g_running.store(session, std::memory_order_relaxed);
    else if (!session && g_active == g_running.load(std::memory_order_relaxed))
        g_running.store(nullptr, std::memory_order_relaxed);
    g_active = session;
    clearLineCache();
}

PyObject *puzzleErrorType()
{
    return g_puzzleError;
}

PyObject *runStoppedType()
{
    return g_runStopped;
}

PyObject *engineMemoryErrorType()
{
    return g_engineMemoryError;
}

bool madeByNewAlone(PyObject *instance)
{
    const auto *held = reinterpret_cast<const py::detail::instance *>(instance);
    return held->simple_layout && !held->simple_holder_constructed;
}

void refuseUninitialized(PyObject *instance)
{
    if (!madeByNewAlone(instance))
        return;
    const std::string name = py::str(py::handle(instance).get_type().attr("__name__"));
    throw py::type_error("this " + name + " was made by " + name +
                         ".__new__ and never initialized; make one with " + name + "(...)");
}

const void *heldValue(PyObject *instance)
{
    const auto *held = reinterpret_cast<const py::detail::instance *>(instance);
    if (held->simple_layout && held->simple_holder_constructed)
        return held->simple_value_holder[0];
    return nullptr;
}

namespace {

py::object wrapMarked(const core::Object &object, Holder holder, HeldMark mark)
{
    switch (object.kind) {
        case core::ObjectKind::Weight:
            return castPuzzle(PyWeight{{object, holder, std::move(mark)}});
        case core::ObjectKind::OptState:
            return castPuzzle(PyOptState{{object, holder, std::move(mark)}});
        case core::ObjectKind::Activation:
            return castPuzzle(PyActivation{{object, holder, std::move(mark)}});
        case core::ObjectKind::ActivationGrad:
            return castPuzzle(PyActivationGrad{{object, holder, std::move(mark)}});
        case core::ObjectKind::WeightGrad:
            return castPuzzle(PyWeightGrad{{object, holder, std::move(mark)}});
        case core::ObjectKind::KeysValues:
            return castPuzzle(PyKeysValues{{object, holder, std::move(mark)}});
    }
    return py::none();
}

} // namespace

py::object wrapObject(const core::Object &object, Holder holder)
{
    return wrapMarked(object, holder, markMade(object, holder));
}

py::object wrapStored(const core::Object &object, Holder holder, std::uint32_t note)
{
    return wrapMarked(object, holder, markHanded(note));
}

std::uint32_t heldCellOf(py::handle value)
{
    if (!isPuzzleObject(value))
        return 0;
    const void *held = heldValue(value.ptr());
    return held ? static_cast<const PyPuzzle *>(held)->mark.cell() : 0;
}

bool isPuzzleObject(py::handle value)
{
    if (g_puzzleType)
        return PyObject_TypeCheck(value.ptr(), g_puzzleType) != 0;
    return py::isinstance<PyPuzzle>(value);
}

const core::Object &puzzleObject(py::handle value)
{
    return puzzleOf(value).object;
}

const core::Object &requirePuzzleObject(py::handle value, const char *what)
{
    if (!isPuzzleObject(value))
        throw py::type_error(std::string(what) +
                             " takes puzzle objects (Weight, OptState, Activation, "
                             "ActivationGrad, WeightGrad), not " +
                             std::string(Py_TYPE(value.ptr())->tp_name));
    return puzzleObject(value);
}

const core::Object &ownPuzzleObject(py::handle value, const char *what, Holder acting)
{
    const core::Object &object = requirePuzzleObject(value, what);
    const PyPuzzle &puzzle = puzzleOf(value);
    if (acting.rank >= 0 && puzzle.holder.handMade) [[unlikely]]
        refuseHandMade(puzzle, what, acting);
    if (acting.rank >= 0 && puzzle.holder.rank >= 0 &&
        (puzzle.holder.rank != acting.rank || puzzle.holder.run != acting.run)) [[unlikely]]
        refuseForeign(puzzle, what, acting);
    return object;
}

py::object wrapPayload(core::Payload payload, Holder receiver)
{
    if (auto *object = std::get_if<core::Object>(&payload))
        return wrapObject(*object, receiver);
    if (auto *foreign = std::get_if<core::Foreign>(&payload))
        return carryMessage(
            py::reinterpret_borrow<py::object>(static_cast<PyObject *>(foreign->handle.get())),
            receiver, nullptr);
    return py::none();
}

core::Payload toPayload(py::handle value, Holder sender, const char *what)
{
    if (isPuzzleObject(value))
        return ownPuzzleObject(value, what, sender);
    if (value.is_none())
        return std::monostate{};
    py::object carried = carryMessage(py::reinterpret_borrow<py::object>(value), sender, what);
    std::string description = py::repr(carried).cast<std::string>();
    if (description.size() > 200) // only messages quote it ("... not on [1, 2, 3, ...]")
        description = description.substr(0, 200) + "...";
    PyObject *raw = carried.release().ptr();
    std::shared_ptr<void> handle(raw, [](void *p) {
        PyGILState_STATE state = PyGILState_Ensure();
        Py_DECREF(static_cast<PyObject *>(p));
        PyGILState_Release(state);
    });
    return core::Foreign{std::move(description), std::move(handle)};
}

core::IndexSet toIndexSet(py::handle iterable, const char *what)
{
    core::IndexSet set;
    if (py::isinstance<py::int_>(iterable))
        throw py::type_error(std::string(what) +
                             " must be a collection of ints such as {2, 3} "
                             "or range(4), not a single int");
    for (py::handle item : py::iter(iterable)) {
        const long long index =
            py::int_(py::reinterpret_borrow<py::object>(item)).cast<long long>();
        if (index < 0 || index > kLargestIndex)
            throw py::value_error(std::string(what) + " are numbered from 0; got " +
                                  std::to_string(index));
        set.insert(int(index));
    }
    return set;
}

void setPythonError() noexcept
{
    try {
        if (py::detail::apply_exception_translators(
                py::detail::get_local_internals().registered_exception_translators) ||
            py::detail::apply_exception_translators(
                py::detail::get_internals().registered_exception_translators))
            return;
    } catch (...) {
    }
    PyErr_SetString(PyExc_SystemError, "an exception escaped Rankstep's exception translators");
}

void raiseError(const core::Error &error)
{
    const bool runOver = error.kind == core::ErrorKind::Deadlock ||
                         error.kind == core::ErrorKind::Mismatch ||
                         error.kind == core::ErrorKind::Stopped;
    PyObject *type = runOver ? g_runStopped : g_puzzleError;
    py::object instance =
        py::reinterpret_steal<py::object>(PyObject_CallOneArg(type, py::str(error.message).ptr()));
    if (!instance)
        throw py::error_already_set();
    instance.attr("kind") = core::errorKindName(error.kind);
    instance.attr("rank") = error.rank;
    instance.attr("line") = error.line;
    PyErr_SetObject(type, instance.ptr());
    throw py::error_already_set();
}

} // namespace rankstep::python

namespace py = pybind11;

PYBIND11_EMBEDDED_MODULE(_rankstep, m)
{
    using namespace rankstep::python;
    m.doc() = "Rankstep's simulated training world (use it through `lib`).";
    g_puzzleError = PyErr_NewExceptionWithDoc(
        "rankstep.PuzzleError",
        "A puzzle rule was broken (wrong layer, missing batches, incomplete weight, ...).",
        PyExc_AssertionError, nullptr);
    g_runStopped = PyErr_NewExceptionWithDoc(
        "rankstep.RunStopped",
        "The run is over (deadlock, collective mismatch, time limit or stop request).",
        PyExc_BaseException, nullptr);
    // The engine's own allocations (storage, bitsets of batches) failing: the run's size is to
    // blame, not the line that asked for one more object.
    g_engineMemoryError = PyErr_NewExceptionWithDoc(
        "rankstep.EngineMemoryError", "The simulated world outgrew the memory a run may use.",
        PyExc_MemoryError, nullptr);
    py::register_exception_translator([](std::exception_ptr failure) {
        try {
            if (failure)
                std::rethrow_exception(failure);
        } catch (const std::bad_alloc &) {
            PyErr_SetString(g_engineMemoryError, "the simulation ran out of memory");
        }
    });
    m.attr("PuzzleError") = py::handle(g_puzzleError);
    m.attr("RunStopped") = py::handle(g_runStopped);
    const rankstep::core::Sizes sizes;
    m.attr("HIDDEN") = sizes.hidden;
    m.attr("LENGTH") = sizes.length;
    bindObjects(m);
    bindModel(m);
    bindOutputCapture(m);
}
