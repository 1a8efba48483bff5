// SPDX-License-Identifier: MIT
// Predict the next step (core/explain/quiz.h): every forward step of the reference
// puzzles gets a question whose answer is what the step shows (the rank that moves, the object
// that appears, the outcome at the start, the rank idle longest at the end); choices are distinct
// and their order varies; no question quotes code.
#include "core/explain/quiz.h"
#include "core/replay/cursor.h"
#include "core/replay/position.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace rankstep::explain {
namespace {

struct Asked {
    QuizQuestion question;
    replay::RunState before, after;
};

// A question for every operation step of the run, from its start to its end.
std::vector<Asked> walk(const core::Trace &trace)
{
    const replay::StopPoints stops(trace);
    std::vector<Asked> asked;
    replay::Cursor cursor(stops, 0);
    while (!cursor.atEnd()) {
        const replay::Cursor next = cursor.nextOperation();
        replay::RunState before = replay::stateAt(trace, cursor);
        replay::RunState after = replay::stateAt(trace, next);
        if (auto q = quizQuestion(trace, before, after, cursor.atHome(), next.atEnd(),
                                  std::uint32_t(next.stop())))
            asked.push_back({*q, std::move(before), std::move(after)});
        cursor = next;
    }
    return asked;
}

int rankIn(const std::string &text)
{
    const auto at = text.find("rank ");
    return at == std::string::npos ? -1 : std::stoi(text.substr(at + 5));
}

// Does `rank` hold, at `state`, an object of that phrase it did not hold before?
bool gained(const replay::RunState &before, const replay::RunState &after, int rank,
            const std::string &phrase)
{
    for (std::size_t map = 0; map < core::kMapCount; ++map)
        for (const replay::MapEntry &entry : after.ranks[std::size_t(rank)].maps[map]) {
            if (objectPhrase(entry.object()) != phrase)
                continue;
            bool held = false;
            for (const replay::MapEntry &old : before.ranks[std::size_t(rank)].maps[map])
                held = held || (old.key() == entry.key() && old.object() == entry.object());
            if (!held)
                return true;
        }
    return false;
}

TEST(Quiz, EveryAnswerIsWhatTheStepShowsInEveryReferencePuzzle)
{
    for (const auto &puzzle : testing::referencePuzzles()) {
        const core::Trace trace = testing::runReference(puzzle.name);
        const std::vector<Asked> asked = walk(trace);
        ASSERT_FALSE(asked.empty()) << puzzle.name;
        EXPECT_EQ(asked.front().question.kind, QuizKind::Outcome) << puzzle.name;
        std::map<QuizKind, int> kinds;
        std::set<int> answerPlaces;
        for (const Asked &a : asked) {
            const QuizQuestion &q = a.question;
            ++kinds[q.kind];
            ASSERT_GE(q.choices.size(), 2U) << puzzle.name << ": " << q.question;
            ASSERT_LE(q.choices.size(), 4U) << q.question;
            ASSERT_GE(q.answer, 0);
            ASSERT_LT(q.answer, int(q.choices.size()));
            answerPlaces.insert(q.answer);
            const std::set<std::string> distinct(q.choices.begin(), q.choices.end());
            EXPECT_EQ(distinct.size(), q.choices.size()) << q.question;
            const std::string &answer = q.choices[std::size_t(q.answer)];
            for (const std::string &text : std::vector<std::string>{q.question, q.reveal})
                for (const char *code : {"await", "model.", "def ", "return ", "import"})
                    EXPECT_EQ(text.find(code), std::string::npos) << text;
            switch (q.kind) {
                case QuizKind::Outcome:
                    EXPECT_EQ(q.rank, -1) << "about no rank";
                    EXPECT_EQ(answer, "Every rank finishes") << puzzle.name;
                    break;
                case QuizKind::NextRank:
                    ASSERT_TRUE(a.after.event);
                    EXPECT_EQ(rankIn(answer), trace.events[*a.after.event].rank) << q.question;
                    break;
                case QuizKind::NextOp:
                    ASSERT_TRUE(a.after.event);
                    EXPECT_EQ(answer, core::opName(trace.events[*a.after.event].op));
                    EXPECT_EQ(q.rank, trace.events[*a.after.event].rank) << "its panel shown large";
                    break;
                case QuizKind::NewObject:
                    EXPECT_TRUE(gained(a.before, a.after, rankIn(q.question), answer))
                        << puzzle.name << ": " << q.question << " " << answer;
                    EXPECT_EQ(q.rank, rankIn(q.question)) << "its panel shown large";
                    break;
                case QuizKind::IdleLongest: {
                    const int rank = rankIn(answer);
                    for (const core::RankFigures &other : trace.figures.ranks)
                        EXPECT_LE(other.idle, trace.figures.ranks[std::size_t(rank)].idle);
                    break;
                }
            }
        }
        EXPECT_GT(kinds[QuizKind::NewObject], 0) << puzzle.name;
        EXPECT_GT(answerPlaces.size(), 1U) << puzzle.name << ": the answer is not always A";
    }
}

// DDP's point: after the allreduce a rank's gradient covers every batch, and the question offers
// the one batch it had before as the wrong answer.
TEST(Quiz, AfterDdpsAllreduceTheGradientOfEveryBatchIsTheAnswerAndOneBatchAChoice)
{
    const core::Trace trace = testing::runReference("ddp");
    bool found = false;
    for (const Asked &a : walk(trace)) {
        const QuizQuestion &q = a.question;
        if (q.kind != QuizKind::NewObject)
            continue;
        const std::string &answer = q.choices[std::size_t(q.answer)];
        if (answer.rfind("weight gradient of layer", 0) != 0 ||
            answer.find("batches 0-3") == std::string::npos)
            continue;
        found = true;
        const int rank = rankIn(q.question);
        const std::string own = answer.substr(0, answer.find(", ")) + ", batch 0";
        EXPECT_NE(std::find(q.choices.begin(), q.choices.end(), own), q.choices.end())
            << "rank " << rank << ": " << answer;
    }
    EXPECT_TRUE(found);
}

TEST(Quiz, TheOrderOfTheChoicesIsTheSameForTheSameStep)
{
    const core::Trace trace = testing::runReference("gpipe");
    const std::vector<Asked> first = walk(trace), second = walk(trace);
    ASSERT_EQ(first.size(), second.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_EQ(first[i].question.choices, second[i].question.choices);
        EXPECT_EQ(first[i].question.answer, second[i].question.answer);
    }
}

TEST(Quiz, TheOutcomeAtTheStartIsAHangOrAnErrorWhenTheRunHadOne)
{
    core::Trace trace = testing::runReference("ddp");
    const replay::StopPoints stops(trace);
    const replay::Cursor home(stops, 0);
    const replay::RunState before = replay::stateAt(trace, home);
    const replay::RunState after = replay::stateAt(trace, home.nextOperation());
    const auto answerOf = [&](const core::Trace &t) {
        const auto q = quizQuestion(t, before, after, true, false, 7);
        EXPECT_TRUE(q);
        return q ? std::make_pair(q->choices[std::size_t(q->answer)], q->reveal)
                 : std::make_pair(std::string(), std::string());
    };
    EXPECT_EQ(answerOf(trace).first, "Every rank finishes");

    core::Trace hung = trace;
    hung.status = core::RunStatus::Deadlock;
    hung.diagnosis =
        core::Diagnosis{core::ErrorKind::Deadlock,
                        {{0, false, 12, "allreduce(layer 1)", {3}}, {3, true, 0, "", {}}}};
    EXPECT_EQ(answerOf(hung).first, "It hangs: a rank waits forever");
    EXPECT_EQ(answerOf(hung).second, "It hangs: rank 0 waits in allreduce(layer 1) forever.");

    core::Trace failed = trace;
    failed.status = core::RunStatus::Error;
    failed.error = core::Error{core::ErrorKind::Check, 2, 25, "update(layer 0): ..."};
    EXPECT_EQ(answerOf(failed).first, "A rank stops with an error");
    EXPECT_EQ(answerOf(failed).second, "Rank 2 stops with an error.");

    core::Trace stopped = trace;
    stopped.status = core::RunStatus::Stopped;
    const auto q = quizQuestion(stopped, before, after, true, false, 7);
    EXPECT_TRUE(!q || q->kind != QuizKind::Outcome) << "a time limit is nothing to predict";
}

TEST(Quiz, PhrasesNameKindLayerBatchesAndShards)
{
    core::Object grad;
    grad.kind = core::ObjectKind::WeightGrad;
    grad.layer = 1;
    grad.totalBatches = 4;
    grad.batches = core::IndexSet::range(0, 4);
    grad.total = 1;
    grad.shards = {0};
    EXPECT_EQ(objectPhrase(grad), "weight gradient of layer 1, batches 0-3");
    core::Object shard;
    shard.kind = core::ObjectKind::Weight;
    shard.layer = 0;
    shard.total = 4;
    shard.shards = {2};
    EXPECT_EQ(objectPhrase(shard), "weight of layer 0, shard 2 of 4");
    shard.shards = core::IndexSet::range(0, 4);
    EXPECT_EQ(objectPhrase(shard), "weight of layer 0, whole");
}

} // namespace
} // namespace rankstep::explain
