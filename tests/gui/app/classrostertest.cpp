// SPDX-License-Identifier: MIT
// File > Open Class Folder: a class folder graded in the background into the Class tab
// (a row per learner, a column per lesson, the common mistakes), a cell opening that learner's
// code read-only and running it without grading it as the teacher's, a missing cell doing
// nothing, Esc stopping the grading at once, and a folder that is not there saying so.
#include "codeeditor.h"
#include "gradecontroller.h"
#include "guitestsupport.h"
#include "rosterview.h"
#include "runsession.h"
#include "tests/gui/support/eventwaits.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

class ClassRosterTest : public WindowTest
{
protected:
    QString write(const QString &relative, const std::string &text)
    {
        const QString path = root() + QStringLiteral("/class/") + relative;
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text.data(), qint64(text.size()));
        return path;
    }

    // ana solved ddp and basic; ben updates before the allreduce; cho's ddp does not parse.
    QString makeClass()
    {
        const std::string ddp = builtinLesson(QStringLiteral("ddp")).solution;
        const std::string sum =
            "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";
        std::string updateFirst = ddp;
        updateFirst.replace(updateFirst.find(sum), sum.size(), "");
        write(QStringLiteral("ana/ddp.py"), ddp);
        write(QStringLiteral("ana/basic.py"), builtinLesson(QStringLiteral("basic")).solution);
        write(QStringLiteral("ben/ddp.py"), updateFirst);
        write(QStringLiteral("cho.py"),
              "async def ddp(model):\n    if model.rank = 0:\n        pass\n");
        return root() + QStringLiteral("/class");
    }

    static bool gradeAndWait(MainWindow &window, const QString &folder)
    {
        QSignalSpy done(window.parts().classGrading, &GradeController::finished);
        QSignalSpy failed(window.parts().classGrading, &GradeController::failed);
        window.parts().classActions->openFolder(folder);
        return QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); },
                               kRunTimeoutMs) &&
               !done.isEmpty();
    }

    static QString cell(const RosterView &view, const QString &learner, const QString &lesson)
    {
        const ClassRoster &roster = view.roster();
        const int column = int(roster.lessons.indexOf(lesson));
        for (int r = 0; r < int(roster.learners.size()); ++r)
            if (roster.learners[std::size_t(r)].name == learner && column >= 0)
                return view.table()->item(r, column)->text();
        return {};
    }
};

TEST_F(ClassRosterTest, AFolderIsGradedIntoARowPerLearnerWithTheCommonMistakes)
{
    auto window = makeWindow();
    const QString folder = makeClass();
    ASSERT_TRUE(gradeAndWait(*window, folder))
        << utf8(window->parts().rosterView->status()->text());
    EXPECT_EQ(window->currentTab(), Tab::Class);
    const RosterView &view = *window->parts().rosterView;
    EXPECT_FALSE(view.busy()->isVisible());
    ASSERT_EQ(view.table()->rowCount(), 3);
    EXPECT_EQ(view.roster().lessons, QStringList({QStringLiteral("basic"), QStringLiteral("ddp")}));
    EXPECT_EQ(cell(view, QStringLiteral("ana"), QStringLiteral("ddp")), QStringLiteral("✓"));
    EXPECT_EQ(cell(view, QStringLiteral("ana"), QStringLiteral("basic")), QStringLiteral("✓"));
    EXPECT_EQ(cell(view, QStringLiteral("ben"), QStringLiteral("ddp")),
              QStringLiteral("✗ update before allreduce"));
    EXPECT_EQ(cell(view, QStringLiteral("ben"), QStringLiteral("basic")), QStringLiteral("—"));
    EXPECT_EQ(cell(view, QStringLiteral("cho"), QStringLiteral("ddp")),
              QStringLiteral("✗ syntax error"));
    EXPECT_TRUE(view.status()->text().startsWith(QStringLiteral("3 learners, 2 of 4 graded")))
        << utf8(view.status()->text());
    EXPECT_TRUE(
        view.mistakes()->text().contains(QStringLiteral("1 learner: update before "
                                                        "allreduce (ddp)")))
        << utf8(view.mistakes()->text());
}

TEST_F(ClassRosterTest, ACellOpensThatLearnersCodeReadOnlyAndRunsItWithoutGradingIt)
{
    auto window = makeWindow();
    ASSERT_TRUE(gradeAndWait(*window, makeClass()));
    const RosterView &view = *window->parts().rosterView;
    const int ben = 1, ddp = int(view.roster().lessons.indexOf(QStringLiteral("ddp")));
    ASSERT_EQ(view.roster().learners[ben].name, QStringLiteral("ben"));
    QSignalSpy ran(window.get(), &MainWindow::runFinished);
    const QRect rect = view.table()->visualItemRect(view.table()->item(ben, ddp));
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, rect.center());
    ASSERT_TRUE(ran.wait(kRunTimeoutMs));
    EXPECT_EQ(window->currentLesson()->id, "ddp");
    EXPECT_TRUE(window->parts().editor->isReadOnly());
    EXPECT_FALSE(window->parts().editor->text().contains(QStringLiteral("await model.allreduce")))
        << "ben's code, without the allreduce";
    ASSERT_TRUE(window->parts().session->trace());
    ASSERT_TRUE(window->parts().session->trace()->error);
    EXPECT_NE(window->parts().session->trace()->error->message.find("update(layer 0)"),
              std::string::npos);
    EXPECT_EQ(progress().state(QStringLiteral("ddp")), ProgressStore::State::New)
        << "the learner's run is not the teacher's progress";
    EXPECT_EQ(window->currentTab(), Tab::Class) << "the roster stays in view";

    // A missing cell opens nothing.
    const int basic = int(view.roster().lessons.indexOf(QStringLiteral("basic")));
    const QRect missing = view.table()->visualItemRect(view.table()->item(ben, basic));
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, missing.center());
    EXPECT_EQ(window->currentLesson()->id, "ddp");
    // Opening the lesson again gives the teacher's own code back, editable.
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    EXPECT_FALSE(window->parts().editor->isReadOnly());
}

TEST_F(ClassRosterTest, EscStopsTheGradingAtOnce)
{
    auto window = makeWindow();
    write(QStringLiteral("loops/ddp.py"), testsupport::loopingFunction("ddp"));
    QSignalSpy stopped(window->parts().classGrading, &GradeController::stopped);
    window->parts().classActions->openFolder(root() + QStringLiteral("/class"));
    ASSERT_TRUE(window->parts().classGrading->isRunning());
    EXPECT_TRUE(window->parts().rosterView->busy()->isVisible());
    ASSERT_TRUE(waitForRunsInTheirLoops()) << "the grading never ran the endless code";
    window->stopRun();
    EXPECT_FALSE(window->parts().classGrading->isRunning());
    EXPECT_EQ(stopped.size(), 1);
    EXPECT_FALSE(window->parts().rosterView->busy()->isVisible());
    EXPECT_TRUE(
        window->parts().rosterView->status()->text().startsWith(QStringLiteral("Stopped.")));
}

TEST_F(ClassRosterTest, AFolderThatIsNotThereSaysSo)
{
    auto window = makeWindow();
    EXPECT_FALSE(gradeAndWait(*window, root() + QStringLiteral("/no-such-class")));
    EXPECT_TRUE(
        window->parts().rosterView->status()->text().contains(QStringLiteral("not a folder")))
        << utf8(window->parts().rosterView->status()->text());
}

} // namespace
} // namespace rankstep::gui::testing
