// SPDX-License-Identifier: MIT
// The waiter of a communication: started at its await, resumed by the scheduler until the engine
// completed its operation.
#include "waiter.h"

#include "fastinstance.h"
#include "heldoutside.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace rankstep::python {

std::vector<std::optional<core::Object>> piecesOf(const py::object &value, Holder me,
                                                  const char *method, int ranks)
{
    if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value))
        throw py::type_error(std::string(method) +
                             "(pieces, layer, group=None): pieces is a list with one "
                             "activation (or None) for each rank of the group, in the order of "
                             "their ranks, not " +
                             py::repr(value).cast<std::string>().substr(0, 200));
    // Refused before anything is made of it: ten million pieces took 1.1 GB here.
    if (const std::size_t given = py::len(value); given > std::size_t(std::max(ranks, 1)))
        throw py::value_error(std::string(method) + "(pieces, layer, group=None): pieces holds " +
                              std::to_string(given) + " items, but a group has at most the run's " +
                              std::to_string(ranks) + " ranks: one piece (or None) for each");
    std::vector<std::optional<core::Object>> pieces;
    for (py::handle item : value) {
        if (item.is_none())
            pieces.emplace_back();
        else
            pieces.emplace_back(ownPuzzleObject(item, method, me));
    }
    return pieces;
}

void Waiter::start()
{
    if (done) {
        const std::string call = std::string(core::opName(op)) + (handle >= 0 ? "_start" : "");
        throw std::runtime_error("This " + std::string(core::opName(op)) +
                                 " was already awaited: each call of model." + call +
                                 "(...) is awaited once. Call it again for another one.");
    }
    // docs/simulation.md, "An object belongs to a rank": each rank awaits only its own calls.
    refuseOtherRanks(*session, rank, core::opName(op));
    if (started)
        return;
    started = true;
    done = true; // until the operation has started: a failed start cannot be awaited again
    core::Engine &engine = engineOf(*session);
    const core::CallSite at{rank, learnerLine(session->fileName)};
    const Holder me{rank, session->run};
    const char *use = core::opName(op);
    core::Status status = core::okStatus();
    if (handle < 0) // a non-blocking one was noted where it started
        noteOperation(*session, rank, {value.ptr()}, false);
    if (handle >= 0) {
        status = engine.awaitCollective(at, handle);
        if (!status)
            raiseError(status.error());
        done = false;
        return;
    }
    switch (op) {
        case core::OpKind::AllReduce:
            status = engine.allreduce(at, toPayload(value, me, use), layer, std::move(group));
            break;
        case core::OpKind::AllGather:
            status = engine.allgather(at, toPayload(value, me, use), layer, std::move(group));
            break;
        case core::OpKind::ScatterReduce:
            status = engine.scatterreduce(at, toPayload(value, me, use), layer, std::move(group));
            break;
        case core::OpKind::AllToAll:
            status = engine.alltoall(at, piecesOf(value, me, "alltoall", engine.ranks()), layer,
                                     std::move(group));
            break;
        case core::OpKind::PassTo:
            status = engine.passTo(at, *peer, toPayload(value, me, use));
            break;
        default:
            status = engine.receive(at, peer);
            break;
    }
    if (!status)
        raiseError(status.error());
    done = false;
}

py::object Waiter::next(py::handle self)
{
    start();
    core::Engine &engine = engineOf(*session);
    if (engine.fatalError())
        raiseError(*engine.fatalError());
    if (!engine.resultReady(rank)) {
        if (session->standalone)
            throw py::value_error(
                "rank " + std::to_string(rank) +
                " has to wait for other ranks here, and "
                "outside a Rankstep run none can answer. Run the function on every rank: "
                "rankstep-cli run FILE --function NAME --ranks N");
        return py::reinterpret_borrow<py::object>(self);
    }
    done = true;
    py::object result = wrapPayload(engine.takeResult(rank), {rank, session->run});
    py::object stop =
        py::reinterpret_steal<py::object>(PyObject_CallOneArg(PyExc_StopIteration, result.ptr()));
    PyErr_SetObject(PyExc_StopIteration, stop.ptr());
    throw py::error_already_set();
}

