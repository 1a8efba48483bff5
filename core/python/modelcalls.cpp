// SPDX-License-Identifier: MIT
// Model's hottest methods as CPython methods of the vectorcall kind (METH_FASTCALL): a large run
// makes millions of these calls, and pybind11's dispatcher built two vectors, tried each
// argument's converter and looked the overloads up for every one of them. The arguments are the
// pybind11 methods' (same names, defaults and keywords); a wrong one gets a sentence that names
// the method's signature instead of pybind11's "incompatible function arguments".
#include "core/sentences.h"
#include "core/terminaltext.h"
#include "heldoutside.h"
#include "pymodel.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::python {
namespace {

using core::OpKind;

// A method's parameters: their names, and how many of the first ones are required.
struct Signature {
    const char *method;   // "forward"
    const char *shown;    // "forward(layer, inp, weight)"
    const char *names[6]; // parameter names, null after the last
    int required;         // the rest have defaults
};

int parameterCount(const Signature &sig)
{
    int count = 0;
    while (count < 6 && sig.names[count])
        ++count;
    return count;
}

[[noreturn]] void wrongCall(const Signature &sig, const std::string &why)
{
    throw py::type_error(std::string(sig.shown) + ": " + why);
}

// Puts each argument, given by position or by keyword, at its parameter's place in `out`
// (borrowed; null for a parameter left to its default).
void bindArguments(const Signature &sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   PyObject **out)
{
    const int count = parameterCount(sig);
    if (nargs > count)
        wrongCall(sig, "takes " + std::to_string(count) + " arguments, " + std::to_string(nargs) +
                           " were given");
    for (int i = 0; i < count; ++i)
        out[i] = i < nargs ? args[i] : nullptr;
    const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < keywords; ++k) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int at = -1;
        for (int i = 0; i < count && at < 0; ++i)
            if (PyUnicode_CompareWithASCIIString(name, sig.names[i]) == 0)
                at = i;
        if (at < 0)
            wrongCall(sig,
                      "there is no argument named '" + py::str(name).cast<std::string>() + "'");
        if (out[at])
            wrongCall(sig, std::string("'") + sig.names[at] + "' is given twice");
        out[at] = args[nargs + k];
    }
    for (int i = 0; i < sig.required; ++i) {
        if (out[i])
            continue;
        const std::string missing = std::string("'") + sig.names[i] + "' is missing";
        if (keywords > 0) // given by name: the name left out is the news
            wrongCall(sig, missing);
        // By position, the count is ("forward(a, w)" forgot the layer, not the weight).
        wrongCall(sig, "takes " + std::to_string(sig.required) +
                           (sig.required < count ? " to " + std::to_string(count) : "") +
                           " arguments, " + std::to_string(nargs) + " were given (" + missing +
                           ")");
    }
}

// An int argument: an int (or what has __index__, as numpy's ints) that fits.
int intArgument(const Signature &sig, const char *name, PyObject *value)
{
    if (PyFloat_Check(value) || !PyIndex_Check(value))
        wrongCall(sig,
                  std::string(name) + " must be a whole number, not " + Py_TYPE(value)->tp_name);
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value));
    if (!index)
        throw py::error_already_set();
    int overflow = 0;
    const long result = PyLong_AsLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0 || result < INT_MIN || result > INT_MAX)
        wrongCall(sig, std::string(name) + " is too large: " + py::repr(value).cast<std::string>());
    return int(result);
}

template <std::size_t N>
struct Bound {
    PyObject *at[N] = {};
};

template <std::size_t N>
Bound<N> bound(const Signature &sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Bound<N> b;
    bindArguments(sig, args, nargs, kwnames, b.at);
    return b;
}

// Runs a method's body, turning a C++ exception into the Python error it stands for.
template <typename Body>
PyObject *guarded(Body &&body) noexcept
{
    try {
        return body().release().ptr();
    } catch (...) {
        setPythonError();
        return nullptr;
    }
}

