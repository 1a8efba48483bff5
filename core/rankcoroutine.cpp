// SPDX-License-Identifier: MIT
#include "rankcoroutine.h"

namespace rankstep::core {

void RankTask::promise_type::unhandled_exception()
{
    try {
        throw;
    } catch (const RankFailure &failure) {
        error = failure.error();
    } catch (const std::exception &e) {
        error = Error{ErrorKind::Exception, -1, 0, e.what()};
    }
}

RankTask &RankTask::operator=(RankTask &&other) noexcept
{
    if (this != &other) {
        if (m_handle)
            m_handle.destroy();
        m_handle = std::exchange(other.m_handle, {});
    }
    return *this;
}

RankTask::~RankTask()
{
    if (m_handle)
        m_handle.destroy();
}

ProgramStep CoroutineProgram::resume()
{
    auto handle = m_task.handle();
    if (!handle || handle.done())
        return {ProgramStep::Finished, std::nullopt};
    handle.resume();
    if (!handle.done())
        return {ProgramStep::Suspended, std::nullopt};
    if (handle.promise().error)
        return {ProgramStep::Failed, handle.promise().error};
    return {ProgramStep::Finished, std::nullopt};
}

Object CommAwaiter::await_resume() const
{
    if (m_engine->fatalError())
        throw RankFailure(*m_engine->fatalError());
    Payload result = m_engine->takeResult(m_rank);
    if (auto *object = std::get_if<Object>(&result))
        return std::move(*object);
    return Object{};
}

} // namespace rankstep::core
