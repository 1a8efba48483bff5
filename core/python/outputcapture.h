// SPDX-License-Identifier: MIT
// Internal to the Python runtime: what the learner's code prints, as sys.stdout and sys.stderr
// (and sys.__stdout__, sys.__stderr__) of a run. Kept in C++: the learner's code can reach this
// object (it is sys.stdout) but not change what the runner reads back, how much it keeps, or run
// its own code when the runner closes it after the run, when no time limit guards any more.
#pragma once

#include "session.h"

#include <cstddef>
#include <string>

namespace rankstep::python {

struct StreamMethods;

class OutputCapture
{
public:
    // `echo`: also write what is kept to `real` (the process's sys.__stdout__ when the run
    // began), line by line.
    OutputCapture(bool echo, py::object real);

    // file.write: keeps the first kMostCharacters characters, counts the rest; returns len(text).
    Py_ssize_t write(py::handle text);
    void flush();
    // At the end of the run: the note on dropped output, once. Never runs the learner's code.
    void close();
    const std::string &text() const { return m_kept; }

    static constexpr Py_ssize_t kMostCharacters = Py_ssize_t(1) << 20;

private:
    void echo(PyObject *piece, bool anyNewline);
    const StreamMethods &methods() const; // of the real stream's type

    bool m_echo;
    py::object m_real;
    std::string m_kept; // UTF-8 (a lone surrogate as \ud800)
    Py_ssize_t m_size = 0;
    std::size_t m_dropped = 0;
};

// The Python class, in the module `_rankstep` (type(sys.stdout) during a run).
void bindOutputCapture(py::module_ &module);
// A new capture's Python object, and its C++ value (owned by the object).
py::object makeOutputCapture(bool echo, OutputCapture **value);

} // namespace rankstep::python