// kv: on a context chunk, chunks' keys and values (docs/simulation.md, "Context parallelism");
// so_far: the output of an unfinished attention on the chunk, continued with kv's chunks.
constexpr Signature kForward{"forward",
                             "forward(layer, inp, weight, kv=None, so_far=None)",
                             {"layer", "inp", "weight", "kv", "so_far"},
                             3};
constexpr Signature kBackward{"backward",
                              "backward(layer, inp, grad, weight, kv=None, so_far=None)",
                              {"layer", "inp", "grad", "weight", "kv", "so_far"},
                              4};
constexpr Signature kKeysValues{
    "keys_values", "keys_values(layer, inp, weight)", {"layer", "inp", "weight"}, 3};
constexpr Signature kBackwardInput{"backward_input",
                                   "backward_input(layer, inp, grad, weight)",
                                   {"layer", "inp", "grad", "weight"},
                                   4};
constexpr Signature kBackwardWeight{"backward_weight",
                                    "backward_weight(layer, inp, grad, weight=None)",
                                    {"layer", "inp", "grad", "weight"},
                                    3};
constexpr Signature kLoss{"loss", "loss(inp)", {"inp"}, 1};
constexpr Signature kUpdate{"update",
                            "update(layer, weight_grad, weight, opt_state)",
                            {"layer", "weight_grad", "weight", "opt_state"},
                            4};
constexpr Signature kLoadWeights{"load_weights",
                                 "load_weights(layer, shard=0, total=1, split=None, expert=None)",
                                 {"layer", "shard", "total", "split", "expert"},
                                 1};
constexpr Signature kAllReduce{
    "allreduce", "allreduce(value, layer, group=None)", {"value", "layer", "group"}, 2};
constexpr Signature kAllGather{
    "allgather", "allgather(value, layer, group=None)", {"value", "layer", "group"}, 2};
constexpr Signature kScatterReduce{
    "scatterreduce", "scatterreduce(value, layer, group=None)", {"value", "layer", "group"}, 2};
// One piece (or None) per member of the group, in the order of its ranks (docs/simulation.md,
// "Expert parallelism").
constexpr Signature kAllToAll{
    "alltoall", "alltoall(pieces, layer, group=None)", {"pieces", "layer", "group"}, 2};
// The non-blocking forms (docs/simulation.md "Overlapped communication"): h = ..._start(...),
// later `await h`.
constexpr Signature kAllReduceStart{
    "allreduce_start", "allreduce_start(value, layer, group=None)", {"value", "layer", "group"}, 2};
constexpr Signature kAllGatherStart{
    "allgather_start", "allgather_start(value, layer, group=None)", {"value", "layer", "group"}, 2};
constexpr Signature kScatterReduceStart{"scatterreduce_start",
                                        "scatterreduce_start(value, layer, group=None)",
                                        {"value", "layer", "group"},
                                        2};
constexpr Signature kAllToAllStart{
    "alltoall_start", "alltoall_start(pieces, layer, group=None)", {"pieces", "layer", "group"}, 2};

// kv=[...]: a list (or tuple) of this rank's puzzle objects, copied; None: no keys and values.
std::optional<std::vector<core::Object>> keysValuesArgument(const Signature &sig, PyObject *value,
                                                            Holder me)
{
    if (!value || value == Py_None)
        return std::nullopt;
    if (!PyList_Check(value) && !PyTuple_Check(value))
        wrongCall(sig, std::string("kv must be a list of keys and values (model.keys_values), "
                                   "not ") +
                           Py_TYPE(value)->tp_name);
    const py::sequence items = py::reinterpret_borrow<py::sequence>(value);
    std::vector<core::Object> kv;
    kv.reserve(items.size());
    for (const py::handle item : items)
        kv.push_back(ownPuzzleObject(item, sig.method, me));
    return kv;
}

