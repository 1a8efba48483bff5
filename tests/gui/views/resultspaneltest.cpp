// SPDX-License-Identifier: MIT
// The results panel's text: what a failed check found is said once, in the verdict.
#include "guitestsupport.h"
#include "resultspanel.h"
#include "runsession.h"
#include "tests/gui/support/layoutwaits.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QScrollArea>

#include <cmath>
#include <memory>
#include <set>
#include <vector>

namespace rankstep::gui {
namespace {

lessons::Lesson trainLesson()
{
    lessons::Lesson lesson;
    lesson.id = "pipeline";
    lesson.function = "pipeline";
    lesson.parallelism = lessons::Parallelism::Pipeline;
    lesson.targets = lessons::Targets{core::SimTime::steps(20), 2097152};
    return lesson;
}

TEST(ResultsPanel, SaysWhatAFailedCheckFoundOnce)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.check = {false, "layers 0-7: the final weights were never updated (step 0)"};

    const lessons::Lesson lesson = trainLesson();
    const QString html = resultsHtml(&lesson, trace);

    EXPECT_EQ(html.count(QStringLiteral("never updated")), 1) << html.toStdString();
}

// The app says the verdict in the language shown: in English, word for word what judge() says
// (the command line's and the grader's sentence), for every kind of verdict.
TEST(ResultsPanel, SaysEveryKindOfVerdictAsTheGraderDoes)
{
    lessons::Lesson lesson = trainLesson();
    lesson.config.ranks = 4;
    lesson.config.batches = 4;
    const auto finished = [&lesson](int time, std::int64_t memory) {
        core::Trace trace;
        trace.config = lesson.config;
        trace.status = core::RunStatus::Ok;
        trace.check = {true, "Correct!"};
        trace.figures.hasEvents = true;
        trace.figures.timesteps = core::SimTime::steps(time);
        trace.figures.maxMemory = memory;
        return trace;
    };
    std::vector<core::Trace> traces{finished(20, 2097152), finished(21, 2097152),
                                    finished(20, 2097153), finished(21, 3000000)};
    core::Trace other = finished(3, 1);
    other.config.ranks = 1;
    other.config.layers = 1;
    other.config.batches = 8;
    traces.push_back(other);
    core::Trace costs = finished(3, 1);
    costs.config.cost.name = "slow-loss";
    costs.config.cost.loss = core::SimTime::steps(7);
    traces.push_back(costs);
    core::Trace failed = finished(3, 1);
    failed.check = {false, "layer 1: no rank set a final weight"};
    traces.push_back(failed);
    core::Trace empty = finished(0, 0);
    empty.figures.hasEvents = false;
    traces.push_back(empty);
    core::Trace hung = finished(3, 1);
    hung.status = core::RunStatus::Deadlock;
    hung.error = core::Error{core::ErrorKind::Deadlock, 0, 28,
                             "Deadlock: no rank can go on.\n"
                             "  rank 3 finished without calling allreduce(layer 0)"};
    traces.push_back(hung);
    core::Trace stopped = hung;
    stopped.status = core::RunStatus::Stopped;
    stopped.error = core::Error{core::ErrorKind::Stopped, 0, 8, "Is a loop running forever?"};
    traces.push_back(stopped);
    core::Trace raised = hung;
    raised.status = core::RunStatus::Error;
    raised.error = core::Error{core::ErrorKind::Exception, 0, 26,
                               "update(layer 0): the weight gradient covers batches {0}"};
    traces.push_back(raised);
    core::Trace bare = hung;
    bare.status = core::RunStatus::Error;
    bare.error.reset();
    traces.push_back(bare);

    std::set<lessons::Verdict::Kind> kinds;
    for (const core::Trace &trace : traces) {
        const lessons::Verdict v = lessons::judge(lesson, trace);
        kinds.insert(v.kind);
        EXPECT_EQ(verdictText(lesson, trace, v).toStdString(), v.summary);
    }
    EXPECT_EQ(kinds.size(), 7u) << "every kind of verdict is said";
}

// Rank 0's update before the allreduce stops the run before ranks 1-3 ran: their empty rows
// looked like ranks that did nothing.
TEST(ResultsPanel, SaysWhichRanksHadNotStartedWhenAnErrorStoppedTheRun)
{
    core::Trace trace;
    trace.config.ranks = 4;
    trace.status = core::RunStatus::Error;
    trace.figures.hasEvents = true;
    trace.error = core::Error{core::ErrorKind::Check, 0, 25, "update(layer 0): ..."};
    core::Slice slice;
    slice.rank = 0;
    trace.slices.push_back(slice);
    EXPECT_TRUE(resultsHtml(nullptr, trace)
                    .contains(QStringLiteral("The run stops at the first error: ranks 1-3 had "
                                             "not started yet")))
        << resultsHtml(nullptr, trace).toStdString();
    slice.rank = 1;
    trace.slices.push_back(slice);
    slice.rank = 3;
    trace.slices.push_back(slice);
    EXPECT_TRUE(resultsHtml(nullptr, trace).contains(QStringLiteral(": rank 2 had not started")));
    slice.rank = 2;
    trace.slices.push_back(slice);
    EXPECT_FALSE(resultsHtml(nullptr, trace).contains(QStringLiteral("had not started")));

    // Esc or a limit while rank 0 looped: no error of a rank, nothing "at the first error".
    core::Trace stopped;
    stopped.config.ranks = 4;
    stopped.status = core::RunStatus::Stopped;
    stopped.figures.hasEvents = true;
    stopped.error = core::Error{core::ErrorKind::Stopped, -1, 0, "The run was stopped."};
    slice.rank = 0;
    stopped.slices.push_back(slice);
    EXPECT_FALSE(resultsHtml(nullptr, stopped).contains(QStringLiteral("had not started")));
}

TEST(ResultsPanel, ShowsTheCheckOfARunWithoutALesson)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.check = {false, "layer 1: no rank set a final weight"};

