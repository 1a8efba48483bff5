// SPDX-License-Identifier: MIT
// judge(), the one definition of "solved", on lessons and traces built by hand.
#include "core/lessons/lesson.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::lessons {
namespace {

core::SimTime steps(const char *text)
{
    return core::SimTime::parse(text).value();
}

Lesson ddpLesson()
{
    Lesson lesson;
    lesson.id = "ddp";
    lesson.folder = "30-ddp";
    lesson.function = "ddp";
    lesson.targets = Targets{steps("5.1"), 1835008};
    return lesson;
}

// A run that finished and passed the check at the given figures.
core::Trace finishedRun(const char *timesteps, std::int64_t maxMemory)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.check = {true, "Correct!"};
    trace.figures.hasEvents = true;
    trace.figures.timesteps = steps(timesteps);
    trace.figures.maxMemory = maxMemory;
    return trace;
}

core::Object activationOfBatches(int batches)
{
    core::Object object;
    object.kind = core::ObjectKind::Activation;
    object.batches = core::IndexSet::range(0, batches);
    return object;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST(Verdict, SolvedAtExactlyTheTargets)
{
    const Verdict v = judge(ddpLesson(), finishedRun("5.1", 1835008));

    EXPECT_TRUE(v.solved);
    EXPECT_TRUE(v.finished && v.checkPassed && v.timeMet && v.memoryMet);
    EXPECT_EQ(v.summary, "Solved!");
}

// A trace (a demonstration, a trace file) whose costs are called "notebook" but are not its
// numbers is not graded, and its summary does not say the notebook's costs were used.
TEST(Verdict, CostsNamedNotebookWithOtherNumbersAreSaidToBeChanged)
{
    core::Trace trace = finishedRun("1", 1);
    trace.config.cost.allreduce = core::SimTime::fromTicks(1);
    ASSERT_EQ(trace.config.cost.name, "notebook");
    const Verdict v = judge(ddpLesson(), trace);
    EXPECT_FALSE(v.solved);
    EXPECT_EQ(v.summary,
              "Correct under the cost model notebook (changed); lessons are graded "
              "under the notebook's costs.");
}

// A sweep's run at another setting (8 ranks here) can beat the targets of the lesson's own;
// it is checked, never graded.
TEST(Verdict, ARunAtAnotherSettingIsNotGraded)
{
    Lesson lesson = ddpLesson();
    lesson.config.ranks = 4;
    lesson.config.batches = 4;
    core::Trace trace = finishedRun("1", 1);
    trace.config = lesson.config;
    ASSERT_TRUE(judge(lesson, trace).solved);
    trace.config.ranks = 8;
    trace.config.batches = 8;

    const Verdict v = judge(lesson, trace);
    EXPECT_FALSE(v.solved);
    EXPECT_EQ(v.summary,
              "Correct at 8 ranks, 2 layers, 8 batches; the lesson is graded at 4 "
              "ranks, 2 layers, 4 batches.");
}

TEST(Verdict, SolvedBelowTheTargets)
{
    EXPECT_TRUE(judge(ddpLesson(), finishedRun("4.999", 1)).solved);
}

TEST(Verdict, NotSolvedWhenTheCheckFailsAndSaysWhy)
{
    core::Trace trace = finishedRun("5.1", 1835008);
    trace.check = {false, "layer 1: batch 3 was never applied"};

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_FALSE(v.solved);
    EXPECT_TRUE(v.finished);
    EXPECT_FALSE(v.checkPassed);
    EXPECT_TRUE(contains(v.summary, trace.check.message)) << v.summary;
}

TEST(Verdict, IgnoresTheCheckWhenTheGoalIsOnlyToRun)
{
    Lesson lesson = ddpLesson();
    lesson.goal = Goal::Run;
    core::Trace trace = finishedRun("5.1", 1835008);
    trace.check = {false, "layer 0 has no final weight"};

    EXPECT_TRUE(judge(lesson, trace).solved);
}

TEST(Verdict, NotSolvedWhenTimestepsAreAboveTheTarget)
{
    const Verdict v = judge(ddpLesson(), finishedRun("5.101", 1835008));

    EXPECT_FALSE(v.solved);
    EXPECT_TRUE(v.checkPassed);
    EXPECT_FALSE(v.timeMet);
    EXPECT_TRUE(v.memoryMet);
    EXPECT_TRUE(contains(v.summary, "Timesteps 5.101")) << v.summary;
    EXPECT_TRUE(contains(v.summary, "5.1")) << v.summary;
    EXPECT_FALSE(contains(v.summary, "Maximum Memory")) << v.summary;
}

TEST(Verdict, NotSolvedWhenMemoryIsAboveTheTarget)
{
    const Verdict v = judge(ddpLesson(), finishedRun("5", 1835009));

    EXPECT_FALSE(v.solved);
    EXPECT_TRUE(v.timeMet);
    EXPECT_FALSE(v.memoryMet);
    EXPECT_TRUE(contains(v.summary, "Maximum Memory 1835009")) << v.summary;
    EXPECT_TRUE(contains(v.summary, "1835008")) << v.summary;
    EXPECT_FALSE(contains(v.summary, "Timesteps")) << v.summary;
}

TEST(Verdict, NamesBothMissedTargets)
{
    const Verdict v = judge(ddpLesson(), finishedRun("6", 2000000));

    EXPECT_FALSE(v.timeMet || v.memoryMet);
    EXPECT_TRUE(contains(v.summary, "Timesteps 6") && contains(v.summary, "Maximum Memory 2000000"))
        << v.summary;
}

TEST(Verdict, NotSolvedWhenTheRunDidNotFinish)
{
    core::Trace trace = finishedRun("1", 1);
    trace.status = core::RunStatus::Deadlock;

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_FALSE(v.solved);
    EXPECT_FALSE(v.finished);
    EXPECT_TRUE(contains(v.summary, core::runStatusName(core::RunStatus::Deadlock))) << v.summary;
}

TEST(Verdict, MeetsNoTargetWithARunThatDidNotFinish)
{
    // A deadlock at Timesteps 3 is below the target 5.1 only because it stopped there.
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Deadlock;

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_FALSE(v.timeMet);
    EXPECT_FALSE(v.memoryMet);
}

TEST(Verdict, SaysInOneLineWhichRankOfAHangSkippedTheCollective)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Deadlock;
    trace.error = core::Error{core::ErrorKind::Deadlock, 0, 28,
                              "Deadlock: no rank can go on.\n"
                              "  rank 0 waits in allreduce(layer 0) at line 28 for rank 3 "
                              "(finished)\n"
                              "  rank 3 finished without calling allreduce(layer 0)"};

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_EQ(v.summary,
              "Not solved yet: the run did not finish (deadlock): rank 3 finished "
              "without calling allreduce(layer 0).");
}

