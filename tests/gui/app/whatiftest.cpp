// SPDX-License-Identifier: MIT
// The What if tab (docs/sweeps.md): a sweep of the learner's code runs in the
// background through rankstep-cli sweep, fills the progress bar, the table (in the grid's order)
// and the chart, marks the Pareto front and the run on screen; a point opens its run in every view
// without grading it; Esc stops a sweep at once; a bad list says why.
#include "bubblechart.h"
#include "codeeditor.h"
#include "guitestsupport.h"
#include "resultspanel.h"
#include "runsession.h"
#include "tests/gui/support/eventwaits.h"
#include "whatifview.h"

#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

class WhatIfTest : public WindowTest
{};

TEST_F(WhatIfTest, ASweepFillsTheTableAndTheChartAndAPointOpensItsRun)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("bubble")));
    const lessons::Lesson &lesson = builtinLesson(QStringLiteral("bubble"));
    window->parts().editor->setText(QString::fromStdString(lesson.solution));
    QSignalSpy ran(window.get(), &MainWindow::runFinished);
    window->runCode(); // the lesson's own setting (m = 4) is on screen
    ASSERT_TRUE(ran.wait(kRunTimeoutMs));
    ASSERT_EQ(progress().state(QStringLiteral("bubble")), ProgressStore::State::Solved);

    WhatIfView *whatIf = window->parts().whatIfView;
    window->showTab(Tab::WhatIf);
    QString why;
    ASSERT_TRUE(whatIf->setFields(QStringLiteral("ranks=4;layers=8;batches=8,1,2,4"), &why))
        << utf8(why);
    QSignalSpy finished(whatIf, &WhatIfView::sweepFinished);
    whatIf->runSweep();
    EXPECT_TRUE(whatIf->isRunning());
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    EXPECT_FALSE(whatIf->isRunning());

    ASSERT_EQ(whatIf->rows().size(), 4U) << utf8(whatIf->status()->text());
    EXPECT_EQ(whatIf->progress()->value(), 4);
    EXPECT_EQ(whatIf->progress()->maximum(), 4);
    // The table in the grid's order (as listed: 8, 1, 2, 4), whatever order the runs ended in.
    const QTableWidget *table = whatIf->table();
    ASSERT_EQ(table->rowCount(), 4);
    EXPECT_TRUE(table->isColumnHidden(4)) << "no layout column where no row has a layout";
    const QString listed[] = {QStringLiteral("8"), QStringLiteral("1"), QStringLiteral("2"),
                              QStringLiteral("4")};
    // "Solved" only where the lesson is graded (m = 4), as the results panel says; the other
    // settings ran right, checked but not graded (the status once said "4 solved").
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(table->item(r, 2)->text(), listed[r]);
        EXPECT_EQ(table->item(r, 5)->text(), listed[r] == QStringLiteral("4")
                                                 ? QStringLiteral("solved")
                                                 : QStringLiteral("correct"));
    }
    const std::string status = utf8(whatIf->status()->text());
    EXPECT_NE(status.find("4 with the right weights. The lesson is graded at 4 ranks, 8 layers, "
                          "4 batches only: solved there."),
              std::string::npos)
        << status;
    EXPECT_EQ(status.find("4 solved"), std::string::npos) << status;
    // Every point says which setting it is, and no two labels overlap.
    whatIf->showTable(false);
    QCoreApplication::processEvents();
    const auto labels = whatIf->pointLabels();
    QStringList named;
    for (const auto &[text, rect] : labels) {
        named << text;
        for (const auto &[other, otherRect] : labels) {
            if (other != text) {
                EXPECT_FALSE(rect.intersects(otherRect)) << utf8(text) << " over " << utf8(other);
            }
        }
    }
    for (const QString &text : {QStringLiteral("1 batch"), QStringLiteral("8 batches")})
        EXPECT_TRUE(named.contains(text) || whatIf->elidedTexts().contains(text))
            << utf8(named.join(u'|'));
    EXPECT_GE(labels.size(), 3) << utf8(named.join(u'|'));
    EXPECT_EQ(whatIf->pointSeries()->count(), 4);
    // Each batch is more work: m = 1 is fastest and smallest, alone on the front.
    const std::vector<bool> front = whatIf->front();
    for (std::size_t i = 0; i < front.size(); ++i)
        EXPECT_EQ(front[i], whatIf->rows()[i].point.batches == 1) << i;
    // The run on screen is the lesson's setting's row, with the lesson's figures.
    ASSERT_GE(whatIf->currentRow(), 0);
    const io::SweepRow &current = whatIf->rows()[std::size_t(whatIf->currentRow())];
    EXPECT_EQ(current.point.batches, lesson.config.batches);
    EXPECT_EQ(current.timesteps, lesson.targets->time);

    // A point opens its run in every view; not the lesson's setting, so not graded.
    int two = -1;
    for (std::size_t i = 0; i < whatIf->rows().size(); ++i)
        if (whatIf->rows()[i].point.batches == 2)
            two = int(i);
    ASSERT_GE(two, 0);
    whatIf->openRow(two);
    ASSERT_TRUE(window->parts().session->trace());
    EXPECT_EQ(window->parts().session->trace()->config.batches, 2);
    EXPECT_EQ(whatIf->currentRow(), two) << "the opened run is the one ringed";
    const std::string results = utf8(window->parts().results->text());
    EXPECT_NE(results.find("the lesson is graded at 4 ranks, 8 layers, 4 batches"),
              std::string::npos)
        << results;
    EXPECT_EQ(progress().state(QStringLiteral("bubble")), ProgressStore::State::Solved);
}

