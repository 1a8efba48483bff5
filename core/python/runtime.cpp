// SPDX-License-Identifier: MIT
// The embedded interpreter and the run of a learner's file: compile, execute, drive one Python
// coroutine per rank on the engine's scheduler, stop runaway code, turn exceptions into Errors.
#include "runtime.h"

#include "embeddedmodules.h"
#include "heldoutside.h"
#include "learnererror.h"
#include "outputcapture.h"
#include "session.h"
#include "sourcetext.h"

#include "core/sentences.h"

#include <pybind11/embed.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

namespace rankstep::python {
namespace {

// Why the watchdog stops a run: on request (Esc), or at the time limit (timeLimitSeconds > 0),
// where the message asks whether a loop runs forever.
struct StopCause {
    std::string reason = core::sentence::kOnRequest;
    double timeLimitSeconds = 0;
};

std::once_flag g_started;
// The support module, held here and taken out of sys.modules once loaded: learner code that sets
// sys.modules['_rankstep_support'] = None (or changes the module) must not break the runner.
PyObject *g_support = nullptr;

py::module_ supportModule()
{
    return py::reinterpret_borrow<py::module_>(g_support);
}

void startInterpreter()
{
#ifdef RANKSTEP_PYTHON_MALLOC
    // Sanitizer builds: every Python object from malloc, not from pymalloc's mmap'ed arenas, so
    // AddressSanitizer checks accesses to them and LeakSanitizer sees what they keep alive.
    PyPreConfig preconfig;
    PyPreConfig_InitIsolatedConfig(&preconfig);
    preconfig.allocator = PYMEM_ALLOCATOR_MALLOC;
    if (PyStatus status = Py_PreInitialize(&preconfig); PyStatus_Exception(status))
        Py_ExitStatusException(status);
#endif
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    PyConfig_SetBytesString(&config, &config.program_name, RANKSTEP_SYSTEM_PYTHON);
    config.install_signal_handlers = 0;
    config.write_bytecode = 0;
    py::initialize_interpreter(&config, 0, nullptr, false);
    {
        py::module_ sys = py::module_::import("sys");
        py::module_ types = py::module_::import("types");
        py::object builtins = py::module_::import("builtins");
        for (const EmbeddedModule &embedded : embeddedModules()) {
            py::object module = types.attr("ModuleType")(embedded.name);
            module.attr("__file__") = std::string("<rankstep:") + embedded.name + ">";
            // The support module looks builtins up in a copy of its own: learner code that
            // replaces builtins.compile or builtins.len does not reach the runner's own calls.
            if (std::string_view(embedded.name) == "_rankstep_support")
                module.attr("__dict__")["__builtins__"] = builtins.attr("__dict__").attr("copy")();
            sys.attr("modules")[embedded.name] = module;
            py::object code =
                builtins.attr("compile")(embedded.source, module.attr("__file__"), "exec");
            builtins.attr("exec")(code, module.attr("__dict__"));
        }
        g_support = py::object(sys.attr("modules")["_rankstep_support"]).release().ptr();
        sys.attr("modules").attr("pop")("_rankstep_support");
    }
    PyEval_SaveThread(); // the GIL is taken by each entry point
}

// The engine's own allocation failed between two of the learner's calls (the scheduler's record
// of a resumption, a collective's events): the run's size is to blame, as for
// EngineMemoryError. Thrown out of the run so its memory is freed before the message is made.
struct RunTooLarge {};

core::Trace failedTrace(const core::RunConfig &config, core::Error error)
{
    core::Trace trace;
    trace.config = config;
    trace.finalWeights.resize(std::size_t(std::max(config.ranks, 0)));
    trace.figures = core::computeFigures({}, config.ranks);
    trace.check = core::checkFinalWeights(trace.finalWeights, config.layers);
    trace.status =
        error.kind == core::ErrorKind::Stopped ? core::RunStatus::Stopped : core::RunStatus::Error;
    trace.error = std::move(error);
    return trace;
}

// The learner's file, for the lines an error names and its traceback quotes.
struct LearnerFile {
    const std::string &name;
    const std::string &source;
};

std::string stopMessage(int rank, int line, const StopCause &stop)
{
    namespace sentence = core::sentence;
    const std::string atRank = std::to_string(rank), atLine = std::to_string(line);
    const double limit = stop.timeLimitSeconds;
    const std::string seconds = core::formatStopSeconds(limit);
    if (rank >= 0)
        return limit > 0 ? core::say(sentence::kTimeLimitWhileRank, {seconds, atRank, atLine})
                         : core::say(sentence::kStoppedWhileRank, {stop.reason, atRank, atLine});
    if (line > 0)
        return limit > 0 ? core::say(sentence::kTimeLimitWhileLoading, {seconds, atLine})
                         : core::say(sentence::kStoppedWhileLoading, {stop.reason, atLine});
    return core::say(sentence::kStoppedWhileCompiling, {stop.reason}); // no loop of theirs yet
}

// Turns the Python exception in flight into an Error for `rank` (-1: top-level code). `stopped`:
// the time limit or a stop request came first, so whatever the code raised after catching the
// stop, the run was stopped (docs/hostile-input.md). Made in C++ (learnererror.h): nothing the
// learner's code patched takes part, and nothing of it makes this fail.
core::Error describeError(py::error_already_set &e, int rank, const LearnerFile &file,
                          const core::Engine *engine, const StopCause &stop, bool stopped)
{
    PyObject *value = e.value().ptr();
    if (e.matches(PyExc_SyntaxError) && !stopped) {
        const LearnerSyntaxError syntax = describeSyntaxError(value);
        core::Error error(core::ErrorKind::Syntax, rank, syntax.line, syntax.message);
        error.column = syntax.column;
        return error;
    }
    if (e.trace())
        PyException_SetTraceback(value, e.trace().ptr());
    const LearnerException info = describeLearnerException(value, file.name, file.source);
    if (e.matches(runStoppedType()) || stopped) {
        if (engine && engine->fatalError())
            return *engine->fatalError();
        return core::Error(core::ErrorKind::Stopped, rank, info.line,
                           stopMessage(rank, info.line, stop));
    }
    std::string message = info.message;
    core::ErrorKind kind = core::ErrorKind::Exception;
    // The run's size is to blame, not a line or a rank: the same words, with no rank, as when the
    // cap is met outside any rank's code (RunTooLarge below). Which of the two meets it depends
    // on when the blocks made ahead on another thread arrive, so naming the rank here made the
    // same run say two things.
    if (e.matches(engineMemoryErrorType()) && engine)
        return core::Error(core::ErrorKind::Exception, -1, 0, runTooLargeMessage(engine->config()));
    if (e.matches(PyExc_MemoryError)) {
        message = outOfMemoryMessage();
    } else if (e.matches(puzzleErrorType())) {
        kind = core::ErrorKind::Check;
        message = boundedStr(value);
    } else if (message.find("no running event loop") != std::string::npos) {
        message =
            "This line awaits something of asyncio, which does not run here: ranks run on "
            "Rankstep's own scheduler. A rank may await only the model's allreduce, "
            "allgather, scatterreduce, alltoall, pass_to and receive, the handles their _start "
            "forms "
            "return, or async helpers of yours that await those.";
    }
    core::Error error(kind, rank, info.line, std::move(message));
    error.traceback = info.traceback;
    return error;
}

core::Error errorFromPython(py::error_already_set &e, int rank, const LearnerFile &file,
                            const core::Engine *engine, const StopCause &stop, bool stopped)
{
    try {
        return describeError(e, rank, file, engine, stop, stopped);
    } catch (const std::bad_alloc &) {
        PyErr_Clear();
        return core::Error(core::ErrorKind::Exception, rank, 0, outOfMemoryMessage());
    } catch (...) {
        // Nothing above should throw; if it does, it is still the learner's exception.
        PyErr_Clear();
        return core::Error(core::ErrorKind::Exception, rank, 0,
                           "The code raised an exception that Rankstep could not describe.");
    }
}

// Calls the learner's function for one rank; drives the coroutine it returns.
class PythonProgram : public core::RankProgram
{
public:
    PythonProgram(py::object function, py::object model, int rank, const core::Engine &engine,
                  const LearnerFile &file, const StopCause &stop)
        : m_function(std::move(function))
        , m_model(std::move(model))
        , m_rank(rank)
        , m_engine(engine)
        , m_file(file)
        , m_stop(stop)
    {}