// so_far=(weight_grad, grad): what an unfinished backward gave; None: a backward's first call.
std::optional<std::pair<core::Object, core::Object>> backwardSoFarArgument(PyObject *value,
                                                                           Holder me)
{
    if (!value || value == Py_None)
        return std::nullopt;
    if ((!PyList_Check(value) && !PyTuple_Check(value)) || PySequence_Size(value) != 2)
        wrongCall(kBackward, std::string("so_far must be the (weight gradient, input gradient) "
                                         "pair an unfinished backward gave, not ") +
                                 Py_TYPE(value)->tp_name);
    const py::sequence pair = py::reinterpret_borrow<py::sequence>(value);
    return std::make_pair(ownPuzzleObject(pair[0], "backward", me),
                          ownPuzzleObject(pair[1], "backward", me));
}

PyObject *forward(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<5>(kForward, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kForward, "layer", a.at[0]);
        // One after another, so that a refusal names the first argument that is not this rank's.
        const core::Object &inp = ownPuzzleObject(a.at[1], "forward", me);
        const core::Object &weight = ownPuzzleObject(a.at[2], "forward", me);
        const auto kv = keysValuesArgument(kForward, a.at[3], me);
        const core::Object *soFar =
            a.at[4] && a.at[4] != Py_None ? &ownPuzzleObject(a.at[4], "forward", me) : nullptr;
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2], a.at[3], a.at[4]}, true);
        return wrapObject(
            unwrap(s.engine().forward(s.at(), layer, inp, weight, kv ? &*kv : nullptr, soFar)), me);
    });
}

PyObject *keysValues(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<3>(kKeysValues, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kKeysValues, "layer", a.at[0]);
        const core::Object &inp = ownPuzzleObject(a.at[1], "keys_values", me);
        const core::Object &weight = ownPuzzleObject(a.at[2], "keys_values", me);
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2]}, false);
        return wrapObject(unwrap(s.engine().keysValues(s.at(), layer, inp, weight)), me);
    });
}

PyObject *backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<6>(kBackward, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kBackward, "layer", a.at[0]);
        const core::Object &inp = ownPuzzleObject(a.at[1], "backward", me);
        const core::Object &grad = ownPuzzleObject(a.at[2], "backward", me);
        const core::Object &weight = ownPuzzleObject(a.at[3], "backward", me);
        const auto kv = keysValuesArgument(kBackward, a.at[4], me);
        const auto soFar = backwardSoFarArgument(a.at[5], me);
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2], a.at[3], a.at[4], a.at[5]}, true);
        return pairOf(unwrap(s.engine().backward(s.at(), layer, inp, grad, weight,
                                                 kv ? &*kv : nullptr, soFar ? &*soFar : nullptr)),
                      me);
    });
}

PyObject *backwardInput(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<4>(kBackwardInput, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kBackwardInput, "layer", a.at[0]);
        const core::Object &inp = ownPuzzleObject(a.at[1], "backward_input", me);
        const core::Object &grad = ownPuzzleObject(a.at[2], "backward_input", me);
        const core::Object &weight = ownPuzzleObject(a.at[3], "backward_input", me);
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2], a.at[3]}, true);
        return wrapObject(unwrap(s.engine().backwardInput(s.at(), layer, inp, grad, weight)), me);
    });
}

PyObject *backwardWeight(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<4>(kBackwardWeight, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kBackwardWeight, "layer", a.at[0]);
        const core::Object &inp = ownPuzzleObject(a.at[1], "backward_weight", me);
        const core::Object &grad = ownPuzzleObject(a.at[2], "backward_weight", me);
        // The weight, when given, names whose gradient it is (an expert's, a slice's).
        const core::Object *weight = a.at[3] && a.at[3] != Py_None
                                         ? &ownPuzzleObject(a.at[3], "backward_weight", me)
                                         : nullptr;
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2], a.at[3]}, true);
        return wrapObject(unwrap(s.engine().backwardWeight(s.at(), layer, inp, grad, weight)), me);
    });
}

PyObject *loss(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<1>(kLoss, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const core::Object &inp = ownPuzzleObject(a.at[0], "loss", me);
        noteOperation(*s.session, s.rank, {a.at[0]}, true);
        return wrapObject(unwrap(s.engine().loss(s.at(), inp)), me);
    });
}

