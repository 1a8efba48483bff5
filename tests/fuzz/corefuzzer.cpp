// SPDX-License-Identifier: MIT
// libFuzzer target over the core's C++ API: the input decodes into one program per rank (random
// operations, layers, batches, groups, objects) that runs on the engine with a small operation
// budget. Any outcome is fine (ok, a check error, a deadlock diagnosis, a stop); a crash, UB, a
// leak, a hang or a broken invariant (below) is a finding.
//
// Input: byte 0 ranks (1-8), byte 1 layers (1-4), byte 2 batches (1-8), then 8-byte
// instructions: target rank (mod ranks), operation, six argument bytes.
// RANKSTEP_FUZZ_PRINT=1 in the environment prints each run's outcome.
#include "scriptprogram.h"
#include "traceinvariants.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using namespace rankstep;

constexpr std::size_t kMaxInstructionsPerRank = 96;
constexpr std::int64_t kMaxOperations = 400;

struct Run {
    core::Trace trace;
    std::vector<core::Storage> storages;
    std::vector<fuzz::ProgramCounts> counts;
};

Run runOnce(const core::RunConfig &config,
            const std::vector<std::vector<fuzz::Instruction>> &scripts)
{
    core::Engine engine(config, core::RunLimits{kMaxOperations});
    core::ProgramList programs;
    std::vector<fuzz::ScriptProgram *> views;
    for (int r = 0; r < config.ranks; ++r) {
        auto program = std::make_unique<fuzz::ScriptProgram>(engine, r, scripts[std::size_t(r)]);
        views.push_back(program.get());
        programs.push_back(std::move(program));
    }
    engine.run(programs);
    Run run;
    for (int r = 0; r < config.ranks; ++r) {
        run.storages.push_back(engine.storage(r));
        run.counts.push_back(views[std::size_t(r)]->counts());
    }
    run.trace = engine.takeTrace();
    return run;
}

// Memory is kept up to date incrementally: at the end it must equal the sum of the live objects
// and the replay of every change.
void checkMemory(const Run &run)
{
    const core::Sizes sizes = run.trace.config.cost.sizes;
    const std::vector<core::Storage> replayed = fuzz::replayChanges(run.trace);
    for (std::size_t r = 0; r < run.storages.size(); ++r) {
        std::int64_t sum = 0;
        for (int m = 0; m < core::kMapCount; ++m)
            for (const auto &[key, object] : run.storages[r].entries(core::MapKind(m)))
                sum += core::memoryOf(*object, sizes);
        if (sum != run.storages[r].memory() || replayed[r].memory() != sum)
            fuzz::broken("rank " + std::to_string(r) + " memory is not the sum of its objects");
    }
}

// Compute and pass_to events are exactly the calls that succeeded; a wait ends in one event,
// taken by the rank unless the run ended first.
void checkEvents(const Run &run)
{
    fuzz::checkTrace(run.trace);
    const std::size_t ranks = run.counts.size();
    std::vector<int> compute(ranks), passes(ranks), waits(ranks);
    for (const core::Event &event : run.trace.events) {
        const auto r = std::size_t(event.rank);
        if (!core::isCommunication(event.op))
            ++compute[r];
        else if (event.op == core::OpKind::PassTo)
            ++passes[r];
        else
            ++waits[r];
    }
    for (std::size_t r = 0; r < ranks; ++r) {
        const fuzz::ProgramCounts &c = run.counts[r];
        const int untaken = waits[r] - c.resultsTaken;
        if (compute[r] != c.computeOk || passes[r] != c.passOk || untaken < 0 || untaken > 1)
            fuzz::broken("rank " + std::to_string(r) + " events do not match the calls it made");
    }
}

void checkSame(const Run &a, const Run &b)
{
    if (a.trace.events.size() != b.trace.events.size() ||
        a.trace.changes.size() != b.trace.changes.size() || a.trace.status != b.trace.status ||
        (a.trace.error && a.trace.error->message != b.trace.error->message))
        fuzz::broken("two runs of the same programs differ");
    for (std::size_t i = 0; i < a.trace.events.size(); ++i)
        if (a.trace.events[i].rank != b.trace.events[i].rank ||
            a.trace.events[i].start != b.trace.events[i].start)
            fuzz::broken("two runs of the same programs differ at event " + std::to_string(i));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 3)
        return 0;
    core::RunConfig config;
    config.ranks = 1 + data[0] % 8;
    config.layers = 1 + data[1] % 4;
    config.batches = 1 + data[2] % 8;
    std::vector<std::vector<fuzz::Instruction>> scripts(std::size_t(config.ranks));
    for (std::size_t at = 3; at + 8 <= size; at += 8) {
        auto &script = scripts[std::size_t(data[at] % config.ranks)];
        if (script.size() == kMaxInstructionsPerRank)
            continue;
        fuzz::Instruction in;
        in.op = data[at + 1];
        std::memcpy(in.args.data(), data + at + 2, in.args.size());
        script.push_back(in);
    }
    const Run first = runOnce(config, scripts);
    static const bool print = std::getenv("RANKSTEP_FUZZ_PRINT") != nullptr;
    if (print)
        std::fprintf(stderr, "ranks %d: %zu events, %s%s %s\n", config.ranks,
                     first.trace.events.size(), core::runStatusName(first.trace.status),
                     first.trace.check.passed ? " (correct)" : "",
                     first.trace.error ? first.trace.error->message.c_str() : "");
    checkMemory(first);
    checkEvents(first);
    checkSame(first, runOnce(config, scripts));
    return 0;
}