// Seen in the zero-bubble lesson with the input gradient never passed back: ranks 2 and 3 waited on
// each other and ranks 0 and 1 only waited on them, and the verdict named rank 0 while the hang's
// picture said "ranks 2 and 3 wait on each other". It names the ranks of the cycle, and no other.
TEST(Verdict, NamesTheRanksOfTheCycleThatHoldsADeadlock)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Deadlock;
    trace.error = core::Error{core::ErrorKind::Deadlock, 0, 34,
                              "The ranks hung: no rank can go on\n"
                              "  rank 0 waits in receive from rank 1 at line 34 for rank 1\n"
                              "  rank 1 waits in receive from rank 2 at line 34 for rank 2\n"
                              "  rank 2 waits in receive from rank 3 at line 34 for rank 3\n"
                              "  rank 3 waits in receive from rank 2 at line 21 for rank 2"};
    core::Diagnosis diagnosis;
    for (int rank = 0; rank < 4; ++rank)
        diagnosis.ranks.push_back(core::RankWait{
            rank, false, rank == 3 ? 21 : 34, "receive", {rank == 3 ? 2 : rank + 1}});
    trace.diagnosis = diagnosis;

    EXPECT_EQ(judge(ddpLesson(), trace).summary,
              "Not solved yet: the run did not finish (deadlock): ranks 2 and 3 wait on each "
              "other: rank 2 waits in receive from rank 3 at line 34; rank 3 waits in receive "
              "from rank 2 at line 21.");

    // A ring of every rank: all four, each with its wait.
    trace.diagnosis->ranks[3].waitsOn = {0};
    EXPECT_EQ(judge(ddpLesson(), trace).summary,
              "Not solved yet: the run did not finish (deadlock): ranks 0, 1, 2 and 3 wait on "
              "each other: rank 0 waits in receive from rank 1 at line 34; rank 1 waits in "
              "receive from rank 2 at line 34; rank 2 waits in receive from rank 3 at line 34; "
              "rank 3 waits in receive from rank 2 at line 21.");
}

// Two ranks that each receive from the other first: the verdict blamed rank 0 alone ("rank 0 waits
// in receive from rank 1"), while the hang's picture said they wait on each other.
TEST(Verdict, BlamesNeitherRankOfTwoThatWaitOnEachOther)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Deadlock;
    trace.error = core::Error{core::ErrorKind::Deadlock, 0, 13,
                              "Deadlock: no rank can go on.\n"
                              "  rank 0 waits in receive from rank 1 at line 13 for rank 1\n"
                              "  rank 1 waits in receive from rank 0 at line 13 for rank 0"};
    core::Diagnosis diagnosis;
    diagnosis.ranks.push_back(core::RankWait{0, false, 13, "receive", {1}});
    diagnosis.ranks.push_back(core::RankWait{1, false, 13, "receive", {0}});
    trace.diagnosis = diagnosis;

    EXPECT_EQ(judge(ddpLesson(), trace).summary,
              "Not solved yet: the run did not finish (deadlock): ranks 0 and 1 wait on each "
              "other: rank 0 waits in receive from rank 1 at line 13; rank 1 waits in receive "
              "from rank 0 at line 13.");
}