    EXPECT_TRUE(resultsHtml(nullptr, trace).contains(QStringLiteral("no rank set a final weight")));
}

TEST(ResultsPanel, GivesEachFigureOneLineWithTheNotebooksTargetInIt)
{
    lessons::Lesson lesson = trainLesson();
    lesson.notebookTargets = lessons::Targets{core::SimTime::steps(19), 2000000};
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.check = {true, "Correct!"};
    trace.figures.hasEvents = true;
    trace.figures.timesteps = core::SimTime::steps(20);
    trace.figures.maxMemory = 2097152;

    const QString html = resultsHtml(&lesson, trace);

    EXPECT_EQ(html.count(QStringLiteral("<tr>")), 2) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("2097152 B (2.1 MB)"))) << html.toStdString();
}

TEST(ResultsPanel, ShowsAHangAsABannerNamingTheRankThatSkipped)
{
    core::Trace trace;
    trace.status = core::RunStatus::Deadlock;
    trace.error = core::Error{core::ErrorKind::Deadlock, 0, 28,
                              "Deadlock: no rank can go on.\n"
                              "  rank 3 finished without calling allreduce(layer 0)"};
    trace.diagnosis = core::Diagnosis{core::ErrorKind::Deadlock, {}};

    const QString html = resultsHtml(nullptr, trace);

    EXPECT_TRUE(html.contains(QStringLiteral("background-color"))) << html.toStdString();
    EXPECT_EQ(html.count(QStringLiteral("rank 3 finished without calling")), 1);
}

// The lesson's formula beside what the run measured, in the results.
TEST(ResultsPanel, APipelineLessonShowsTheBubbleFormulaBesideTheMeasuredIdleShare)
{
    const auto gpipe = testing::referenceTrace("gpipe");
    ASSERT_TRUE(gpipe);
    lessons::Lesson lesson = trainLesson();
    lesson.id = "gpipe";
    const QString html = resultsHtml(&lesson, *gpipe);
    EXPECT_TRUE(
        html.contains(QStringLiteral("Idle 43% of the time on average; the bubble formula "
                                     "(p-1)/(m+p-1) with p = 4, m = 4 gives 43%.")))
        << html.toStdString();
}