    core::ProgramStep resume() override
    {
        if (!m_started) {
            m_started = true;
            try {
                py::object result = m_function(m_model);
                if (!PyCoro_CheckExact(result.ptr()))
                    return {core::ProgramStep::Finished, std::nullopt};
                m_coroutine = std::move(result);
            } catch (py::error_already_set &e) {
                return failed(e);
            }
        }
        PyObject *out = nullptr;
        const PySendResult sent = PyIter_Send(m_coroutine.ptr(), Py_None, &out);
        if (sent == PYGEN_RETURN) {
            Py_XDECREF(out);
            return {core::ProgramStep::Finished, std::nullopt};
        }
        if (sent == PYGEN_NEXT) {
            py::object yielded = py::reinterpret_steal<py::object>(out);
            if (isWaiterOf(yielded, m_rank))
                return {core::ProgramStep::Suspended, std::nullopt};
            return foreignAwait(yielded);
        }
        py::error_already_set e;
        return failed(e);
    }

private:
    core::ProgramStep failed(py::error_already_set &e)
    {
        return {core::ProgramStep::Failed,
                errorFromPython(e, m_rank, m_file, &m_engine, m_stop, m_engine.stopRequested())};
    }

    core::ProgramStep foreignAwait(const py::object &yielded)
    {
        const int line = suspendedLine(m_coroutine.ptr(), m_file.name);
        const std::string what = yielded.is_none() ? std::string("a bare yield (asyncio.sleep(0)?)")
                                                   : boundedRepr(yielded.ptr(), 200);
        return {
            core::ProgramStep::Failed,
            core::Error(core::ErrorKind::Exception, m_rank, line,
                        "Line " + std::to_string(line) + " awaits " + what +
                            ", which Rankstep does not simulate. A rank may await only the "
                            "model's allreduce, allgather, scatterreduce, alltoall, "
                            "pass_to and receive, the handles their _start forms return, or async "
                            "helpers of yours that await those.")};
    }

