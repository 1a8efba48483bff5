// SPDX-License-Identifier: MIT
#include "learnererror.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string_view>
#include <vector>

namespace rankstep::python {
namespace {

// A reference of our own, dropped at the end of the scope.
struct Ref {
    explicit Ref(PyObject *object = nullptr) : ptr(object) {}
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    ~Ref() { Py_XDECREF(ptr); }
    PyObject *ptr;
};

// "299,990,000"
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

// "[cut at 10,000 characters: 299,990,000 more were left out]"
std::string cutNote(std::size_t most, std::size_t more)
{
    return "[cut at " + withThousands(most) + " characters: " + withThousands(more) +
           " more were left out]";
}

std::string typeQualifiedName(PyTypeObject *type)
{
    std::string name;
    if (Ref qualname(PyType_GetQualName(type)); qualname.ptr && PyUnicode_Check(qualname.ptr))
        name = boundedText(qualname.ptr, 200);
    else
        name = type->tp_name ? type->tp_name : "?";
    PyErr_Clear();
    // __module__ as traceback.format_exception_only prints it; read from the type's own dict, so
    // that no metaclass of the learner's runs.
    std::string module = "builtins";
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        PyObject *found =
            type->tp_dict ? PyDict_GetItemString(type->tp_dict, "__module__") : nullptr; // borrowed
        module = found && PyUnicode_Check(found) ? boundedText(found, 200) : "<unknown>";
    } else if (const char *dot = std::strrchr(type->tp_name, '.')) {
        module.assign(type->tp_name, dot);
        name = dot + 1;
    }
    if (module != "builtins" && module != "__main__")
        name = module + "." + name;
    return name;
}

std::string stripped(std::string_view text)
{
    const char *space = " \t\r\n\f\v";
    const auto begin = text.find_first_not_of(space);
    if (begin == std::string_view::npos)
        return {};
    const auto end = text.find_last_not_of(space);
    return std::string(text.substr(begin, end - begin + 1));
}

// The lines of the learner's source, found once per traceback.
class SourceLines
{
public:
    explicit SourceLines(const std::string &source) : m_source(source)
    {
        std::size_t at = m_source.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // a byte order mark
        m_starts.push_back(at);
        while ((at = m_source.find('\n', at)) != std::string::npos)
            m_starts.push_back(++at);
    }
    // Line `number` (from 1) without its surrounding blanks, at most a message's length.
    std::string line(int number) const
    {
        if (number < 1 || std::size_t(number) > m_starts.size())
            return {};
        const std::size_t begin = m_starts[std::size_t(number) - 1];
        const std::size_t end =
            std::size_t(number) < m_starts.size() ? m_starts[std::size_t(number)] : m_source.size();
        std::string text = stripped(std::string_view(m_source).substr(begin, end - begin));
        if (text.size() > kMostMessageCharacters)
            text = text.substr(0, kMostMessageCharacters) + " ...";
        return text;
    }

private:
    std::string_view m_source;
    std::vector<std::size_t> m_starts;
};

struct Frame {
    int line = 0;
    std::string name;
};

std::vector<Frame> learnerFrames(PyObject *exception, const std::string &fileName)
{
    std::vector<Frame> frames;
    Ref traceback(PyException_GetTraceback(exception));
    for (PyObject *at = traceback.ptr; at && PyTraceBack_Check(at);
         at = reinterpret_cast<PyObject *>(reinterpret_cast<PyTracebackObject *>(at)->tb_next)) {
        auto *tb = reinterpret_cast<PyTracebackObject *>(at);
        Ref code(reinterpret_cast<PyObject *>(PyFrame_GetCode(tb->tb_frame)));
        auto *c = reinterpret_cast<PyCodeObject *>(code.ptr);
        const char *file = PyUnicode_AsUTF8(c->co_filename);
        if (!file) {
            PyErr_Clear();
            continue;
        }
        if (fileName != file)
            continue;
        const int line = tb->tb_lineno >= 0 ? tb->tb_lineno : PyFrame_GetLineNumber(tb->tb_frame);
        frames.push_back({line, boundedText(c->co_name, 200)});
    }
    return frames;
}

// As traceback.StackSummary.format: a line repeated more than three times in a row (recursion)
// is said once with its count.
std::string formatFrames(const std::vector<Frame> &frames, const std::string &fileName,
                         const std::string &source)
{
    constexpr int kCutoff = 3;
    const SourceLines lines(source);
    std::string text;
    const auto repeated = [&](int count) {
        if (count > kCutoff) {
            count -= kCutoff;
            text += "  [Previous line repeated " + std::to_string(count) + " more time" +
                    (count > 1 ? "s" : "") + "]\n";
        }
    };
    int count = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const Frame &frame = frames[i];
        if (i == 0 || frame.line != frames[i - 1].line || frame.name != frames[i - 1].name) {
            repeated(count);
            count = 0;
        }
        if (++count > kCutoff)
            continue;
        text += "  File \"" + fileName + "\", line " + std::to_string(frame.line) + ", in " +
                frame.name + "\n";
        if (const std::string quoted = lines.line(frame.line); !quoted.empty())
            text += "    " + quoted + "\n";
        if (text.size() > kMostTracebackCharacters)
            break;
    }
    repeated(count);
    return text;
}

