// SPDX-License-Identifier: MIT
#include "realrank.h"

#include "runreport.h"
#include "sandbox.h"

#include <Python.h>

#include <algorithm>
#include <csignal>
#include <iostream>

#include <sys/prctl.h>
#include <unistd.h>

namespace rankstep::cli {

namespace {

// Loaded, and initialised, while the disk is still open: PyTorch reads /proc/cpuinfo once for its
// thread pool, which the sandbox then hides.
constexpr const char *kBeforeLockDown =
    "import io, pickle, torch, torch.distributed\n"
    "import torch.distributed.distributed_c10d, torch.profiler\n"
    "torch.set_num_threads(1)\n";

// The Python list of ARGS, or null with the error set.
PyObject *argumentList(const std::vector<std::string> &args)
{
    PyObject *list = PyList_New(0);
    for (const std::string &arg : args) {
        PyObject *item = list ? PyUnicode_DecodeFSDefault(arg.c_str()) : nullptr;
        if (!item || PyList_Append(list, item) != 0) {
            Py_XDECREF(item);
            Py_XDECREF(list);
            return nullptr;
        }
        Py_DECREF(item);
    }
    return list;
}

std::string outFolder(const std::vector<std::string> &args)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--out")
            return args[i + 1];
    return {};
}

} // namespace

int realRankMain(const std::vector<std::string> &args)
{
    const std::string out = outFolder(args);
    if (out.empty()) {
        std::cerr << "rankstep-cli __real-rank: --out DIR is needed\n";
        return kUsage;
    }
    // A rank ends with the command that started it, even one killed outright (kill -9).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return kStopped;
    PyConfig config;
    PyConfig_InitPythonConfig(&config); // PYTHONPATH (rankstep_real) and the system's packages
    config.write_bytecode = 0;
    config.install_signal_handlers = 0;
    if (PyStatus status = Py_InitializeFromConfig(&config); PyStatus_Exception(status)) {
        PyConfig_Clear(&config);
        std::cerr << "rankstep-cli __real-rank: cannot start Python\n";
        return kInternal;
    }
    PyConfig_Clear(&config);
    // Everything the rank needs from the disk, loaded before the doors close: a puzzle's rank,
    // or a PyTorch lesson's (`--torch-lesson CHECK`, cli/realcommand.h torchLessonCommand).
    const bool torchLesson = std::find(args.begin(), args.end(), "--torch-lesson") != args.end();
    PyObject *rank =
        PyImport_ImportModule(torchLesson ? "rankstep_real.torchlesson" : "rankstep_real.rank");
    if (!rank || PyRun_SimpleString(kBeforeLockDown) != 0) {
        PyErr_Print();
        return kInternal;
    }
    PyObject *list = argumentList(args);
    PyObject *prepared = list ? PyObject_CallMethod(rank, "prepare", "O", list) : nullptr;
    Py_XDECREF(list);
    if (!prepared) {
        PyErr_Print();
        return kInternal;
    }
    std::cerr << describeMissing(lockDown(out, /*network=*/true));
    PyObject *result = PyObject_CallMethod(rank, "run", "O", prepared);
    Py_DECREF(prepared);
    if (!result) {
        PyErr_Print();
        return kInternal;
    }
    const long code = PyLong_Check(result) ? PyLong_AsLong(result) : 0;
    Py_DECREF(result);
    Py_DECREF(rank);
    std::cout.flush();
    // No interpreter shutdown: torch's threads may still hold it, and the files are written.
    return int(code);
}

} // namespace rankstep::cli