namespace {

// `await` resumes a waiter through the type's iternext and await slots, set below: an operation
// that completes raises StopIteration(result) without a C++ exception unwinding the stack. Every
// other case (an error, a second await, a standalone model) takes pybind11's methods as before.
iternextfunc g_slowNext = nullptr;
unaryfunc g_slowAwait = nullptr;
PyTypeObject *g_waiterType = nullptr;

Waiter *waiterOf(PyObject *self)
{
    return static_cast<Waiter *>(const_cast<void *>(heldValue(self)));
}

PyObject *waiterNext(PyObject *self)
{
    Waiter *w = waiterOf(self);
    if (!w || !w->started || w->done || !w->session->engine || w->session->standalone ||
        w->session->engine->fatalError() || w->session->engine->currentRank() != w->rank)
        return g_slowNext(self); // another rank's waiter: start() refuses it

    core::Engine &engine = *w->session->engine;
    if (!engine.resultReady(w->rank)) {
        Py_INCREF(self);
        return self;
    }
    w->done = true;
    try {
        py::object result = wrapPayload(engine.takeResult(w->rank), {w->rank, w->session->run});
        PyObject *stop = PyObject_CallOneArg(PyExc_StopIteration, result.ptr());
        if (stop) {
            PyErr_SetObject(PyExc_StopIteration, stop);
            Py_DECREF(stop);
        }
    } catch (py::error_already_set &e) {
        e.restore();
    } catch (const std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

PyObject *waiterAwait(PyObject *self)
{
    Waiter *w = waiterOf(self);
    if (!w || w->started || w->done || !w->session->engine)
        return g_slowAwait(self);
    try {
        w->start();
    } catch (py::error_already_set &e) {
        e.restore();
        return nullptr;
    } catch (py::builtin_exception &e) {
        e.set_error();
        return nullptr;
    } catch (const std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return nullptr;
    }
    Py_INCREF(self);
    return self;
}

void useFastSlots(const py::handle &waiterClass)
{
    auto *type = reinterpret_cast<PyTypeObject *>(waiterClass.ptr());
    if (!type->tp_iternext || !type->tp_as_async || !type->tp_as_async->am_await)
        return;
    g_waiterType = type;
    g_slowNext = type->tp_iternext;
    g_slowAwait = type->tp_as_async->am_await;
    type->tp_iternext = &waiterNext;
    type->tp_as_async->am_await = &waiterAwait;
    PyType_Modified(type);
}

} // namespace

bool isWaiterOf(py::handle value, int rank)
{
    if (g_waiterType && Py_TYPE(value.ptr()) == g_waiterType)
        if (const Waiter *w = waiterOf(value.ptr()))
            return w->rank == rank;
    // A waiter made by Waiter.__new__ alone holds none: it is nobody's waiter (not a crash).
    if (!py::isinstance<Waiter>(value) || madeByNewAlone(value.ptr()))
        return false;
    return value.cast<const Waiter &>().rank == rank;
}

void bindWaiter(py::module_ &m)
{
    py::class_<Waiter> waiter(m, "Waiter", "A collective or message a rank is waiting for.");
    waiter
        .def("__await__",
             [](py::object self) {
                 heldOrCast<Waiter>(self, g_waiterType).start();
                 return self;
             })
        .def("__iter__", [](py::object self) { return self; })
        .def("__next__",
             [](py::handle self) { return heldOrCast<Waiter>(self, g_waiterType).next(self); })
        .def("send", [](py::handle self,
                        py::handle) { return heldOrCast<Waiter>(self, g_waiterType).next(self); })
        .def("__repr__", [](py::handle self) {
            const Waiter &w = heldOrCast<Waiter>(self, g_waiterType);
            if (w.handle >= 0)
                return "<rank " + std::to_string(w.rank) + "'s " +
                       core::describeCall(w.op, w.layer) + (w.done ? ", awaited>" : ", started>");
            return "<rank " + std::to_string(w.rank) + " waiting in " +
                   core::describeCall(w.op, w.layer) + ">";
        });
    useFastSlots(waiter);
    FastInstance<Waiter>::install(); // waiters are made by the hundred thousand (pymodel.cpp)
}

} // namespace rankstep::python
