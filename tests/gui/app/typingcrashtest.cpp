// SPDX-License-Identifier: MIT
// kill -9 in the middle of a typing burst loses at most the last second: a child process (this
// test program again, running the disabled TypingChild test) types into the window while the test
// watches, then kills it and reads the saved code.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "mainwindow.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <vector>

namespace rankstep::gui::testing {
namespace {

const QByteArray kMarker = "# typing:";
constexpr int kKeyIntervalMs = 40;
// The window's promise is one second; the rest is for a loaded test machine's timers.
constexpr int kAllowedLossMs = 1000 + 300;

// The child: a window over the store in $RANKSTEP_TYPING_STORE, typing "# typing:" and then digits
// at the end of the ddp code, printing how many digits it has typed after each.
TEST(TypingChild, DISABLED_TypesIntoTheWindowUntilKilled)
{
    QStandardPaths::setTestModeEnabled(true);
    ProgressStore store(qEnvironmentVariable("RANKSTEP_TYPING_STORE"));
    MainWindow window(builtinLessons(), store);
    window.show();
    ASSERT_TRUE(window.openLesson(QStringLiteral("ddp")));
    CodeEditor *editor = window.parts().editor;
    editor->setCursorPosition(editor->lines() - 1, 0);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QString::fromLatin1(kMarker));
    // A key each time the typing timer fires, the window's own timers (its saves) running
    // between them as between a person's keys.
    int typed = 0;
    QTimer typing;
    typing.setInterval(kKeyIntervalMs);
    QObject::connect(&typing, &QTimer::timeout, editor, [&] {
        ++typed;
        QTest::keyClick(editor, char('0' + typed % 10));
        std::printf("%d\n", typed);
        std::fflush(stdout);
    });
    typing.start();
    // About 80 s at the least; the parent kills it long before.
    EXPECT_TRUE(QTest::qWaitFor([&] { return typed >= 2000; }, 2000 * kKeyIntervalMs * 10));
}

TEST(TypingCrash, KillNineInATypingBurstLosesAtMostTheLastSecond)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RANKSTEP_TYPING_STORE"), dir.path());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--gtest_also_run_disabled_tests"),
                 QStringLiteral("--gtest_filter=TypingChild.*")});
    ASSERT_TRUE(child.waitForStarted());

    // When the test saw each count: a digit seen at time t was typed before t.
    std::vector<qint64> seenAt; // seenAt[n - 1]: when n digits had been typed
    QElapsedTimer clock;
    clock.start();
    QByteArray pending;
    while (clock.elapsed() < 60000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(100);
        pending += child.readAllStandardOutput();
        for (qsizetype end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
            const int typed = pending.left(end).toInt();
            pending.remove(0, end + 1);
            if (typed == int(seenAt.size()) + 1)
                seenAt.push_back(clock.elapsed());
        }
        if (!seenAt.empty() && clock.elapsed() - seenAt.front() > 3000)
            break; // three seconds into the burst
    }
    ASSERT_EQ(child.state(), QProcess::Running) << child.readAllStandardError().toStdString();
    ::kill(pid_t(child.processId()), SIGKILL);
    const qint64 killedAt = clock.elapsed();
    child.waitForFinished();
    ASSERT_GT(seenAt.size(), 20U);

    std::size_t required = 0; // digits typed more than the allowed loss before the kill
    while (required < seenAt.size() && seenAt[required] < killedAt - kAllowedLossMs)
        ++required;
    QFile saved(dir.filePath(QStringLiteral("ddp.py")));
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly)) << "nothing of the burst was saved";
    const QByteArray text = saved.readAll();
    const qsizetype marker = text.indexOf(kMarker);
    ASSERT_GE(marker, 0) << "the marker typed first was not saved";
    qsizetype digits = 0;
    for (qsizetype i = marker + kMarker.size(); i < text.size() && std::isdigit(text[i]); ++i)
        ++digits;
    EXPECT_GE(std::size_t(digits), required)
        << "of " << seenAt.size() << " digits typed, " << digits << " were saved";
}

class LessonSwitch : public WindowTest
{};

// The last keys typed before another lesson is chosen were waiting for the save timer, which the
// new lesson's code stopped: they were lost.
TEST_F(LessonSwitch, KeysTypedJustBeforeChoosingAnotherLessonAreSaved)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    CodeEditor *editor = window->parts().editor;
    editor->setCursorPosition(editor->lines() - 1, 0);
    QTest::keyClicks(editor, QStringLiteral("# last words"));
    ASSERT_TRUE(editor->hasUnsavedEdits());
    ASSERT_TRUE(window->openLesson(QStringLiteral("basic")));
    EXPECT_TRUE(
        savedText(progress(), QStringLiteral("ddp")).contains(QStringLiteral("# last words")));
    EXPECT_FALSE(
        savedText(progress(), QStringLiteral("basic")).contains(QStringLiteral("last words")));
}

} // namespace
} // namespace rankstep::gui::testing
