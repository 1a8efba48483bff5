// SPDX-License-Identifier: MIT
// Internal to the Python runtime: Python objects of a pybind11 class made and freed without
// pybind11's per-object bookkeeping, for the values a run makes by the hundred thousand (puzzle
// objects, waiters). pybind11's own cast enters every object in its registry of instances (a hash
// map node, looked up again when the object dies), which only serves to hand back the same
// Python object for a C++ pointer returned twice; its deallocation looks the type's type infos up
// in another hash map. These values are always new and never returned by pointer, so neither is
// needed.
#pragma once

#include "session.h"

#include <memory>
#include <typeinfo>
#include <utility>

namespace rankstep::python {

template <typename T>
struct FastInstance {
    static inline const py::detail::type_info *info = nullptr;
    static inline destructor pybindDealloc = nullptr;
    // The type has pybind11's simple layout (one registered type, a holder of one pointer):
    // make() lays a new instance out itself instead of looking the type's infos up again.
    static inline bool simple = false;

    // After the class is defined: looks its type up once and frees its unregistered instances
    // through dealloc below.
    static void install()
    {
        info = py::detail::get_type_info(typeid(T));
        PyTypeObject *type = info->type;
        pybindDealloc = type->tp_dealloc;
        type->tp_dealloc = &dealloc;
        simple = py::detail::all_type_info(type).size() == 1 &&
                 info->holder_size_in_ptrs <= py::detail::instance_simple_holder_in_ptrs();
    }

    // What pybind11's make_new_instance does for a type of the simple layout, without its
    // lookup of the type's infos in a hash map (pybind11's allocate_layout: 5 % of a long run).
    static py::detail::instance *allocateSimple()
    {
        PyObject *self = info->type->tp_alloc(info->type, 0);
        if (!self)
            throw py::error_already_set();
        auto *made = reinterpret_cast<py::detail::instance *>(self);
        made->simple_layout = true;
        made->simple_value_holder[0] = nullptr;
        made->simple_holder_constructed = false;
        made->simple_instance_registered = false;
        made->owned = true;
        return made;
    }

    // A new Python object owning `value`, not in pybind11's registry (its deallocation skips an
    // instance whose `instance_registered()` is false and frees the value through its holder).
    static py::object make(T value)
    {
        if (!info)
            return py::cast(std::move(value));
        auto *made = simple ? allocateSimple()
                            : reinterpret_cast<py::detail::instance *>(
                                  py::detail::make_new_instance(info->type));
        auto object = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject *>(made));
        made->owned = true;
        py::detail::value_and_holder held = made->get_value_and_holder(info, false);
        held.value_ptr() = new T(std::move(value));
        new (std::addressof(held.holder<std::unique_ptr<T>>()))
            std::unique_ptr<T>(held.value_ptr<T>());
        held.set_holder_constructed();
        return object;
    }

    // What pybind11_object_dealloc does for an instance make() made. Anything else (an instance
    // of a learner's subclass, one with weak references, one pybind11 registered) goes through
    // pybind11's own deallocation.
    static void dealloc(PyObject *self)
    {
        auto *held = reinterpret_cast<py::detail::instance *>(self);
        PyTypeObject *type = Py_TYPE(self);
        // An instance made by `T.__new__(T)` alone has no holder, and pybind11 may have given
        // it raw memory for a value it never constructed: pybind11 frees that without running
        // a destructor.
        if (type->tp_dealloc != &dealloc || !held->simple_layout ||
            !held->simple_holder_constructed || held->simple_instance_registered ||
            held->weakrefs != nullptr || held->has_patients ||
            PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC)) {
            pybindDealloc(self);
            return;
        }
        {
            // The value may release Python objects (a waiter's payload), whose own deallocation
            // must not see or clear an error in flight (a waiter dropped as its StopIteration
            // is raised): as pybind11's class_::dealloc.
            const py::error_scope keep;
            reinterpret_cast<std::unique_ptr<T> &>(held->simple_value_holder[1]).~unique_ptr();
        }
        type->tp_free(self);
        Py_DECREF(type); // an instance of a heap type holds a reference to it
    }
};

} // namespace rankstep::python
