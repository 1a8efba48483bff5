// SPDX-License-Identifier: MIT
#pragma once

#include "engine.h"

#include <coroutine>
#include <exception>
#include <optional>
#include <source_location>
#include <utility>

namespace rankstep::core {

// Thrown inside a C++ rank coroutine when an operation fails; the coroutine's promise turns it
// back into an Error value, so it never crosses the program boundary.
class RankFailure : public std::exception
{
public:
    explicit RankFailure(Error error) : m_error(std::move(error)) {}
    const Error &error() const { return m_error; }
    const char *what() const noexcept override { return m_error.message.c_str(); }

private:
    Error m_error;
};

// The return type of a C++ rank program: `RankTask myRank(Model &m) { co_await ...; }`.
class RankTask
{
public:
    struct promise_type {
        std::optional<Error> error;
        RankTask get_return_object()
        {
            return RankTask(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception();
    };

    RankTask(RankTask &&other) noexcept : m_handle(std::exchange(other.m_handle, {})) {}
    RankTask &operator=(RankTask &&other) noexcept;
    RankTask(const RankTask &) = delete;
    RankTask &operator=(const RankTask &) = delete;
    ~RankTask();

    std::coroutine_handle<promise_type> handle() const { return m_handle; }

private:
    explicit RankTask(std::coroutine_handle<promise_type> handle) : m_handle(handle) {}
    std::coroutine_handle<promise_type> m_handle;
};

// Adapts a RankTask to the scheduler.
class CoroutineProgram : public RankProgram
{
public:
    explicit CoroutineProgram(RankTask task) : m_task(std::move(task)) {}
    ProgramStep resume() override;

private:
    RankTask m_task;
};

// What `co_await model.allreduce(...)` waits on. Resumes with the operation's result.
class CommAwaiter
{
public:
    CommAwaiter(Engine &engine, int rank) : m_engine(&engine), m_rank(rank) {}
    bool await_ready() const { return m_engine->resultReady(m_rank); }
    void await_suspend(std::coroutine_handle<>) const {}
    Object await_resume() const;

private:
    Engine *m_engine;
    int m_rank;
};

} // namespace rankstep::core
