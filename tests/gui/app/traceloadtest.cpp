// SPDX-License-Identifier: MIT
// A trace file opens on a worker (gui/session/traceloader.h): the window answers meanwhile, its
// progress line says what goes on and Cancel drops it, the step bar waits for the run; a file
// opened while another loads replaces it; a script's steps and picture wait for the run.
#include "eventwaits.h"
#include "guitestsupport.h"
#include "longtraces.h"
#include "progressline.h"
#include "stepbar.h"
#include "traceloader.h"
#include "traceopenactions.h"
#include "windowparts.h"

#include "core/io/jsonparser.h"
#include "core/io/tracebinary.h"
#include "tests/support/tempdir.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSemaphore>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>

namespace rankstep::gui::testing {
namespace {

class TraceLoadTest : public WindowTest
{
protected:
    QString ddp(const QString &name)
    {
        return write(name, io::traceToBinary(*referenceTrace("ddp"), {"ddp.py", "ddp"}));
    }
    // Holds the worker as it enters `stage` until release(); it never holds the GUI thread (an
    // open made there would otherwise wait for itself), and notes where it ran.
    void holdAt(TraceOpenActions &opens, TraceLoader::Stage stage)
    {
        opens.loader().setCheckpoint([this, stage](TraceLoader::Stage at) {
            if (at != stage)
                return;
            m_onGuiThread = QThread::currentThread() == qApp->thread();
            if (m_onGuiThread)
                return;
            m_reached.release();
            m_proceed.acquire();
        });
    }
    bool reached() // the worker stands at the stage
    {
        return QTest::qWaitFor([this] { return m_reached.tryAcquire(); }, kSettleTimeoutMs);
    }
    void release() { m_proceed.release(); }
    // The workers of every open (a cancelled one too) have returned.
    static bool workersDone(const WindowParts &p)
    {
        return p.traceOpen->loader().waitForWorkers(kRunTimeoutMs);
    }

