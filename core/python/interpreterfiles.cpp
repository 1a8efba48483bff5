// SPDX-License-Identifier: MIT
// The Python C API only (no pybind11): this runs in the runner and in a real run's rank, whose
// interpreters differ (isolated or the system's), just before the lock-down.
#include "interpreterfiles.h"

#include <Python.h>

namespace rankstep::python {
namespace {

// The refusing finder. A class, not an instance, on sys.meta_path as the built-in finders are;
// it names the module the learner asked for.
constexpr const char *kFinder = R"(
import sys

class RankstepRefusedImport:
    """Says why a module cannot be imported in a Rankstep run; the sandbox stops it anyway."""

    raw_memory = frozenset(raw_memory)
    unavailable = frozenset(unavailable)

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        top = name.partition('.')[0]
        if top in cls.raw_memory:
            raise ImportError(
                top + " cannot be used in a Rankstep run: it would let code read and write the "
                "runner's memory (and forge the run's result), so the sandbox does not load it.",
                name=name)
        if top in cls.unavailable:
            raise ImportError(
                "The module " + top + " is not available in a Rankstep run: the sandbox loads no "
                "new native code once the code runs, and this module is not loaded before.",
                name=name)
        return None

sys.meta_path.insert(0, RankstepRefusedImport)
del sys, RankstepRefusedImport
)";

constexpr const char *kFiles = R"(
import os, sys
stdlib = getattr(sys, '_stdlib_dir', None) or os.path.dirname(os.__file__)
path = [entry for entry in sys.path if isinstance(entry, str) and os.path.isabs(entry)]
dynload = next((entry for entry in path
                if os.path.dirname(entry) == stdlib and os.path.basename(entry) == 'lib-dynload'),
               '')
)";

// Runs `code` in a fresh namespace holding `names` (lists of str) and returns that namespace, or
// nullptr (the error cleared). The GIL is held.
PyObject *runWith(const char *code,
                  const std::vector<std::pair<const char *, std::vector<std::string>>> &names)
{
    PyObject *space = PyDict_New();
    if (!space)
        return nullptr;
    bool ok = PyDict_SetItemString(space, "__builtins__", PyEval_GetBuiltins()) == 0;
    for (const auto &[key, values] : names) {
        PyObject *list = PyList_New(0);
        for (const std::string &value : values) {
            PyObject *text = list ? PyUnicode_DecodeFSDefault(value.c_str()) : nullptr;
            ok = ok && text && PyList_Append(list, text) == 0;
            Py_XDECREF(text);
        }
        ok = ok && list && PyDict_SetItemString(space, key, list) == 0;
        Py_XDECREF(list);
    }
    PyObject *result = ok ? PyRun_String(code, Py_file_input, space, space) : nullptr;
    if (!result) {
        PyErr_Clear();
        Py_DECREF(space);
        return nullptr;
    }
    Py_DECREF(result);
    return space;
}

std::string text(PyObject *object)
{
    PyObject *bytes =
        object && PyUnicode_Check(object) ? PyUnicode_EncodeFSDefault(object) : nullptr;
    if (!bytes) {
        PyErr_Clear();
        return {};
    }
    std::string value(PyBytes_AsString(bytes), std::size_t(PyBytes_Size(bytes)));
    Py_DECREF(bytes);
    return value;
}

// Holds the GIL while it lives (any thread, held or not before).
class Gil
{
public:
    Gil() : m_state(PyGILState_Ensure()) {}
    ~Gil() { PyGILState_Release(m_state); }
    Gil(const Gil &) = delete;
    Gil &operator=(const Gil &) = delete;

private:
    PyGILState_STATE m_state;
};

} // namespace

InterpreterFiles interpreterFiles()
{
    InterpreterFiles files;
    if (!Py_IsInitialized())
        return files;
    Gil gil;
    PyObject *space = runWith(kFiles, {});
    if (!space)
        return files;
    files.standardLibrary = text(PyDict_GetItemString(space, "stdlib"));
    files.extensionModules = text(PyDict_GetItemString(space, "dynload"));
    if (PyObject *path = PyDict_GetItemString(space, "path"); path && PyList_Check(path))
        for (Py_ssize_t i = 0; i < PyList_Size(path); ++i)
            files.path.push_back(text(PyList_GetItem(path, i)));
    Py_DECREF(space);
    return files;
}

std::vector<std::string> importedAmong(const std::vector<std::string> &names)
{
    std::vector<std::string> imported;
    if (!Py_IsInitialized())
        return imported;
    Gil gil;
    PyObject *modules = PyImport_GetModuleDict(); // borrowed
    for (const std::string &name : names)
        if (modules && PyDict_GetItemString(modules, name.c_str()))
            imported.push_back(name);
    return imported;
}

bool refuseImports(const std::vector<std::string> &rawMemory,
                   const std::vector<std::string> &unavailable)
{
    if (!Py_IsInitialized())
        return false;
    Gil gil;
    PyObject *space = runWith(kFinder, {{"raw_memory", rawMemory}, {"unavailable", unavailable}});
    Py_XDECREF(space);
    return space != nullptr;
}

} // namespace rankstep::python
