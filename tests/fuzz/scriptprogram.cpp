// SPDX-License-Identifier: MIT
#include "scriptprogram.h"

#include "traceinvariants.h"

#include <utility>

namespace rankstep::fuzz {

using core::MapKind;
using core::Object;
using core::ProgramStep;

namespace {
constexpr std::size_t kPoolLimit = 16;
constexpr int kGroupFlagDuplicate = 0x80; // repeat the first member: an invalid group
constexpr int kGroupFlagOutside = 0x40;   // add a rank the run does not have
} // namespace

ScriptProgram::ScriptProgram(core::Engine &engine, int rank, std::vector<Instruction> script)
    : m_engine(engine), m_rank(rank), m_script(std::move(script))
{}

ProgramStep ScriptProgram::resume()
{
    if (m_waiting) {
        m_waiting = false;
        // As CommAwaiter: a run that ended while the rank waited ends the rank with its error.
        if (m_engine.fatalError())
            return {ProgramStep::Failed, *m_engine.fatalError()};
        takeResult();
    }
    while (m_next < m_script.size()) {
        const Instruction &in = m_script[m_next++];
        switch (execute(in)) {
            case Next::Continue:
                break;
            case Next::Suspend:
                m_waiting = true;
                return {ProgramStep::Suspended, std::nullopt};
            case Next::Fail:
                return {ProgramStep::Failed, m_error};
        }
    }
    return {ProgramStep::Finished, std::nullopt};
}

ScriptProgram::Next ScriptProgram::execute(const Instruction &in)
{
    const int kinds = 4;
    switch (in.op % kinds) {
        case 0:
        case 1:
            return executeCompute(in);
        case 2:
            return executeStorage(in);
        default:
            return executeCommunication(in);
    }
}

ScriptProgram::Next ScriptProgram::executeCompute(const Instruction &in)
{
    const auto &a = in.args;
    const int which = (in.op / 4) % 9;
    auto keepPair = [&](core::Result<std::pair<Object, Object>> r, bool compute) {
        if (r) {
            m_counts.computeOk += compute ? 1 : 0;
            keep(r->first);
            keep(r->second);
        }
        return afterStatus(r ? core::okStatus() : core::Status(r.error()), in);
    };
    auto keepOne = [&](core::Result<Object> r, bool compute) {
        if (r) {
            m_counts.computeOk += compute ? 1 : 0;
            keep(*r);
        }
        return afterStatus(r ? core::okStatus() : core::Status(r.error()), in);
    };
    switch (which) {
        case 0:
            return keepPair(
                m_engine.loadWeights(at(), layer(a[0]), int(a[1] % 10) - 1, int(a[2] % 10) - 1),
                false);
        case 1:
            return keepOne(m_engine.getActivation(at(), batches(a[0])), false);
        case 2:
            return keepOne(m_engine.forward(at(), layer(a[0]), object(a[1]), object(a[2])), true);
        case 3:
            return keepPair(
                m_engine.backward(at(), layer(a[0]), object(a[1]), object(a[2]), object(a[3])),
                true);
        case 4:
            return keepOne(m_engine.loss(at(), object(a[0])), true);
        case 5:
            return keepPair(
                m_engine.update(at(), layer(a[0]), object(a[1]), object(a[2]), object(a[3])), true);
        case 6:
            return keepOne(m_engine.fakeGrad(at(), layer(a[0]), batches(a[1])), false);
        case 7:
            return afterStatus(m_engine.setFinalWeight(at(), layer(a[0]), object(a[1])), in);
        default:
            return keepOne(m_engine.add(at(), object(a[0]), object(a[1])), false);
    }
}

ScriptProgram::Next ScriptProgram::executeStorage(const Instruction &in)
{
    const auto &a = in.args;
    const auto map = MapKind(a[0] % core::kMapCount);
    const core::Key k = key(a[1], a[2]);
    switch ((in.op / 4) % 4) {
        case 0:
            return afterStatus(m_engine.store(at(), map, k, object(a[3])), in);
        case 1:
            return afterStatus(m_engine.erase(at(), map, k), in);
        case 2:
            // A read, as `x = weights[k]`: what storage holds flows back into later calls.
            if (const Object *found = m_engine.storage(m_rank).find(map, k))
                keep(*found);
            return Next::Continue;
        default:
            if (a[3] % 2 == 0)
                m_engine.mark(at(), "fuzz");
            else
                m_engine.warn(at(), "fuzz");
            return Next::Continue;
    }
}

ScriptProgram::Next ScriptProgram::executeCommunication(const Instruction &in)
{
    const auto &a = in.args;
    switch ((in.op / 4) % 5) {
        case 0:
            return afterStart(
                m_engine.allreduce(at(), payload(a[0], a[1]), layer(a[2]), group(a[3], a[4])), in);
        case 1:
            return afterStart(
                m_engine.allgather(at(), payload(a[0], a[1]), layer(a[2]), group(a[3], a[4])), in);
        case 2:
            return afterStart(
                m_engine.scatterreduce(at(), payload(a[0], a[1]), layer(a[2]), group(a[3], a[4])),
                in);
        case 3: {
            const core::Status sent =
                m_engine.passTo(at(), int(a[2] % 10) - 1, payload(a[0], a[1]));
            if (!sent)
                return afterStatus(sent, in);
            // A send completes at once (its result is None) and is recorded as the send itself.
            if (!m_engine.resultReady(m_rank))
                broken("pass_to left its rank waiting");
            m_engine.takeResult(m_rank);
            ++m_counts.passOk;
            return Next::Continue;
        }
        default:
            return afterStart(
                m_engine.receive(
                    at(), a[0] % 3 == 0 ? std::nullopt : std::optional<int>(int(a[1] % 10) - 1)),
                in);
    }
}

// A failed call either ends the rank (an uncaught exception) or is ignored (a `try` around it),
// as the last argument byte says.
ScriptProgram::Next ScriptProgram::afterStatus(const core::Status &status, const Instruction &in)
{
    if (status)
        return Next::Continue;
    if (in.args[5] % 2 == 0)
        return Next::Continue;
    m_error = status.error();
    return Next::Fail;
}

ScriptProgram::Next ScriptProgram::afterStart(const core::Status &status, const Instruction &in)
{
    if (!status)
        return afterStatus(status, in);
    if (!m_engine.resultReady(m_rank))
        return Next::Suspend;
    takeResult();
    return Next::Continue;
}

void ScriptProgram::takeResult()
{
    core::Payload result = m_engine.takeResult(m_rank);
    if (auto *object = std::get_if<Object>(&result))
        keep(std::move(*object));
    ++m_counts.resultsTaken;
}

// Mostly valid: -1 and LAYERS are the off-by-one mistakes.
int ScriptProgram::layer(std::uint8_t byte) const
{
    return int(byte % (m_engine.config().layers + 2)) - 1;
}

core::IndexSet ScriptProgram::batches(std::uint8_t byte) const
{
    if (byte == 0xff)
        return core::IndexSet{1000};
    core::IndexSet set;
    for (int bit = 0; bit < 8; ++bit)
        if ((byte >> bit) & 1)
            set.insert(bit);
    return set;
}

std::vector<int> ScriptProgram::group(std::uint8_t mask, std::uint8_t flags) const
{
    std::vector<int> members;
    for (int bit = 0; bit < 8; ++bit)
        if ((mask >> bit) & 1)
            members.push_back(bit);
    if (!members.empty() && (flags & kGroupFlagDuplicate))
        members.push_back(members.front());
    if (flags & kGroupFlagOutside)
        members.push_back(flags % 2 ? -1 : m_engine.ranks());
    return members;
}

core::Key ScriptProgram::key(std::uint8_t a, std::uint8_t b) const
{
    if (b % 4 == 0)
        return core::Key(int(a % 8) - 1, int(b / 4 % 8));
    return core::Key(int(a % 8) - 1);
}

// The k-th newest object the rank holds, or a default Weight when it holds none.
const Object &ScriptProgram::object(std::uint8_t byte)
{
    if (m_pool.empty())
        m_pool.push_back(Object{});
    return m_pool[m_pool.size() - 1 - byte % m_pool.size()];
}

core::Payload ScriptProgram::payload(std::uint8_t choice, std::uint8_t byte)
{
    switch (choice % 8) {
        case 6:
            return std::monostate{};
        case 7:
            return core::Foreign{"a str", std::make_shared<int>(byte)};
        default:
            return object(byte);
    }
}

void ScriptProgram::keep(Object object)
{
    if (m_pool.size() == kPoolLimit)
        m_pool.erase(m_pool.begin());
    m_pool.push_back(std::move(object));
}

} // namespace rankstep::fuzz