    py::object m_function;
    py::object m_model;
    py::object m_coroutine;
    int m_rank;
    const core::Engine &m_engine;
    LearnerFile m_file;
    const StopCause &m_stop;
    bool m_started = false;
};

} // namespace

namespace {

// Set from the stop until the run's end: stopEveryLine raises RunStopped at every line and call of
// Python code, so that code catching the stop (`except BaseException`) gets it again at its next
// line, in the handler itself, and leaves any number of nested handlers one by one.
std::atomic<bool> g_stopEveryLine = false;

int stopEveryLine(PyObject *, PyFrameObject *, int what, PyObject *)
{
    if (!g_stopEveryLine.load(std::memory_order_relaxed) ||
        (what != PyTrace_LINE && what != PyTrace_CALL))
        return 0;
    PyErr_SetNone(runStoppedType());
    return -1;
}

// Sets the trace function of the thread `state` (null: none), as Python 3.12's
// threading.settrace_all_threads does; the caller holds the GIL, so that thread runs no code.
void setTrace(PyThreadState *state, Py_tracefunc function)
{
    if (_PyEval_SetTrace(state, function, nullptr) == 0)
        return;
    // An audit hook of the learner's refused "sys.settrace": what _PyEval_SetTrace does without
    // the hook (Python 3.11's fields; learnerline.cpp reads use_tracing too).
    PyErr_Clear();
    PyObject *old = state->c_traceobj;
    state->c_traceobj = nullptr;
    state->c_tracefunc = function;
    state->cframe->use_tracing = function || state->c_profilefunc ? 255 : 0;
    Py_XDECREF(old);
}

} // namespace

struct Runtime::Impl {
    std::mutex runMutex; // one run at a time
    std::mutex stateMutex;
    std::condition_variable wake;
    bool running = false;
    bool stopRequested = false;
    StopCause stop;
    core::Engine *engine = nullptr;
    unsigned long pythonThread = 0;
    PyThreadState *pythonState = nullptr; // the thread that runs the learner's code
    bool everyLine = false;               // with the GIL: the stop's trace function is set