// Busy, idle and communication per rank in the results, each rank's row its own
// figures (which add up to the end time).
TEST(ResultsPanel, GivesEachRanksBusyIdleAndCommunicationTime)
{
    const auto gpipe = testing::referenceTrace("gpipe");
    ASSERT_TRUE(gpipe);
    const QString html = resultsHtml(nullptr, *gpipe);
    ASSERT_TRUE(html.contains(QStringLiteral("add up to the end, 33.8"))) << html.toStdString();
    const auto &ranks = gpipe->figures.ranks;
    ASSERT_EQ(ranks.size(), 4U);
    for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
        const QString row = QStringLiteral("<tr><td align='right'>%1</td>").arg(rank);
        const qsizetype at = html.indexOf(row);
        ASSERT_GE(at, 0) << rank;
        const QString line = html.mid(at, html.indexOf(QStringLiteral("</tr>"), at) - at);
        for (const core::SimTime part :
             {ranks[rank].compute, ranks[rank].idle, ranks[rank].communication})
            EXPECT_TRUE(line.contains(
                QStringLiteral(">%1&nbsp;").arg(QString::fromStdString(part.toString()))))
                << line.toStdString();
    }
}

// A time and its share of the end read as one figure, "2 (100%)": in cells of their own they ran
// together with the next column's ("2 100%").
TEST(ResultsPanel, SaysEachTimeWithItsShareInBrackets)
{
    const auto gpipe = testing::referenceTrace("gpipe");
    ASSERT_TRUE(gpipe);
    RunSession session;
    ResultsPanel panel(session);
    session.setTrace(std::make_shared<const core::Trace>(*gpipe));
    const QString text = panel.text();
    const core::RankFigures &rank0 = gpipe->figures.ranks[0];
    const auto share = [&gpipe](core::SimTime part) {
        return std::llround(100.0 * double(part.ticks()) / double(gpipe->figures.endTime.ticks()));
    };
    for (const core::SimTime part : {rank0.compute, rank0.idle, rank0.communication})
        EXPECT_TRUE(text.contains(QStringLiteral("%1 (%2%)")
                                      .arg(QString::fromStdString(part.toString()))
                                      .arg(share(part))))
            << text.toStdString();
}

TEST(ResultsPanel, ManyRanksGetTheLeastAndTheMostOfEachWithTheirRank)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.figures.hasEvents = true;
    trace.figures.endTime = core::SimTime::steps(100);
    for (int rank = 0; rank < 16; ++rank) { // rank 11 idles most, rank 4 least
        const int idle = rank == 11 ? 90 : rank == 4 ? 2 : 40;
        trace.figures.ranks.push_back({core::SimTime::steps(100 - idle - 5),
                                       core::SimTime::steps(5), core::SimTime::steps(idle), 0});
    }
    const QString html = resultsHtml(nullptr, trace);
    EXPECT_EQ(html.count(QStringLiteral("<tr>")), 3) << html.toStdString(); // header, least, most
    EXPECT_TRUE(html.contains(QStringLiteral(">90&nbsp;<small>(90%, rank 11)")))
        << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">2&nbsp;<small>(2%, rank 4)"))) << html.toStdString();
}

