// SPDX-License-Identifier: MIT
#include "outputcapture.h"

#include <algorithm>
#include <string>
#include <utility>

namespace rankstep::python {

struct StreamMethods {
    py::object write;
    py::object flush;
};

namespace {

// The methods of the real stream's own type (io.TextIOWrapper, a type of C that no Python code can
// change), looked up once: an attribute the learner's code set on the stream object is not asked.
StreamMethods methodsOf(const py::object &stream)
{
    if (stream.is_none())
        return {};
    const py::handle type(reinterpret_cast<PyObject *>(Py_TYPE(stream.ptr())));
    return {type.attr("write"), type.attr("flush")};
}

std::string utf8(PyObject *text)
{
    py::object bytes = py::reinterpret_steal<py::object>(
        PyUnicode_AsEncodedString(text, "utf-8", "backslashreplace"));
    if (!bytes)
        throw py::error_already_set();
    return std::string(PyBytes_AS_STRING(bytes.ptr()), std::size_t(PyBytes_GET_SIZE(bytes.ptr())));
}

std::string withThousands(std::size_t number)
{
    const std::string digits = std::to_string(number);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

OutputCapture::OutputCapture(bool echo, py::object real) : m_echo(echo), m_real(std::move(real)) {}

const StreamMethods &OutputCapture::methods() const
{
    // Never destroyed: the interpreter outlives every static of this process.
    static const StreamMethods *found = new StreamMethods(methodsOf(m_real));
    return *found;
}

Py_ssize_t OutputCapture::write(py::handle text)
{
    py::object value = py::reinterpret_steal<py::object>(PyObject_Str(text.ptr())); // print's str
    if (!value)
        throw py::error_already_set();
    const Py_ssize_t length = PyUnicode_GetLength(value.ptr());
    if (length < 0)
        throw py::error_already_set();
    const Py_ssize_t room = std::max<Py_ssize_t>(kMostCharacters - m_size, 0);
    if (room > 0 && length > 0) {
        py::object piece =
            length <= room
                ? value
                : py::reinterpret_steal<py::object>(PyUnicode_Substring(value.ptr(), 0, room));
        if (!piece)
            throw py::error_already_set();
        const Py_ssize_t kept = std::min(length, room);
        m_kept += utf8(piece.ptr());
        m_size += kept;
        echo(piece.ptr(), PyUnicode_FindChar(piece.ptr(), '\n', 0, kept, 1) >= 0);
    }
    m_dropped += std::size_t(length - std::min(length, room));
    return length;
}

void OutputCapture::echo(PyObject *piece, bool anyNewline)
{
    if (!m_echo || m_real.is_none())
        return;
    methods().write(m_real, py::handle(piece));
    // Line by line, as on a terminal: through a pipe (the GUI, a test) Python buffers whole
    // blocks, and the embedded interpreter is never finalized to flush them.
    if (anyNewline)
        methods().flush(m_real);
}

void OutputCapture::flush()
{
    if (!m_echo || m_real.is_none())
        return;
    methods().flush(m_real);
}

void OutputCapture::close()
{
    try {
        if (m_dropped > 0) {
            const std::string note = "\n[output cut at 1 MiB: " + withThousands(m_dropped) +
                                     " more characters were printed and dropped]\n";
            m_dropped = 0;
            m_kept += note;
            echo(py::str(note).ptr(), true);
        }
        flush(); // a last line without a newline, before the caller's output
    } catch (const py::error_already_set &) {
        PyErr_Clear(); // the real stream is gone (a closed pipe): the text has it all
    }
}

namespace {

PyTypeObject *g_captureType = nullptr;

} // namespace

void bindOutputCapture(py::module_ &m)
{
    py::class_<OutputCapture> capture(m, "OutputCapture",
                                      "What the code prints during a run (sys.stdout).");
    capture
        .def("write",
             [](py::handle self, py::handle text) {
                 return heldOrCast<OutputCapture>(self, g_captureType).write(text);
             })
        .def("flush",
             [](py::handle self) { heldOrCast<OutputCapture>(self, g_captureType).flush(); })
        .def("isatty", [](py::handle) { return false; })
        .def_property_readonly("encoding", [](py::handle) { return "utf-8"; });
    g_captureType = reinterpret_cast<PyTypeObject *>(capture.ptr());
}

py::object makeOutputCapture(bool echo, OutputCapture **value)
{
    PyObject *realStream = PySys_GetObject("__stdout__"); // borrowed, may be null
    py::object real = py::reinterpret_borrow<py::object>(realStream ? realStream : Py_None);
    py::object made = py::cast(OutputCapture(echo, std::move(real)));
    *value = &made.cast<OutputCapture &>();
    return made;
}

} // namespace rankstep::python