// A ring of many ranks is named by its count and its first ranks, and the first one's wait.
TEST(Verdict, NamesALongCycleByItsCount)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Deadlock;
    std::string message = "Deadlock: no rank can go on.";
    core::Diagnosis diagnosis;
    for (int rank = 0; rank < 16; ++rank) {
        const int next = (rank + 1) % 16;
        message += "\n  rank " + std::to_string(rank) + " waits in receive from rank " +
                   std::to_string(next) + " at line 9 for rank " + std::to_string(next);
        diagnosis.ranks.push_back(core::RankWait{rank, false, 9, "receive", {next}});
    }
    trace.error = core::Error{core::ErrorKind::Deadlock, 0, 9, message};
    trace.diagnosis = diagnosis;

    EXPECT_EQ(judge(ddpLesson(), trace).summary,
              "Not solved yet: the run did not finish (deadlock): 16 ranks wait on each other, "
              "ranks 0, 1 and 2 among them: rank 0 waits in receive from rank 1 at line 9.");
}

// A rank stopped by its own error while another waited in a collective it never reached: the
// verdict led with "rank 2 stopped at line 30 without calling allreduce(layer 0), ...", the
// KeyError that stopped it only in the dialog. It leads with the error, then who waited.
TEST(Verdict, LeadsWithARanksOwnErrorThenSaysWhoWaitedForIt)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Error;
    trace.error = core::Error{core::ErrorKind::Exception, 2, 30,
                              "KeyError: 'weights of rank 2 has no key 0; it is empty'\n"
                              "  rank 0 waits in allreduce(layer 0) at line 28 for rank 2 "
                              "(stopped by an error)\n"
                              "  rank 1 waits in allreduce(layer 0) at line 28 for rank 2 "
                              "(stopped by an error)\n"
                              "  rank 2 stopped at line 30 without calling allreduce(layer 0), "
                              "which ranks 0 and 1 wait in"};
    core::Diagnosis diagnosis;
    diagnosis.ranks = {core::RankWait{0, false, 28, "allreduce(layer 0)", {2, 3}},
                       core::RankWait{1, false, 28, "allreduce(layer 0)", {2, 3}},
                       core::RankWait{2, false, 30, "", {}}, core::RankWait{3, true, 31, "", {}}};
    trace.diagnosis = diagnosis;

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_EQ(v.detail, "KeyError: 'weights of rank 2 has no key 0; it is empty'");
    EXPECT_EQ(v.detailAt.rank, 2);
    EXPECT_EQ(v.detailAt.line, 30);
    EXPECT_EQ(v.summary,
              "Not solved yet: the run did not finish (error): rank 2, line 30: KeyError: "
              "'weights of rank 2 has no key 0; it is empty'; ranks 0 and 1 wait for it in "
              "allreduce(layer 0).");
}

TEST(Verdict, NamesTheRankAndLineOfAnErrorInOneLine)
{
    core::Trace trace = finishedRun("3", 1572864);
    trace.status = core::RunStatus::Error;
    trace.error = core::Error{core::ErrorKind::Exception, 0, 20,
                              "KeyError: 'grad_weights of rank 0 has no key 0; it is empty'"};

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_EQ(v.summary,
              "Not solved yet: the run did not finish (error): rank 0, line 20: "
              "KeyError: 'grad_weights of rank 0 has no key 0; it is empty'.");
}

TEST(Verdict, SaysWhereAStoppedRunWasOnceAndEndsOnItsQuestion)
{
    core::Trace trace;
    trace.status = core::RunStatus::Stopped;
    trace.error = core::Error{core::ErrorKind::Stopped, 0, 8,
                              "The run was stopped after 5000000 model calls and storage changes "
                              "(the operation budget; 2499996 operations recorded) while rank 0 "
                              "was at line 8. Is a loop running forever?"};

    const Verdict v = judge(ddpLesson(), trace);

    EXPECT_EQ(v.summary,
              "Not solved yet: the run did not finish (stopped): The run was stopped "
              "after 5000000 model calls and storage changes (the operation budget; "
              "2499996 operations recorded) while rank 0 was at line 8. Is a loop running "
              "forever?");
}