// Under a real-scale cost model a tick is a microsecond: "Where the time goes ... the end,
// 5630.28:" gave no unit for milliseconds. Each time says "ms" as the timeline's axis does; the
// puzzle's steps stay bare (GivesEachRanksBusyIdleAndCommunicationTime).
TEST(ResultsPanel, SaysWhereTheTimeGoesInMillisecondsUnderARealScaleCostModel)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.config.cost.name = "llama3-405b";
    trace.config.cost.network = core::Network{};
    trace.figures.hasEvents = true;
    trace.figures.endTime = core::SimTime::fromTicks(5'630'280);
    trace.figures.ranks.push_back({core::SimTime::fromTicks(4'000'000),
                                   core::SimTime::fromTicks(630'280),
                                   core::SimTime::fromTicks(1'000'000), 0});
    const QString html = resultsHtml(nullptr, trace);
    const QString end = QString::fromStdString(trace.figures.endTime.toString());
    EXPECT_TRUE(html.contains(QStringLiteral("add up to the end, %1 ms):").arg(end)))
        << html.toStdString();
    for (const core::SimTime part : {trace.figures.ranks[0].compute, trace.figures.ranks[0].idle,
                                     trace.figures.ranks[0].communication})
        EXPECT_TRUE(html.contains(QStringLiteral(">%1&nbsp;ms&nbsp;<small>")
                                      .arg(QString::fromStdString(part.toString()))))
            << html.toStdString();
    // A run on real processes keeps the same ticks.
    trace.config.cost = {};
    EXPECT_TRUE(resultsHtml(nullptr, trace, std::nullopt, true)
                    .contains(QStringLiteral("add up to the end, %1 ms):").arg(end)));
    EXPECT_FALSE(resultsHtml(nullptr, trace).contains(QStringLiteral(" ms")));
}

// A PyTorch lesson's Run trains on real processes: the panel under the editor does not say
// "simulate" there, and says it again for a puzzle lesson.
TEST(ResultsPanel, APyTorchLessonsRunTrainsForRealAndSaysSo)
{
    RunSession session;
    ResultsPanel panel(session);
    lessons::Lesson torch;
    torch.id = "torch_ddp";
    torch.function = "train";
    torch.config.ranks = 2;
    torch.torch = lessons::TorchSettings{};
    session.setLesson(&torch);
    EXPECT_FALSE(panel.text().contains(QStringLiteral("simulate"))) << testing::utf8(panel.text());
    EXPECT_TRUE(panel.text().contains(QStringLiteral("train your code on 2 real processes")))
        << testing::utf8(panel.text());
    const lessons::Lesson puzzle = trainLesson();
    session.setLesson(&puzzle);
    EXPECT_TRUE(panel.text().contains(QStringLiteral("to simulate your code")))
        << testing::utf8(panel.text());
}

// The panel follows the session: the lesson's targets before a run, then the run's figures, its
// verdict and what the code printed; a run on real processes shown in the views leaves the
// simulated run's results on screen, and another lesson shows its targets again.
TEST(ResultsPanel, FollowsTheSessionsLessonRunOutputAndVerdict)
{
    RunSession session;
    ResultsPanel panel(session);
    const lessons::Lesson lesson = trainLesson();
    session.setLesson(&lesson);
    const QString targets = panel.text();
    EXPECT_TRUE(targets.contains(QStringLiteral("Targets"))) << testing::utf8(targets);
    EXPECT_TRUE(targets.contains(QStringLiteral("Press Run (F5)"))) << testing::utf8(targets);

    auto solved = std::make_shared<core::Trace>();
    solved->config = lesson.config;
    solved->status = core::RunStatus::Ok;
    solved->check = {true, "Correct!"};
    solved->figures.hasEvents = true;
    solved->figures.timesteps = lesson.targets->time;
    solved->figures.maxMemory = lesson.targets->memory;
    ASSERT_TRUE(lessons::judge(lesson, *solved).solved);
    session.setTrace(solved, TraceUnits::SimulatedSteps, QStringLiteral("hello from rank 0"));
    EXPECT_TRUE(panel.text().startsWith(QStringLiteral("Solved!"))) << testing::utf8(panel.text());
    EXPECT_TRUE(panel.text().contains(QStringLiteral("hello from rank 0")));

    // The verdict shown is the session's once it has one.
    lessons::Verdict failed;
    failed.kind = lessons::Verdict::Kind::CheckFailed;
    failed.detail = "the session's own verdict";
    session.setVerdict(failed);
    EXPECT_TRUE(
        panel.text().startsWith(QStringLiteral("Not solved yet: the session's own verdict.")))
        << testing::utf8(panel.text());
    EXPECT_TRUE(panel.text().contains(QStringLiteral("hello from rank 0")));

    const QString simulated = panel.text();
    auto outcome = std::make_shared<RealRunOutcome>();
    auto real = std::make_shared<core::Trace>(*solved);
    real->figures.maxMemory = 3 * lesson.targets->memory;
    outcome->trace = real;
    session.setRealRun(outcome);
    session.setTrace(real, TraceUnits::Seconds);
    EXPECT_EQ(testing::utf8(panel.text()), testing::utf8(simulated));
    session.setTrace(solved); // the simulation shown again
    EXPECT_EQ(testing::utf8(panel.text()), testing::utf8(simulated));

    session.setLesson(&lesson);
    EXPECT_EQ(testing::utf8(panel.text()), testing::utf8(targets));
}