    QSemaphore m_reached, m_proceed;
    std::atomic<bool> m_onGuiThread{false};
};

TEST_F(TraceLoadTest, TheWindowAnswersWhileTheWorkerPreparesTheRunAndSteppingWaitsForIt)
{
    auto window = makeWindow();
    const WindowParts &p = window->parts();
    holdAt(*p.traceOpen, TraceLoader::Stage::Preparing);
    ASSERT_TRUE(window->openFile(ddp(QStringLiteral("held.rstb"))));
    ASSERT_TRUE(reached());
    EXPECT_FALSE(m_onGuiThread) << "the run is prepared on a worker, not on the GUI thread";
    EXPECT_TRUE(deliverPostedEvents()) << "the event loop turns while the worker works";
    EXPECT_EQ(p.session->trace(), nullptr) << "nothing of the run before it is ready";
    ProgressLine *line = p.traceOpen->progressLine();
    EXPECT_TRUE(QTest::qWaitFor(
        [line] {
            return line->isVisible() && line->text().startsWith(QStringLiteral("Preparing"));
        },
        kSettleTimeoutMs))
        << utf8(line->text());
    EXPECT_FALSE(p.stepBar->isEnabled());
    EXPECT_TRUE(
        p.stepBar->positionLabel()->toolTip().startsWith(QStringLiteral("Opening held.rstb")))
        << utf8(p.stepBar->positionLabel()->toolTip());
    // The label itself is short enough to show the file's name whole (the sentence, elided,
    // cut the name off at 1500x940).
    EXPECT_EQ(p.stepBar->positionLabel()->text(), QStringLiteral("Opening held.rstb…"))
        << utf8(p.stepBar->positionLabel()->text());
    release();
    ASSERT_TRUE(QTest::qWaitFor([&p] { return p.session->trace() != nullptr; }, kRunTimeoutMs));
    EXPECT_EQ(p.session->trace()->events.size(), referenceTrace("ddp")->events.size());
    EXPECT_TRUE(p.session->opening().isEmpty());
    EXPECT_TRUE(p.stepBar->isEnabled());
    EXPECT_FALSE(line->isVisible());
    p.session->stepper().home();
    p.session->stepper().next();
    EXPECT_EQ(p.session->stepper().stepIndex(), 1U) << "the prepared stepping steps";
}

// A trace large enough that reading it and making its steps and views takes seconds: the open
// returns at once, and the event loop keeps turning until it is ready. A frame's time (16 ms) is
// the aim and what a quiet machine gives; the bound leaves room for this two-core machine under
// a load of 15 (the open on the GUI thread held it for 3 s).
TEST_F(TraceLoadTest, ALargeTraceOpensWhileTheEventLoopTurnsWithinAFrame)
{
    auto window = makeWindow();
    const WindowParts &p = window->parts();
    const QString path =
        write(QStringLiteral("wide.rstb"), io::traceToBinary(*loopTrace(4000, 64)));
    qint64 longest = 0;
    QElapsedTimer sinceTurn;
    QTimer turns;
    turns.setInterval(0);
    QObject::connect(&turns, &QTimer::timeout,
                     [&] { longest = std::max(longest, sinceTurn.restart()); });
    bool ready = false;
    QObject::connect(&p.traceOpen->loader(), &TraceLoader::busyChanged, [&](bool busy) {
        if (!busy) { // before the run goes into the session on the GUI thread
            turns.stop();
            ready = true;
        }
    });
    QElapsedTimer call;
    call.start();
    ASSERT_TRUE(window->openFile(path));
    const qint64 opening = call.elapsed();
    sinceTurn.start();
    turns.start();
    ASSERT_TRUE(QTest::qWaitFor([&ready] { return ready; }, kRunTimeoutMs));
    EXPECT_LT(opening, 250) << "openFile returns before the file is read";
    EXPECT_LT(longest, 250) << "the longest turn of the event loop while the trace opened (ms)";
    ASSERT_TRUE(QTest::qWaitFor([&p] { return p.session->trace() != nullptr; }, kRunTimeoutMs));
    EXPECT_EQ(p.session->trace()->events.size(), 4000U * 64U);
}

TEST_F(TraceLoadTest, CancelLeavesThePreviousRunIntact)
{
    auto window = makeWindow();
    const WindowParts &p = window->parts();
    ASSERT_TRUE(openFileAndWait(*window, ddp(QStringLiteral("first.rstb"))));
    const TracePtr first = p.session->trace();
    ASSERT_NE(first, nullptr);
    p.session->stepper().home();
    p.session->stepper().next();
    const std::size_t step = p.session->stepper().stepIndex();
    const QString title = window->windowTitle();
    holdAt(*p.traceOpen, TraceLoader::Stage::Reading);
    ASSERT_TRUE(window->openFile(ddp(QStringLiteral("second.rstb"))));
    ASSERT_TRUE(reached());
    ASSERT_TRUE(QTest::qWaitFor([&p] { return p.traceOpen->progressLine()->isVisible(); },
                                kSettleTimeoutMs));
    EXPECT_FALSE(p.stepBar->isEnabled());
    p.traceOpen->progressLine()->cancelButton()->click();
    EXPECT_FALSE(p.traceOpen->progressLine()->isVisible());
    EXPECT_TRUE(p.stepBar->isEnabled()) << "the run shown steps again";
    release();
    ASSERT_TRUE(workersDone(p));
    ASSERT_TRUE(deliverPostedEvents());
    EXPECT_EQ(p.session->trace(), first) << "the cancelled run never reaches the session";
    EXPECT_EQ(p.session->stepper().stepIndex(), step);
    EXPECT_EQ(window->windowTitle(), title);
    EXPECT_EQ(visibleMessageBox(QStringLiteral("openTraceFailedDialog")), nullptr);
}

// A damaged file opened while a good one loads takes its place (as any file opened then does):
// its sentence in a dialog, and the window keeps the run it showed before either.
TEST_F(TraceLoadTest, ABadFileOpenedWhileAnotherLoadsGetsItsDialogAndTheWindowKeepsItsRun)
{
    auto window = makeWindow();
    const WindowParts &p = window->parts();
    ASSERT_TRUE(openFileAndWait(*window, ddp(QStringLiteral("shown.rstb"))));
    const TracePtr shown = p.session->trace();
    holdAt(*p.traceOpen, TraceLoader::Stage::Preparing);
    ASSERT_TRUE(window->openFile(ddp(QStringLiteral("loading.rstb"))));
    ASSERT_TRUE(reached());
    p.traceOpen->loader().setCheckpoint({}); // the bad file goes straight through
    const std::string good = io::traceToBinary(*referenceTrace("ddp"), {"ddp.py", "ddp"});
    ASSERT_TRUE(openFileAndWait(
        *window, write(QStringLiteral("cut.rstb"), good.substr(0, good.size() / 2))));
    QMessageBox *box = visibleMessageBox(QStringLiteral("openTraceFailedDialog"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().startsWith(QStringLiteral("cut.rstb cannot be opened")))
        << utf8(box->text());
    release();
    ASSERT_TRUE(workersDone(p));
    ASSERT_TRUE(deliverPostedEvents());
    EXPECT_EQ(p.session->trace(), shown) << "neither the bad run nor the replaced one is shown";
    EXPECT_FALSE(p.traceOpen->progressLine()->isVisible());
    EXPECT_TRUE(p.stepBar->isEnabled());
    box->close();
}

// `rankstep --open BIG --quit-after-first-paint`, or a window closed while a file opens: the
// worker is stopped, and the window's end is no news to the window (it crashed telling the
// status bar, gone, that the open had ended).
TEST_F(TraceLoadTest, ClosingTheWindowWhileATraceOpensStopsTheOpenQuietly)
{
    auto window = makeWindow();
    holdAt(*window->parts().traceOpen, TraceLoader::Stage::Reading);
    ASSERT_TRUE(window->openFile(ddp(QStringLiteral("closed.rstb"))));
    ASSERT_TRUE(reached());
    release(); // the window waits for the worker's next check as it closes
    window.reset();
    EXPECT_TRUE(deliverPostedEvents()) << "the open's end reaches nobody";
}

// `rankstep --open FILE --step N --describe X`: the steps and the description wait for the run
// read on the worker (a description taken before would show no run).
TEST(TraceLoadApp, AScriptedOpenStepsAndDescribesTheRunOnceItIsReady)
{
    testsupport::TempDir dir;
    const std::string trace = (dir.path() / "wide.rstb").string();
    {
        const std::string bytes = io::traceToBinary(*loopTrace(2000, 32));
        QFile file(QString::fromStdString(trace));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes.data(), qint64(bytes.size()));
    }
    const std::string described = (dir.path() / "window.json").string();
    const std::string home = dir.path().string();
    const auto run = testsupport::runProgram(
        "/usr/bin/env",
        {"QT_QPA_PLATFORM=offscreen", "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/config",
         "XDG_DATA_HOME=" + home + "/data", "XDG_RUNTIME_DIR=" + home, RANKSTEP_APP, "--open",
         trace, "--step", "3", "--step-by", "time", "--describe", described},
        dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    auto json = io::parseJson(testsupport::readFileText(described));
    ASSERT_TRUE(json) << testsupport::readFileText(described);
    const io::JsonValue *cursor = json->find("cursor");
    ASSERT_NE(cursor, nullptr) << "the description shows a run";
    const io::JsonValue *index = cursor->find("index");
    ASSERT_NE(index, nullptr);
    EXPECT_EQ(index->text, "3") << "the third time step of the opened run";
}

} // namespace
} // namespace rankstep::gui::testing
