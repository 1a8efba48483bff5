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

// The group list a rank's collectives named last, kept so that the same list is not read member by
// member again: at thousands of ranks each member (an int object of its own beyond 256) is out of
// the caches by the rank's next turn, and those reads were most of a collective's call
// (docs/benchmarks.md). The same list holding the same members is the same group: ints do not
// change, and the members are held here, so no other object can take one's address.
struct LastGroup {
    static constexpr Py_ssize_t kMostMembers = 64; // larger groups are not kept (a rank's memory)
    py::object list;
    py::object members; // a tuple of the list's members when it was read
    std::vector<int> ranks;

    bool matches(PyObject *given) const
    {
        if (!list || given != list.ptr())
            return false;
        const Py_ssize_t size = PyList_GET_SIZE(given);
        if (size != PyTuple_GET_SIZE(members.ptr()))
            return false;
        for (Py_ssize_t i = 0; i < size; ++i)
            if (PyList_GET_ITEM(given, i) != PyTuple_GET_ITEM(members.ptr(), i))
                return false;
        return true;
    }
    void keep(PyObject *given, const std::vector<int> &read)
    {
        if (PyList_GET_SIZE(given) > kMostMembers)
            return;
        PyObject *tuple = PyList_AsTuple(given);
        if (!tuple) {
            PyErr_Clear();
            return;
        }
        members = py::reinterpret_steal<py::object>(tuple);
        list = py::reinterpret_borrow<py::object>(given);
        ranks = read;
    }
};

struct PyModel {
    std::shared_ptr<Session> session;
    int rank = 0;
    std::vector<py::object> maps;
    mutable LastGroup lastGroup;

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
        if (!group.is_none()) {
            if (lastGroup.matches(group.ptr()))
                w.group = lastGroup.ranks;
            else if (groupFromList(group.ptr(), w.group))
                lastGroup.keep(group.ptr(), w.group);
            else
                for (py::handle member : py::iter(group))
                    w.group.push_back(
                        py::int_(py::reinterpret_borrow<py::object>(member)).cast<int>());
        }
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
