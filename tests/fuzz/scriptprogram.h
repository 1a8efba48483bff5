// SPDX-License-Identifier: MIT
// A rank program that interprets fuzz bytes as calls of the engine's operation API: the core
// fuzzer's stand-in for a learner's coroutine. Every call goes through the public Engine API.
#pragma once

#include "core/engine.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankstep::fuzz {

// One call: `op` picks the operation, `args` its arguments (layer, batches, object, group, ...).
// Eight bytes in the fuzz input: rank, op, then six argument bytes (see corefuzzer.cpp).
struct Instruction {
    std::uint8_t op = 0;
    std::array<std::uint8_t, 6> args{};
};

// What a program did, for the invariants checked after the run.
struct ProgramCounts {
    int computeOk = 0;    // forward, backward, loss, update that succeeded (one event each)
    int passOk = 0;       // pass_to that succeeded (one event each)
    int resultsTaken = 0; // collectives and receives whose result the rank took
};

class ScriptProgram : public core::RankProgram
{
public:
    ScriptProgram(core::Engine &engine, int rank, std::vector<Instruction> script);

    core::ProgramStep resume() override;
    const ProgramCounts &counts() const { return m_counts; }

private:
    enum class Next { Continue, Suspend, Fail };

    Next execute(const Instruction &in);
    Next executeCompute(const Instruction &in);
    Next executeStorage(const Instruction &in);
    Next executeCommunication(const Instruction &in);
    Next afterStatus(const core::Status &status, const Instruction &in);
    Next afterStart(const core::Status &status, const Instruction &in);
    void takeResult();

    core::CallSite at() const { return core::CallSite{m_rank, int(m_next)}; }
    int layer(std::uint8_t byte) const;
    core::IndexSet batches(std::uint8_t byte) const;
    std::vector<int> group(std::uint8_t mask, std::uint8_t flags) const;
    core::Key key(std::uint8_t a, std::uint8_t b) const;
    const core::Object &object(std::uint8_t byte);
    core::Payload payload(std::uint8_t choice, std::uint8_t byte);
    void keep(core::Object object);

    core::Engine &m_engine;
    int m_rank;
    std::vector<Instruction> m_script;
    std::size_t m_next = 0;
    bool m_waiting = false;
    std::vector<core::Object> m_pool; // objects the rank holds, newest last
    ProgramCounts m_counts;
    core::Error m_error;
};

} // namespace rankstep::fuzz