PyObject *update(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<4>(kUpdate, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kUpdate, "layer", a.at[0]);
        const core::Object &grad = ownPuzzleObject(a.at[1], "update", me);
        const core::Object &weight = ownPuzzleObject(a.at[2], "update", me);
        const core::Object &state = ownPuzzleObject(a.at[3], "update", me);
        noteOperation(*s.session, s.rank, {a.at[1], a.at[2], a.at[3]}, true);
        return pairOf(unwrap(s.engine().update(s.at(), layer, grad, weight, state)), me);
    });
}

PyObject *loadWeights(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<5>(kLoadWeights, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kLoadWeights, "layer", a.at[0]);
        const int shard = a.at[1] ? intArgument(kLoadWeights, "shard", a.at[1]) : 0;
        const int total = a.at[2] ? intArgument(kLoadWeights, "total", a.at[2]) : 1;
        // split="tensor": a tensor-parallel slice (docs/simulation.md); None: a ZeRO shard.
        const bool slice = a.at[3] && a.at[3] != Py_None;
        if (slice &&
            (!PyUnicode_Check(a.at[3]) || PyUnicode_CompareWithASCIIString(a.at[3], "tensor") != 0))
            throw py::value_error(core::say(
                core::sentence::kSplitUnknown,
                {"load_weights", core::terminalText(py::repr(a.at[3]).cast<std::string>())}));
        // An expert of a mixture-of-experts layer (docs/simulation.md, "Expert parallelism").
        const int expert = a.at[4] && a.at[4] != Py_None
                               ? std::max(intArgument(kLoadWeights, "expert", a.at[4]), -2)
                               : -1;
        return pairOf(unwrap(s.engine().loadWeights(s.at(), layer, shard, total, slice, expert)),
                      me);
    });
}

template <OpKind Op, const Signature &Sig>
PyObject *collective(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<3>(Sig, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        s.acting();
        const int layer = intArgument(Sig, "layer", a.at[1]);
        return s.waiter(Op, py::reinterpret_borrow<py::object>(a.at[0]), layer,
                        a.at[2] ? py::reinterpret_borrow<py::object>(a.at[2]) : py::none(),
                        std::nullopt);
    });
}

// Starts the collective now, on this rank's communication stream, and returns its handle: a
// waiter that `await` resumes when the collective ended.
template <OpKind Op, const Signature &Sig>
PyObject *collectiveStart(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<3>(Sig, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(Sig, "layer", a.at[1]);
        py::object handle = s.waiter(
            Op, py::none(), layer,
            a.at[2] ? py::reinterpret_borrow<py::object>(a.at[2]) : py::none(), std::nullopt);
        Waiter &waiter = heldOrCast<Waiter>(handle, nullptr);
        noteOperation(*s.session, s.rank, {a.at[0]}, false);
        const std::int64_t id = unwrap(s.engine().startCollective(
            s.at(), Op, toPayload(py::reinterpret_borrow<py::object>(a.at[0]), me, Sig.method),
            layer, waiter.group));
        waiter.handle = id;
        return handle;
    });
}

// alltoall's non-blocking form: the pieces go out now, `await h` gives what every member sent.
PyObject *alltoallStart(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<3>(kAllToAllStart, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int layer = intArgument(kAllToAllStart, "layer", a.at[1]);
        py::object handle = s.waiter(
            OpKind::AllToAll, py::none(), layer,
            a.at[2] ? py::reinterpret_borrow<py::object>(a.at[2]) : py::none(), std::nullopt);
        Waiter &waiter = heldOrCast<Waiter>(handle, nullptr);
        noteOperation(*s.session, s.rank, {a.at[0]}, false);
        const std::int64_t id =
            unwrap(s.engine().alltoallStart(s.at(),
                                            piecesOf(py::reinterpret_borrow<py::object>(a.at[0]),
                                                     me, kAllToAllStart.method, s.engine().ranks()),
                                            layer, waiter.group));
        waiter.handle = id;
        return handle;
    });
}