TEST(Verdict, NotSolvedByARunWithoutOperationsWhenThereAreTargets)
{
    Lesson lesson = ddpLesson();
    lesson.goal = Goal::Run;
    core::Trace trace;
    trace.status = core::RunStatus::Ok;

    const Verdict v = judge(lesson, trace);

    EXPECT_FALSE(v.solved);
    EXPECT_FALSE(contains(v.summary, "above the target")) << v.summary;
    EXPECT_TRUE(contains(v.summary, "Not solved yet")) << v.summary;

    lesson.targets.reset();
    EXPECT_TRUE(judge(lesson, trace).solved);
}

// docs/simulation.md, "Storage of a rank": `activations` activations of four batches kept
// outside the storage at line 14, where the storage held `memory` bytes (the DDP lesson's target
// is 1,835,008).
core::Trace runHoldingOutside(int activations, std::int64_t memory)
{
    core::Trace trace = finishedRun("5", 1835008);
    core::HeldOutside &held = trace.heldOutside;
    held.rank = 0;
    held.line = 14;
    held.memory = memory;
    held.objects[std::size_t(core::ObjectKind::Activation)] = activations;
    held.bytes = activations * core::memoryOf(activationOfBatches(4), {});
    return trace;
}

TEST(Verdict, MemoryMetByKeepingActivationsOutsideTheStorageIsNotSolved)
{
    const Verdict v = judge(ddpLesson(), runHoldingOutside(8, 1048576));

    EXPECT_FALSE(v.solved);
    EXPECT_TRUE(v.memoryMet); // the figure is the contract's: what the storage held
    EXPECT_EQ(v.kind, Verdict::Kind::CheckFailed);
    EXPECT_EQ(v.summary,
              "Not solved yet: line 14 (rank 0) kept 8 activations outside the five "
              "storage dictionaries, so the memory figure does not count them; keep "
              "them in `activations` or recompute them.");
}

TEST(Verdict, ObjectsOutsideTheStorageThatTheTargetHasRoomForAreSolved)
{
    // Counted with them, the rank stays within the memory target: keeping them there gained
    // nothing.
    const core::Trace trace = runHoldingOutside(3, 0);
    ASSERT_LE(trace.heldOutside.bytes, ddpLesson().targets->memory);
    EXPECT_TRUE(judge(ddpLesson(), trace).solved);
}

// The per-update check of a training lesson: an update of shard 0 of 2 whose gradients of batch 1
// only a message brought to rank 0.
Lesson lessonOfTwoRanks()
{
    Lesson lesson = ddpLesson();
    lesson.gradientsComputed = true;
    lesson.config.ranks = 2;
    lesson.config.layers = 1;
    lesson.config.batches = 2;
    return lesson;
}

core::Trace updateAfterAMessage(bool gradient)
{
    core::Trace trace = finishedRun("5", 1835008);
    trace.config = lessonOfTwoRanks().config;
    const auto event = [&](core::OpKind op, int rank, core::IndexSet batches, const char *start) {
        core::Event e;
        e.op = op;
        e.rank = rank;
        e.layer = 0;
        e.batches = std::move(batches);
        e.shards = {0};
        e.shardTotal = 2;
        e.start = steps(start);
        e.duration = steps("1");
        return e;
    };
    trace.events.push_back(event(core::OpKind::Backward, 0, {0}, "0"));
    trace.events.push_back(event(core::OpKind::Backward, 1, {1}, "0"));
    core::Event sent = event(core::OpKind::PassTo, 1, {1}, "1");
    sent.link = 0;
    sent.gradient = gradient;
    trace.events.push_back(sent);
    // What arrived: a weight gradient's shard, or an activation's sequence shard of the same
    // numbers.
    core::Event received = event(core::OpKind::Receive, 0, {1}, "2");
    received.link = 0;
    received.gradient = gradient;
    trace.events.push_back(received);
    trace.events.push_back(event(core::OpKind::Update, 0, {0, 1}, "3"));
    return trace;
}

TEST(Verdict, AnUpdateMayUseTheWeightGradientsAMessageBrought)
{
    EXPECT_TRUE(judge(lessonOfTwoRanks(), updateAfterAMessage(true)).solved);
}

TEST(Verdict, AnActivationAMessageBroughtIsNoWeightGradientForAnUpdate)
{
    const Verdict v = judge(lessonOfTwoRanks(), updateAfterAMessage(false));

    EXPECT_FALSE(v.solved);
    EXPECT_EQ(v.summary,
              "Not solved yet: rank 0 updated layer 0 with weight gradients of batch 1 "
              "that no backward of that rank computed and no collective or message "
              "brought to it (fake_grad stands for a gradient without computing it: "
              "this lesson checks training).");
}

TEST(Verdict, WithoutTargetsOnlyTheRunAndTheCheckCount)
{
    Lesson lesson = ddpLesson();
    lesson.targets.reset();

    EXPECT_TRUE(judge(lesson, finishedRun("1000", 1LL << 40)).solved);
}

} // namespace
} // namespace rankstep::lessons
