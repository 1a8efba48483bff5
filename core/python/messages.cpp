// SPDX-License-Identifier: MIT
// What a message carries from one rank to another (docs/simulation.md, "An object belongs to a
// rank"). The notebook's pass_to hands the very Python value over, so a list sent and changed
// afterwards would show the change at the receiver, and puzzle objects inside it would be shared
// by both ranks. Here the lists, tuples and dicts are copied when the message is sent and again
// when it is received; the puzzle objects in them must be the sender's and arrive as the
// receiver's. Any other value travels as it is (a str, an int, an object of the learner's):
// puzzle objects inside such an object stay the sender's. Written against the C API, so that
// nothing the learner's code patches (builtins, copy) takes part.
#include "session.h"

#include <cstdint>
#include <string>

namespace rankstep::python {
namespace {

// Deeper than any message a lesson sends; a list nested in itself a million times would otherwise
// take the C stack.
constexpr int kDeepest = 100;

class Carrier
{
public:
    Carrier(Holder holder, const char *use) : m_holder(holder), m_use(use) {}

    py::object carry(const py::object &value, int depth)
    {
        if (isPuzzleObject(value)) {
            if (m_use) // sending: the sender's own, else an error in the learner's words
                return (ownPuzzleObject(value, m_use, m_holder), value);
            return wrapObject(puzzleObject(value), m_holder);
        }
        PyObject *raw = value.ptr();
        const bool list = PyList_CheckExact(raw), tuple = PyTuple_CheckExact(raw),
                   dict = PyDict_CheckExact(raw);
        if (!list && !tuple && !dict)
            return value;
        if (depth >= kDeepest)
            throw py::value_error(std::string(m_use ? m_use : "receive") +
                                  ": a message may nest lists, tuples and dicts at most " +
                                  std::to_string(kDeepest) + " deep");
        const py::int_ id(reinterpret_cast<std::uintptr_t>(raw));
        if (PyObject *seen = PyDict_GetItemWithError(m_seen.ptr(), id.ptr()))
            return py::reinterpret_borrow<py::object>(seen);
        if (PyErr_Occurred())
            throw py::error_already_set();
        if (list) {
            py::list out;
            remember(id, out);
            // By index, its size asked each time: a dict key's __hash__ below is the learner's
            // code and may change the list.
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(raw); ++i)
                out.append(
                    carry(py::reinterpret_borrow<py::object>(PyList_GET_ITEM(raw, i)), depth + 1));
            return out;
        }
        if (dict) {
            py::dict out;
            remember(id, out);
            // Its items copied first: storing a key in `out` hashes it, which is the learner's
            // code and may change the dict.
            py::list items = py::reinterpret_steal<py::list>(PyDict_Items(raw));
            if (!items)
                throw py::error_already_set();
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items.ptr()); ++i) {
                PyObject *pair = PyList_GET_ITEM(items.ptr(), i);
                py::object k = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(pair, 0));
                py::object v =
                    carry(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(pair, 1)), depth + 1);
                if (PyDict_SetItem(out.ptr(), k.ptr(), v.ptr()) != 0)
                    throw py::error_already_set();
            }
            return out;
        }
        const Py_ssize_t size = PyTuple_GET_SIZE(raw);
        py::tuple out(size);
        for (Py_ssize_t i = 0; i < size; ++i)
            out[i] = carry(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(raw, i)), depth + 1);
        remember(id, out);
        return out;
    }

private:
    void remember(const py::int_ &id, const py::object &copy)
    {
        if (PyDict_SetItem(m_seen.ptr(), id.ptr(), copy.ptr()) != 0)
            throw py::error_already_set();
    }

    Holder m_holder;
    const char *m_use;
    py::dict m_seen; // id of a list or dict already copied -> its copy (a list holding itself)
};

} // namespace

py::object carryMessage(py::object value, Holder holder, const char *use)
{
    return Carrier(holder, use).carry(value, 0);
}

} // namespace rankstep::python
