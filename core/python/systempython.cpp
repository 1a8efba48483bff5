// SPDX-License-Identifier: MIT
#include "systempython.h"

#include <pybind11/embed.h>

#include <stdexcept>

namespace rankstep::python {
namespace py = pybind11;

namespace {

// The arguments as Python strs, decoded as the file system's names are (a path in any bytes).
py::list argumentList(const std::vector<std::string> &args)
{
    py::list list;
    for (const std::string &arg : args) {
        PyObject *item = PyUnicode_DecodeFSDefault(arg.c_str());
        if (!item)
            throw py::error_already_set();
        list.append(py::reinterpret_steal<py::object>(item));
    }
    return list;
}

} // namespace

std::optional<int> runSystemModule(const SystemModuleRun &run, const std::function<void()> &between)
{
    PyConfig config;
    PyConfig_InitPythonConfig(&config); // PYTHONPATH and the system's packages
    PyConfig_SetBytesString(&config, &config.program_name, RANKSTEP_SYSTEM_PYTHON);
    config.write_bytecode = 0;
    config.install_signal_handlers = 0;
    try {
        py::initialize_interpreter(&config, 0, nullptr, false);
    } catch (const std::runtime_error &e) {
        throw PythonNotStarted{e.what()};
    }
    try {
        py::module_ module = py::module_::import(run.module.c_str());
        py::exec(run.preamble);
        py::object prepared = module.attr("prepare")(argumentList(run.args));
        between();
        py::object result = module.attr("run")(prepared);
        return PyLong_Check(result.ptr()) ? int(PyLong_AsLong(result.ptr())) : 0;
    } catch (py::error_already_set &e) {
        e.restore();
        PyErr_Print();
        return std::nullopt;
    }
}

} // namespace rankstep::python