// Layouts under the Llama 3 preset: each point names its layout, the one whose peak is above the
// H100's 80 GB is starred on the chart and said so in the table, and the device's memory is a
// line between them (tensor 2 keeps 4 of Llama 3's layers / 2 of Adam's states a rank, over
// 80 GB; tensor 8 a quarter of that).
TEST_F(WhatIfTest, LayoutsOverTheDevicesMemoryAreMarked)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("four_d")));
    const lessons::Lesson &lesson = builtinLesson(QStringLiteral("four_d"));
    window->parts().editor->setText(QString::fromStdString(lesson.solution));
    WhatIfView *whatIf = window->parts().whatIfView;
    window->showTab(Tab::WhatIf);
    // A pipeline lesson, but laid out: the one-stage-a-rank schedules are not offered beside it.
    EXPECT_FALSE(whatIf->compareSchedules()->isVisibleTo(whatIf));
    QString why;
    ASSERT_TRUE(whatIf->setFields(
        QStringLiteral("cost=llama3-405b;ranks=8;layers=4;batches=4;tensor=2,8;pipeline=1"), &why))
        << utf8(why);
    QSignalSpy finished(whatIf, &WhatIfView::sweepFinished);
    whatIf->runSweep();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    ASSERT_EQ(whatIf->rows().size(), 2U) << utf8(whatIf->status()->text());

    const io::SweepRow *over = nullptr;
    for (const io::SweepRow &row : whatIf->rows()) {
        ASSERT_TRUE(row.peakMemory) << row.error;
        EXPECT_EQ(row.deviceMemory, 80'000'000'000);
        if (row.point.tensor == 2)
            over = &row;
    }
    ASSERT_NE(over, nullptr);
    EXPECT_TRUE(over->overDeviceMemory());
    ASSERT_EQ(whatIf->overMemorySeries()->count(), 1);
    EXPECT_NEAR(whatIf->overMemorySeries()->at(0).x(), double(*over->peakMemory) / 1e9, 1e-6);
    // The line at 80 GB, from the axis up.
    ASSERT_EQ(whatIf->deviceMemoryLine()->count(), 2);
    EXPECT_DOUBLE_EQ(whatIf->deviceMemoryLine()->at(0).x(), 80.0);
    // The table says which does not fit, in the grid's order (tensor 2 first).
    const QTableWidget *table = whatIf->table();
    ASSERT_EQ(table->rowCount(), 2);
    // Each row's layout in its own column, shown because the rows have one.
    EXPECT_FALSE(table->isColumnHidden(4));
    EXPECT_EQ(utf8(table->item(0, 4)->text()), "2 x 1");
    EXPECT_EQ(utf8(table->item(1, 4)->text()), "8 x 1");
    EXPECT_TRUE(table->item(0, 7)->text().contains(QStringLiteral("over 80 GB")))
        << utf8(table->item(0, 7)->text());
    EXPECT_FALSE(table->item(1, 7)->text().contains(QStringLiteral("over")))
        << utf8(table->item(1, 7)->text());
    // The status counts them, as the command line's summary does.
    EXPECT_TRUE(whatIf->status()->text().contains(
        QStringLiteral("1 starred: over the device's 80 GB, not fitting.")))
        << utf8(whatIf->status()->text());
    whatIf->showTable(false);
    QCoreApplication::processEvents();
    QStringList named;
    for (const auto &[text, rect] : whatIf->pointLabels())
        named << text;
    named << whatIf->elidedTexts();
    EXPECT_TRUE(named.contains(QStringLiteral("tensor 2"))) << utf8(named.join(u'|'));
    EXPECT_TRUE(named.contains(QStringLiteral("tensor 8"))) << utf8(named.join(u'|'));
}

