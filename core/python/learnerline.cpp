// SPDX-License-Identifier: MIT
// The learner's current line, asked for on every operation a rank makes. Decoding a code object's
// line table costs a scan per call (a fifth of a large run's time), so each (code object,
// instruction offset) is resolved once and remembered; the line is the one PyFrame_GetLineNumber
// gives.
#include "session.h"

#include <unordered_map>
#include <vector>

namespace rankstep::python {
namespace {

struct CodeLines {
    bool learner = false;   // the code object belongs to the learner's file
    std::vector<int> lines; // by instruction offset / 2 + 1 (offset -1 first); 0: not resolved yet
};

// The cached code objects are held (a reference each) so that their addresses stay theirs.
struct LineCache {
    std::string fileName;
    std::unordered_map<PyCodeObject *, CodeLines> codes;
    PyCodeObject *lastCode = nullptr;
    CodeLines *lastLines = nullptr;

    void clear()
    {
        for (auto &entry : codes)
            Py_DECREF(reinterpret_cast<PyObject *>(entry.first));
        codes.clear();
        lastCode = nullptr;
        lastLines = nullptr;
    }

    CodeLines &lookup(PyCodeObject *code)
    {
        if (code == lastCode)
            return *lastLines;
        auto [it, inserted] = codes.try_emplace(code);
        if (inserted) {
            Py_INCREF(reinterpret_cast<PyObject *>(code));
            const char *name = PyUnicode_AsUTF8(code->co_filename);
            if (!name)
                PyErr_Clear();
            it->second.learner = name && fileName == name;
        }
        lastCode = code;
        lastLines = &it->second;
        return it->second;
    }
};

LineCache &lineCache()
{
    static LineCache *cache = new LineCache; // never destroyed: may outlive the interpreter
    return *cache;
}

int cachedLine(CodeLines &entry, PyFrameObject *frame, PyCodeObject *code)
{
    const int lasti = PyFrame_GetLasti(frame); // bytes; -1 before the first instruction
    const std::size_t slot = lasti < 0 ? 0 : std::size_t(lasti / 2 + 1);
    if (slot >= entry.lines.size())
        entry.lines.resize(slot + 1, 0);
    if (entry.lines[slot] == 0)
        entry.lines[slot] = PyCode_Addr2Line(code, lasti);
    return entry.lines[slot];
}

} // namespace

void clearLineCache()
{
    lineCache().clear();
}

int learnerLine(const std::string &fileName)
{
    LineCache &cache = lineCache();
    if (cache.fileName != fileName) {
        cache.clear();
        cache.fileName = fileName;
    }
    // A trace function may set a frame's line itself: then ask the frame.
    const bool tracing = PyThreadState_Get()->cframe->use_tracing != 0;
    PyFrameObject *frame = PyEval_GetFrame(); // borrowed
    Py_XINCREF(frame);
    while (frame) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        CodeLines &entry = cache.lookup(code);
        if (entry.learner) {
            const int line =
                tracing ? PyFrame_GetLineNumber(frame) : cachedLine(entry, frame, code);
            Py_DECREF(code);
            Py_DECREF(frame);
            return line;
        }
        Py_DECREF(code);
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    PyErr_Clear();
    return 0;
}

} // namespace rankstep::python
