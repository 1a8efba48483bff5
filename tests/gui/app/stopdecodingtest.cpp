// SPDX-License-Identifier: MIT
// Esc stops what the window does after the runner ended too: the trace being decoded is dropped,
// the window says it stopped and runs the next program as usual.
#include "guitestsupport.h"

#include "resultspanel.h"
#include "runsession.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

using StopDecodingTest = WindowTest;

TEST_F(StopDecodingTest, EscapeWhileTheTraceIsDecodedDropsItAndTheWindowGoesOn)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    RunController *run = window->parts().runController;
    QSignalSpy stopped(run, &RunController::runStopped);
    QSignalSpy traces(run, &RunController::traceAvailable);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    bool runningWhileDecoding = false;
    // Esc as soon as the runner is done and its trace is read: before any of it reaches a view.
    const auto pressEscape = QObject::connect(run, &RunController::decodingStarted, [&] {
        runningWhileDecoding = run->isRunning();
        QTest::keyClick(window.get(), Qt::Key_Escape);
    });

    window->runCode();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    QObject::disconnect(pressEscape);
    EXPECT_TRUE(runningWhileDecoding) << "Stop (Esc) is disabled while decoding";
    EXPECT_EQ(stopped.count(), 1) << "Esc did not stop the decoding";
    EXPECT_FALSE(run->isRunning());
    EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Stopped")))
        << window->parts().results->text().toStdString();

    // The dropped trace never shows; the next run does.
    ASSERT_TRUE(runAndWait(*window));
    EXPECT_EQ(traces.count(), 1);
    EXPECT_EQ(stopped.count(), 1);
    EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Solved!")))
        << window->parts().results->text().toStdString();
}

} // namespace
} // namespace rankstep::gui::testing