TEST_F(WhatIfTest, EscStopsASweepAtOnce)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->parts().editor->setText(QString::fromStdString(testsupport::loopingFunction("ddp")));
    WhatIfView *whatIf = window->parts().whatIfView;
    ASSERT_TRUE(whatIf->setFields(QStringLiteral("ranks=1,2,3")));
    QSignalSpy finished(whatIf, &WhatIfView::sweepFinished);
    whatIf->runSweep();
    ASSERT_TRUE(whatIf->isRunning());
    ASSERT_TRUE(waitForRunsInTheirLoops()) << "no run of the sweep reached its loop";

    QAction *stop = window->findChild<QAction *>(QStringLiteral("stopAction"));
    ASSERT_NE(stop, nullptr);
    EXPECT_TRUE(stop->isEnabled()) << "Esc stops a sweep too";
    stop->trigger();
    EXPECT_FALSE(whatIf->isRunning());
    EXPECT_EQ(finished.count(), 1);
    EXPECT_EQ(utf8(whatIf->status()->text()), "Stopped: 0 of 3 settings ran.");
    EXPECT_FALSE(stop->isEnabled());
}

TEST_F(WhatIfTest, ABadListSaysWhyAndRunsNothing)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    WhatIfView *whatIf = window->parts().whatIfView;
    ASSERT_TRUE(whatIf->setFields(QStringLiteral("ranks=0,2")));
    QSignalSpy finished(whatIf, &WhatIfView::sweepFinished);
    whatIf->runSweep();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    const std::string status = utf8(whatIf->status()->text());
    EXPECT_NE(status.find("The sweep did not run: --ranks takes whole numbers from 1"),
              std::string::npos)
        << status;
    EXPECT_TRUE(whatIf->rows().empty());
    QString why;
    EXPECT_FALSE(whatIf->setFields(QStringLiteral("nodes=2"), &why));
    EXPECT_NE(utf8(why).find("the fields are"), std::string::npos);
}

// A pipeline lesson compares schedules: the learner's interleaved code beside the 1F1B and
// zero-bubble lessons' solutions over m under uniform costs. Each schedule's measured bubble is
// its formula, the Bubble tab draws a measured and a formula line for each, named by schedule,
// the table names each row's program, and only the learner's row at the lesson's setting is
// graded.
TEST_F(WhatIfTest, ComparingPipelineSchedulesDrawsEachBubbleBesideItsFormula)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("interleaved_1f1b")));
    window->parts().editor->setText(
        QString::fromStdString(builtinLesson(QStringLiteral("interleaved_1f1b")).solution));
    WhatIfView *whatIf = window->parts().whatIfView;
    window->showTab(Tab::WhatIf);
    EXPECT_TRUE(whatIf->compareSchedules()->isVisibleTo(whatIf));
    QString why;
    ASSERT_TRUE(whatIf->setFields(
        QStringLiteral("ranks=4;layers=8;batches=4,8;cost=uniform;compare=schedules"), &why))
        << utf8(why);
    QSignalSpy finished(whatIf, &WhatIfView::sweepFinished);
    whatIf->runSweep();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    ASSERT_EQ(whatIf->rows().size(), 6U) << utf8(whatIf->status()->text());
    EXPECT_EQ(whatIf->progress()->maximum(), 6);
    for (const io::SweepRow &row : whatIf->rows()) {
        ASSERT_TRUE(row.pipeline) << row.program << " " << row.error;
        EXPECT_NEAR(row.pipeline->measured, row.pipeline->formula, 1e-9) << row.program;
    }
    const std::vector<BubbleCurve> &curves = whatIf->bubbleChart()->curves();
    ASSERT_EQ(curves.size(), 3U);
    QStringList names;
    for (const BubbleCurve &curve : curves) {
        names << curve.name;
        EXPECT_EQ(curve.measured.size(), 2U) << utf8(curve.name);
        EXPECT_EQ(curve.measured, curve.formula) << utf8(curve.name);
    }
    names.sort();
    EXPECT_EQ(utf8(names.join(QStringLiteral(" | "))),
              "1F1B | Interleaved 1F1B (v = 2) | Zero bubble (ZB-H1)");
    EXPECT_EQ(whatIf->bubbleChart()->chart()->series().size(), 6);
    // The table's program column: the learner's code and the solutions by their functions.
    QStringList programs;
    for (int r = 0; r < whatIf->table()->rowCount(); ++r)
        programs << whatIf->table()->item(r, 10)->text();
    programs.removeDuplicates();
    programs.sort();
    EXPECT_EQ(utf8(programs.join(QStringLiteral(","))), "one_f_one_b,your code,zero_bubble");

    // Without the choice the same sweep runs the learner's code alone.
    ASSERT_TRUE(whatIf->setFields(QStringLiteral("compare=none"), &why)) << utf8(why);
    whatIf->runSweep();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    EXPECT_EQ(whatIf->rows().size(), 2U);
    EXPECT_EQ(whatIf->bubbleChart()->curves().size(), 1U);
}

} // namespace
} // namespace rankstep::gui::testing