    void watch(double seconds);
    core::Trace execute(const RunRequest &request);
    bool stopped()
    {
        std::lock_guard lock(stateMutex);
        return stopRequested;
    }
};

namespace {

// Guards one run from its first line of learner code to its end; see Runtime::Impl::watch.
class Watchdog
{
public:
    Watchdog(Runtime::Impl &impl, double seconds) : m_impl(impl)
    {
        {
            std::lock_guard lock(impl.stateMutex);
            impl.running = true;
            impl.stopRequested = false;
            impl.stop = StopCause{};
            impl.engine = nullptr;
            impl.pythonThread = PyThread_get_thread_ident();
            impl.pythonState = PyThreadState_Get();
        }
        m_thread = std::thread([&impl, seconds] { impl.watch(seconds); });
    }
    Watchdog(const Watchdog &) = delete;
    Watchdog &operator=(const Watchdog &) = delete;
    ~Watchdog()
    {
        {
            std::lock_guard lock(m_impl.stateMutex);
            m_impl.running = false;
            m_impl.engine = nullptr;
        }
        m_impl.wake.notify_all();
        {
            py::gil_scoped_release release;
            m_thread.join();
        }
        PyThreadState_SetAsyncExc(m_impl.pythonThread, nullptr); // drop a stop that came too late
        g_stopEveryLine.store(false, std::memory_order_relaxed);
        if (m_impl.everyLine) {
            m_impl.everyLine = false;
            setTrace(PyThreadState_Get(), nullptr);
        }
    }
    void watchEngine(core::Engine &engine)
    {
        std::lock_guard lock(m_impl.stateMutex);
        m_impl.engine = &engine;
    }

private:
    Runtime::Impl &m_impl;
    std::thread m_thread;
};

} // namespace

Runtime::Runtime() : m_impl(std::make_unique<Impl>())
{
    std::call_once(g_started, startInterpreter);
}

Runtime::~Runtime() = default;

namespace {

// CPython runs a code object's bytes as they are: a LOAD_CONST whose index reaches past its
// constants hands out any pointer as an object, which is all it takes to read and write the
// whole process (a bytearray laid over memory), as ctypes would. Code made by `compile` is
// checked by the compiler; code made from bytes (types.CodeType, code.replace, marshal.loads)
// is not, so it is refused.
//
// One caller may: types.coroutine (asyncio uses it as its modules load) copies a function's own
// code with one more flag and no other change, which runs nothing new.
PyObject *g_coroutineCode = nullptr; // types.coroutine's code object

bool calledByTypesCoroutine()
{
    PyFrameObject *frame = PyEval_GetFrame(); // borrowed
    if (!frame || !g_coroutineCode)
        return false;
    PyCodeObject *code = PyFrame_GetCode(frame); // new reference
    const bool same = reinterpret_cast<PyObject *>(code) == g_coroutineCode;
    Py_DECREF(code);
    return same;
}

int refuseCodeFromBytes(const char *event, PyObject *, void *)
{
    const std::string_view name(event);
    if (name != "code.__new__" && name != "marshal.loads" && name != "marshal.load")
        return 0;
    if (name == "code.__new__" && calledByTypesCoroutine())
        return 0;
    PyErr_SetString(PyExc_RuntimeError,
                    "code objects cannot be made from bytes in a Rankstep run (types.CodeType, "
                    "code.replace, marshal): bytecode made by hand can read and write the "
                    "memory of the process that runs it (and forge the run's result), so the "
                    "sandbox refuses it; compile() and exec() of source work");
    return -1;
}

} // namespace

void Runtime::refuseCodeMadeFromBytes(const std::string &folder)
{
    py::gil_scoped_acquire gil;
    // Imports from here on compile the standard library's source instead of loading its cached
    // bytecode (marshal.loads): the cache is looked for in a folder that holds none.
    py::module_ sys = py::module_::import("sys");
    sys.attr("pycache_prefix") = folder + "/.no-pycache";
    sys.attr("dont_write_bytecode") = true;
    g_coroutineCode =
        py::object(py::module_::import("types").attr("coroutine").attr("__code__")).release().ptr();
    if (PySys_AddAuditHook(refuseCodeFromBytes, nullptr) != 0)
        throw py::error_already_set();
}

void Runtime::requestStop()
{
    std::lock_guard lock(m_impl->stateMutex);
    if (m_impl->running && !m_impl->stopRequested) {
        m_impl->stopRequested = true;
        m_impl->stop = StopCause{};
    }
    m_impl->wake.notify_all();
}

// Runs beside the Python thread: at the time limit or a stop request it stops the engine and
// raises RunStopped in the learner's code, again and again until the run has ended (a bare
// `except:` may swallow one).
void Runtime::Impl::watch(double seconds)
{
    std::unique_lock lock(stateMutex);
    const auto limit = std::chrono::milliseconds(seconds > 0 ? std::int64_t(seconds * 1000)
                                                             : std::int64_t(1) << 40);
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (running && !stopRequested)
        if (wake.wait_until(lock, deadline) == std::cv_status::timeout && running &&
            !stopRequested) {
            stopRequested = true;
            stop.reason =
                core::say(core::sentence::kAtTimeLimit, {core::formatStopSeconds(seconds)});
            stop.timeLimitSeconds = seconds;
        }
    while (running) {
        if (engine)
            engine->requestStop(stop.reason, stop.timeLimitSeconds);
        lock.unlock();
        PyGILState_STATE gil = PyGILState_Ensure();
        lock.lock();
        if (running) {
            PyThreadState_SetAsyncExc(pythonThread, runStoppedType());
            if (!everyLine) {
                everyLine = true;
                g_stopEveryLine.store(true, std::memory_order_relaxed);
                setTrace(pythonState, &stopEveryLine);
            }
        }
        lock.unlock();
        PyGILState_Release(gil);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        lock.lock();
    }
}

RunOutcome Runtime::run(const RunRequest &request)
{
    std::lock_guard runLock(m_impl->runMutex);
    py::gil_scoped_acquire gil;
    RunOutcome outcome;
    OutputCapture *captured = nullptr;
    py::object capture = makeOutputCapture(request.echoOutput, &captured);
    // Through the interpreter's own sys dict, never through sys.modules['sys'], which the
    // learner's code may replace.
    const char *streams[] = {"stdout", "stderr", "__stdout__", "__stderr__"};
    std::vector<py::object> old;
    for (const char *stream : streams) {
        PyObject *was = PySys_GetObject(stream); // borrowed, may be null
        old.push_back(py::reinterpret_borrow<py::object>(was ? was : Py_None));
        PySys_SetObject(stream, capture.ptr());
    }
    try {
        outcome.trace = m_impl->execute(request);
    } catch (const RunTooLarge &) {
        outcome.trace = failedTrace(
            request.config,
            core::Error(core::ErrorKind::Exception, -1, 0, runTooLargeMessage(request.config)));
    } catch (const std::bad_alloc &) {
        outcome.trace = failedTrace(
            request.config, core::Error(core::ErrorKind::Exception, -1, 0, outOfMemoryMessage()));
    } catch (const std::exception &e) {
        std::string what = e.what();
        if (what.size() > kMostMessageCharacters)
            what = what.substr(0, kMostMessageCharacters) + " ...";
        PyErr_Clear();
        outcome.trace = failedTrace(request.config,
                                    core::Error(core::ErrorKind::Internal, -1, 0,
                                                std::string("Rankstep failed inside: ") + what));
    }
    for (std::size_t i = 0; i < old.size(); ++i)
        PySys_SetObject(streams[i], old[i].is_none() ? nullptr : old[i].ptr());
    // The note on dropped output, and a last line that has no newline, before the caller's output.
    captured->close();
    outcome.output = captured->text();
    return outcome;
}

core::Trace Runtime::Impl::execute(const RunRequest &request)
{
    const core::RunConfig &config = request.config;
    if (config.ranks < 1 || config.layers < 1 || config.batches < 1)
        return failedTrace(config,
                           core::Error(core::ErrorKind::Usage, -1, 0,
                                       "ranks, layers and batches must each be at least 1"));
    py::module_ support = supportModule();
    py::module_ builtins = py::module_::import("builtins");
    std::optional<core::Engine> run; // outlives the watchdog, which may point at it
    Watchdog watchdog(*this, request.timeLimitSeconds);
    if (auto notSource = checkSourceText(request.source))
        return failedTrace(config, std::move(*notSource));
    py::dict globals;
    globals["__name__"] = "__rankstep__";
    globals["__file__"] = request.fileName;
    globals["__builtins__"] = builtins;
    try {
        py::object code = support.attr("compile_source")(request.source, request.fileName);
        builtins.attr("exec")(code, globals);
    } catch (py::error_already_set &e) {
        const LearnerFile file{request.fileName, request.source};
        const bool wasStopped = stopped();
        return failedTrace(config, errorFromPython(e, -1, file, nullptr, stop, wasStopped));
    }
    // The globals' own dict lookup: the learner's code may have replaced their methods' names.
    PyObject *found = PyDict_GetItemString(globals.ptr(), request.function.c_str()); // borrowed
    py::object function = py::reinterpret_borrow<py::object>(found ? found : Py_None);
    if (found && !PyCallable_Check(found)) {
        // Defined, then bound to something else (ddp = None after the def): say so. The type's
        // name is read in C, so no code of the learner's runs for it.
        return failedTrace(config, core::Error(core::ErrorKind::Usage, -1, 0,
                                               "'" + request.function + "' in " + request.fileName +
                                                   " is not a function: the code binds the name "
                                                   "to a value of type " +
                                                   std::string(Py_TYPE(found)->tp_name) + "."));
    }
    if (!PyCallable_Check(function.ptr())) {
        std::string names;
        try {
            for (auto item : support.attr("list_functions")(request.source, request.fileName))
                names +=
                    (names.empty() ? "" : ", ") + item.cast<py::tuple>()[0].cast<std::string>();
        } catch (const std::exception &) { // the learner's code broke the ast module: no list
            PyErr_Clear();
        }
        return failedTrace(config, core::Error(core::ErrorKind::Usage, -1, 0,
                                               "There is no function named '" + request.function +
                                                   "' in " + request.fileName + ". It defines: " +
                                                   (names.empty() ? "no functions" : names) + "."));
    }

    core::Engine &world = run.emplace(config, core::RunLimits{request.maxOperations});
    watchdog.watchEngine(world);
    auto session = std::make_shared<Session>();
    session->engine = &world;
    session->fileName = request.fileName;
    core::ProgramList programs;
    const LearnerFile file{session->fileName, request.source};
    for (int r = 0; r < config.ranks; ++r)
        programs.push_back(
            std::make_unique<PythonProgram>(function, makeModel(session, r), r, world, file, stop));
    setActiveSession(session.get());
    openHeldBook(*session, world);
    try {
        world.run(programs);
    } catch (const std::bad_alloc &) {
        closeHeldBook(world);
        setActiveSession(nullptr);
        session->engine = nullptr;
        throw RunTooLarge{};
    }
    const core::HeldOutside heldOutside = closeHeldBook(world);
    setActiveSession(nullptr);
    session->engine = nullptr;
    programs.clear();
    // A model the learner's code still holds reads the final weights from its session; the copy
    // is made only for such a model (at 1024 ranks x 96 layers it is 9 MB at the run's peak).
    if (session.use_count() > 1)
        session->finalWeights = world.trace().finalWeights;
    core::Trace trace = world.takeTrace();
    trace.heldOutside = heldOutside;
    return trace;
}

core::Result<std::vector<FunctionInfo>> Runtime::listFunctions(const std::string &source,
                                                               const std::string &fileName)
{
    if (auto notSource = checkSourceText(source))
        return std::move(*notSource);
    py::gil_scoped_acquire gil;
    try {
        std::vector<FunctionInfo> found;
        for (auto item : supportModule().attr("list_functions")(source, fileName)) {
            py::tuple t = item.cast<py::tuple>();
            found.push_back({t[0].cast<std::string>(), t[1].cast<int>(), t[2].cast<bool>()});
        }
        return found;
    } catch (py::error_already_set &e) {
        return errorFromPython(e, -1, LearnerFile{fileName, source}, nullptr, StopCause{}, false);
    }
}

} // namespace rankstep::python