// Its __notes__ (Python 3.11's add_note), one per line, as format_exception_only adds them.
std::string notesOf(PyObject *exception)
{
    if (!PyExceptionInstance_Check(exception))
        return {};
    PyObject *dict = PyObject_GenericGetDict(exception, nullptr);
    Ref owned(dict);
    if (!dict) {
        PyErr_Clear();
        return {};
    }
    PyObject *notes = PyDict_GetItemString(dict, "__notes__"); // borrowed
    if (!notes || !(PyList_CheckExact(notes) || PyTuple_CheckExact(notes)))
        return {};
    Ref items(PySequence_Tuple(notes));
    if (!items.ptr) {
        PyErr_Clear();
        return {};
    }
    std::string text;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items.ptr) && i < 100; ++i)
        text += "\n" + boundedStr(PyTuple_GET_ITEM(items.ptr, i), "<note str() failed>");
    return text;
}

int intAttribute(PyObject *object, const char *name)
{
    Ref value(PyObject_GetAttrString(object, name));
    if (!value.ptr || !PyLong_Check(value.ptr)) {
        PyErr_Clear();
        return 0;
    }
    int overflow = 0;
    const long number = PyLong_AsLongAndOverflow(value.ptr, &overflow);
    if (overflow || number < INT_MIN || number > INT_MAX) {
        PyErr_Clear();
        return 0;
    }
    return int(number);
}

} // namespace

std::string boundedText(PyObject *text, std::size_t most)
{
    if (!text || !PyUnicode_Check(text))
        return {};
    const Py_ssize_t length = PyUnicode_GetLength(text);
    if (length < 0) {
        PyErr_Clear();
        return {};
    }
    Ref piece(std::size_t(length) > most ? PyUnicode_Substring(text, 0, Py_ssize_t(most))
                                         : (Py_INCREF(text), text));
    // Lone surrogates ("\ud800") are not UTF-8: written as \ud800.
    Ref bytes(piece.ptr ? PyUnicode_AsEncodedString(piece.ptr, "utf-8", "backslashreplace")
                        : nullptr);
    if (!bytes.ptr) {
        PyErr_Clear();
        return "<text that could not be read>";
    }
    std::string out(PyBytes_AS_STRING(bytes.ptr), std::size_t(PyBytes_GET_SIZE(bytes.ptr)));
    if (std::size_t(length) > most)
        out += " " + cutNote(most, std::size_t(length) - most);
    return out;
}

std::string boundedStr(PyObject *value, const char *failed)
{
    Ref text(PyObject_Str(value));
    if (!text.ptr) {
        PyErr_Clear();
        return failed;
    }
    return boundedText(text.ptr);
}

std::string boundedRepr(PyObject *value, std::size_t most)
{
    Ref text(PyObject_Repr(value));
    if (!text.ptr) {
        PyErr_Clear();
        return "<an object whose repr() failed>";
    }
    return boundedText(text.ptr, most);
}

LearnerException describeLearnerException(PyObject *exception, const std::string &fileName,
                                          const std::string &source)
{
    LearnerException out;
    const std::vector<Frame> frames = learnerFrames(exception, fileName);
    out.line = frames.empty() ? 0 : frames.back().line;
    const std::string type = typeQualifiedName(Py_TYPE(exception));
    const std::string value = boundedStr(exception, "<exception str() failed>");
    out.message = stripped(value.empty() ? type : type + ": " + value);
    out.message += notesOf(exception);
    std::string text =
        "Traceback (most recent call last):\n" + formatFrames(frames, fileName, source);
    if (text.size() > kMostTracebackCharacters)
        text = text.substr(0, kMostTracebackCharacters) + "\n  " +
               cutNote(kMostTracebackCharacters, text.size() - kMostTracebackCharacters) + "\n";
    out.traceback = text + out.message;
    PyErr_Clear();
    return out;
}

LearnerSyntaxError describeSyntaxError(PyObject *exception)
{
    LearnerSyntaxError out;
    out.line = intAttribute(exception, "lineno");
    out.column = intAttribute(exception, "offset");
    const char *name = Py_TYPE(exception)->tp_name;
    if (const char *dot = std::strrchr(name, '.'))
        name = dot + 1;
    Ref msg(PyObject_GetAttrString(exception, "msg"));
    const std::string said = msg.ptr ? boundedStr(msg.ptr, "<msg str() failed>") : "None";
    PyErr_Clear();
    out.message = std::string(name) + ": " + said + " (line " + std::to_string(out.line) +
                  ", column " + std::to_string(out.column) + ")";
    Ref text(PyObject_GetAttrString(exception, "text"));
    if (text.ptr && PyUnicode_Check(text.ptr))
        if (const std::string line = stripped(boundedText(text.ptr)); !line.empty())
            out.message += "\n    " + line;
    PyErr_Clear();
    return out;
}

int suspendedLine(PyObject *coroutine, const std::string &fileName)
{
    int line = 0;
    PyObject *current = coroutine;
    Ref held(nullptr);
    // Only Python's own coroutines and generators: an awaitable of the learner's has attributes
    // its code answers.
    while (current && (PyCoro_CheckExact(current) || PyGen_CheckExact(current))) {
        const bool coro = PyCoro_CheckExact(current);
        Ref frame(PyObject_GetAttrString(current, coro ? "cr_frame" : "gi_frame"));
        if (!frame.ptr || !PyFrame_Check(frame.ptr))
            break;
        auto *f = reinterpret_cast<PyFrameObject *>(frame.ptr);
        Ref code(reinterpret_cast<PyObject *>(PyFrame_GetCode(f)));
        const char *file =
            PyUnicode_AsUTF8(reinterpret_cast<PyCodeObject *>(code.ptr)->co_filename);
        if (!file || fileName != file)
            break;
        line = PyFrame_GetLineNumber(f);
        PyObject *next = PyObject_GetAttrString(current, coro ? "cr_await" : "gi_yieldfrom");
        Py_XDECREF(held.ptr);
        held.ptr = next;
        current = next;
    }
    PyErr_Clear();
    return line;
}

} // namespace rankstep::python