// A run whose trace names its device's memory (a real-scale preset's 80 GB) says beside its
// maximum whether it fits, in one short phrase; a trace without one says nothing of a device.
TEST(ResultsPanel, SaysWhetherThePeakFitsTheDeviceTheTraceNames)
{
    core::Trace trace;
    trace.status = core::RunStatus::Ok;
    trace.check = {true, "Correct!"};
    trace.config.cost.name = "llama3-405b";
    trace.config.cost.network = core::Network{};
    trace.figures.hasEvents = true;
    trace.figures.maxMemory = 60'270'000'000;
    trace.figures.maxMemoryRank = 8;
    EXPECT_EQ(deviceFitText(trace), QString());
    EXPECT_FALSE(resultsHtml(nullptr, trace).contains(QStringLiteral("device")));
    EXPECT_FALSE(resultsHtml(nullptr, trace).contains(QStringLiteral("fits")));

    trace.config.cost.deviceMemory = 80'000'000'000;
    EXPECT_EQ(deviceFitText(trace), QStringLiteral("fits 80 GB, 19.73 GB to spare"));
    trace.figures.maxMemoryTime = core::SimTime::fromTicks(14'046'000); // 14.046 s
    const QString fits = resultsHtml(nullptr, trace);
    EXPECT_TRUE(
        fits.contains(QStringLiteral("maximum memory 60270000000 B (60.27 GB) on rank 8 at "
                                     "14.046 s, fits 80 GB, 19.73 GB to spare; the run")))
        << fits.toStdString();

    trace.figures.maxMemory = 120'160'000'000;
    EXPECT_EQ(deviceFitText(trace), QStringLiteral("40.16 GB over the 80 GB device"));
    EXPECT_TRUE(
        resultsHtml(nullptr, trace).contains(QStringLiteral("40.16 GB over the 80 GB device")));
    trace.figures.hasEvents = false; // nothing measured: nothing to fit
    EXPECT_EQ(deviceFitText(trace), QString());
}

// Seen in the walk-through, whose solution prints the refused update's sentence: the line the
// code printed ran past the panel's edge behind a sideways scroll bar, at every window size. It
// wraps at the panel's width instead.
TEST(ResultsPanel, WrapsALongLineTheCodePrintedAtThePanelsWidth)
{
    RunSession session;
    ResultsPanel panel(session);
    const lessons::Lesson lesson = trainLesson();
    session.setLesson(&lesson);
    auto trace = std::make_shared<core::Trace>();
    trace->config = lesson.config;
    trace->status = core::RunStatus::Ok;
    trace->check = {true, "Correct!"};
    QString printed;
    for (int word = 0; word < 40; ++word)
        printed += QStringLiteral("gradient%1 ").arg(word);
    session.setTrace(trace, TraceUnits::SimulatedSteps, printed);
    panel.resize(500, 300);
    panel.show();
    ASSERT_TRUE(testing::settleLayouts(panel));
    const auto *scroll = panel.findChild<QScrollArea *>();
    const auto *label = panel.findChild<QLabel *>(QStringLiteral("resultsText"));
    ASSERT_TRUE(scroll && label);
    ASSERT_TRUE(label->text().contains(QStringLiteral("gradient39")));
    EXPECT_LE(label->width(), scroll->viewport()->width())
        << "the results " << label->width() << " wide in a panel " << scroll->viewport()->width();
}

} // namespace
} // namespace rankstep::gui
