// SPDX-License-Identifier: MIT
// Internal to the Python runtime: the Model class's C++ side, shared by its pybind11 binding
// (pymodel.cpp) and its methods called straight from CPython (modelcalls.cpp).
#pragma once

#include "fastinstance.h"
#include "session.h"
#include "waiter.h"

#include <climits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace rankstep::python {

// pybind11 finds `self`'s C++ type through its typeid (hashing the type's name) on every call of
// a method. The model's and the dictionaries' methods take the Python object instead and read
// the value it holds directly, once its Python type (looked up when the class is made) matches.
template <typename T>
struct FastSelf {
    static inline PyTypeObject *type = nullptr;
    static const T &of(py::handle self) { return heldOrCast<const T>(self, type); }
};

template <typename T>
T unwrap(core::Result<T> result)
{
    if (!result)
        raiseError(result.error());
    return std::move(*result);
}

inline py::tuple pairOf(const std::pair<core::Object, core::Object> &pair, Holder holder)
{
    return py::make_tuple(wrapObject(pair.first, holder), wrapObject(pair.second, holder));
}

struct PyModel {
    std::shared_ptr<Session> session;
    int rank = 0;
    std::vector<py::object> maps;

    core::Engine &engine() const { return engineOf(*session); }
    core::CallSite at() const { return {rank, learnerLine(session->fileName)}; }
    // The holder of what this model's calls make and take (docs/simulation.md, "An object
    // belongs to a rank"); raises when another rank's code runs: it may not use this model.
    Holder acting() const
    {
        refuseOtherRanks(*session, rank, "model");
        return {rank, session->run};
    }
    py::object waiter(core::OpKind op, py::object value, int layer, py::object group,
                      std::optional<int> peer) const
    {
        Waiter w{session, rank, op, std::move(value), layer, {}, peer, false, false};
        if (!group.is_none() && !groupFromList(group.ptr(), w.group))
            for (py::handle member : py::iter(group))
                w.group.push_back(py::int_(py::reinterpret_borrow<py::object>(member)).cast<int>());
        return FastInstance<Waiter>::make(std::move(w));
    }

private:
    // A list of ints (model.group's) read without an object per member; false, `group` left
    // empty, for anything else (the loop above then says what is wrong with it).
    static bool groupFromList(PyObject *list, std::vector<int> &group)
    {
        if (!PyList_CheckExact(list))
            return false;
        const Py_ssize_t size = PyList_GET_SIZE(list);
        group.reserve(std::size_t(size));
        for (Py_ssize_t i = 0; i < size; ++i) {
            PyObject *member = PyList_GET_ITEM(list, i);
            int overflow = 0;
            const long value =
                PyLong_CheckExact(member) ? PyLong_AsLongAndOverflow(member, &overflow) : 0;
            if (!PyLong_CheckExact(member) || overflow != 0 || value < INT_MIN || value > INT_MAX) {
                group.clear();
                return false;
            }
            group.push_back(int(value));
        }
        return true;
    }
};

// Replaces the hottest of Model's pybind11 methods (forward, backward, loss, update,
// load_weights, the collectives) by CPython methods of the vectorcall kind (modelcalls.cpp).
void useFastModelCalls(PyTypeObject *modelType);

} // namespace rankstep::python