// The non-blocking messages (docs/simulation.md, "Overlapped communication"): the pass or the
// receive starts now on this rank's communication stream; `await h` waits for its end.
constexpr Signature kPassToStart{
    "pass_to_start", "pass_to_start(rank, value)", {"rank", "value"}, 2};
constexpr Signature kReceiveStart{"receive_start", "receive_start(source=None)", {"source"}, 0};

PyObject *passToStart(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<2>(kPassToStart, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        const Holder me = s.acting();
        const int rank = intArgument(kPassToStart, "rank", a.at[0]);
        py::object handle = s.waiter(OpKind::PassTo, py::none(), -1, py::none(), rank);
        Waiter &waiter = heldOrCast<Waiter>(handle, nullptr);
        noteOperation(*s.session, s.rank, {a.at[1]}, false);
        waiter.handle = unwrap(s.engine().passToStart(
            s.at(), rank,
            toPayload(py::reinterpret_borrow<py::object>(a.at[1]), me, kPassToStart.method)));
        return handle;
    });
}

PyObject *receiveStart(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    return guarded([&] {
        const auto a = bound<1>(kReceiveStart, args, nargs, kw);
        const PyModel &s = FastSelf<PyModel>::of(self);
        s.acting();
        const std::optional<int> source =
            a.at[0] && a.at[0] != Py_None
                ? std::optional<int>(intArgument(kReceiveStart, "source", a.at[0]))
                : std::nullopt;
        py::object handle = s.waiter(OpKind::Receive, py::none(), -1, py::none(), source);
        Waiter &waiter = heldOrCast<Waiter>(handle, nullptr);
        noteOperation(*s.session, s.rank, {}, false);
        waiter.handle = unwrap(s.engine().receiveStart(s.at(), source));
        return handle;
    });
}

using Fast = PyObject *(*)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

PyMethodDef fastMethod(const Signature &sig, Fast function)
{
    return {sig.method, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(function)),
            METH_FASTCALL | METH_KEYWORDS, sig.shown};
}

} // namespace

void useFastModelCalls(PyTypeObject *modelType)
{
    // The method definitions must outlive the type (CPython keeps pointers to them).
    static PyMethodDef methods[] = {
        fastMethod(kForward, &forward),
        fastMethod(kKeysValues, &keysValues),
        fastMethod(kBackward, &backward),
        fastMethod(kBackwardInput, &backwardInput),
        fastMethod(kBackwardWeight, &backwardWeight),
        fastMethod(kLoss, &loss),
        fastMethod(kUpdate, &update),
        fastMethod(kLoadWeights, &loadWeights),
        fastMethod(kAllReduce, &collective<OpKind::AllReduce, kAllReduce>),
        fastMethod(kAllGather, &collective<OpKind::AllGather, kAllGather>),
        fastMethod(kScatterReduce, &collective<OpKind::ScatterReduce, kScatterReduce>),
        fastMethod(kAllToAll, &collective<OpKind::AllToAll, kAllToAll>),
        fastMethod(kAllReduceStart, &collectiveStart<OpKind::AllReduce, kAllReduceStart>),
        fastMethod(kAllGatherStart, &collectiveStart<OpKind::AllGather, kAllGatherStart>),
        fastMethod(kScatterReduceStart,
                   &collectiveStart<OpKind::ScatterReduce, kScatterReduceStart>),
        fastMethod(kAllToAllStart, &alltoallStart),
        fastMethod(kPassToStart, &passToStart),
        fastMethod(kReceiveStart, &receiveStart),
    };
    for (PyMethodDef &method : methods) {
        const py::object descriptor =
            py::reinterpret_steal<py::object>(PyDescr_NewMethod(modelType, &method));
        if (!descriptor || PyObject_SetAttrString(reinterpret_cast<PyObject *>(modelType),
                                                  method.ml_name, descriptor.ptr()) != 0)
            throw py::error_already_set();
    }
}

} // namespace rankstep::python
