// SPDX-License-Identifier: MIT
// The hostile inputs of tests/hostile/hostilecases.h typed into the app's editor and run with
// F5's MainWindow::runCode: the window stays up, a dialog says what happened in the runner's
// words, and the saved code file holds exactly what was typed.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "hostilecases.h"
#include "resultspanel.h"

#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>

namespace rankstep::gui::testing {
namespace {

using hostile::HostileCase;

// What the app shows of the runner's message: without "Error (rank 0, line 2): " or "Error: ",
// whose place the dialog's title takes, and without the first letter, which the app capitalizes.
QString shownPart(const HostileCase &c)
{
    QString text = QString::fromStdString(c.message);
    text.remove(QRegularExpression(QStringLiteral("^Error( \\([^)]*\\))?: ")));
    return text.mid(1);
}

QString dialogText(QMessageBox *box)
{
    return box->windowTitle() + QLatin1Char('\n') + box->text() + QLatin1Char('\n') +
           box->informativeText();
}

class HostileWindow
    : public WindowTest
    , public ::testing::WithParamInterface<std::string>
{};

TEST_P(HostileWindow, SurvivesShowsTheMessageAndKeepsTheTypedCode)
{
    const HostileCase &c = hostile::hostileCase(GetParam());
    if (c.skipUnderSanitizers && hostile::kSanitized)
        GTEST_SKIP() << "a sanitizer build has no memory cap and reports segfaults itself";
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    if (c.name == "InfiniteLoop")
        window->parts().lessonRun->setRunTimeLimit(2); // as the runner's test runs it
    const std::string function = builtinLesson(QStringLiteral("ddp")).function;
    const QString typed = QString::fromUtf8(hostile::sourceWithFunction(c, function));
    window->parts().editor->replaceAllUndoable(typed);

    ASSERT_TRUE(runAndWait(*window, 40000)) << "the run never finished";

    EXPECT_TRUE(window->isVisible());
    QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
    if (!box)
        box = visibleMessageBox(QStringLiteral("runFailedDialog"));
    if (c.messageOnStdout) {
        EXPECT_EQ(box, nullptr) << utf8(dialogText(box));
        EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Not solved")))
            << utf8(window->parts().results->text());
    } else if (c.name == "BinaryGarbage") {
        // The editor holds text: the bytes that are not UTF-8 became U+FFFD, which Python refuses.
        ASSERT_NE(box, nullptr) << utf8(window->parts().results->text());
        EXPECT_TRUE(dialogText(box).contains(QStringLiteral("Python cannot read the code")))
            << utf8(dialogText(box));
    } else {
        ASSERT_NE(box, nullptr) << "no dialog; results: " << utf8(window->parts().results->text());
        EXPECT_TRUE(dialogText(box).contains(shownPart(c)))
            << "expected: " << utf8(shownPart(c)) << "\nshown: " << utf8(dialogText(box));
    }
    if (box)
        box->close();

    const QString saved = savedText(progress(), QStringLiteral("ddp"));
    EXPECT_TRUE(saved == window->parts().editor->text()) << "the saved code is not what was typed";
    QFile file(progress().codePath(QStringLiteral("ddp")));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll() == window->parts().editor->text().toUtf8());
    if (c.name != "BinaryGarbage") {
        EXPECT_TRUE(window->parts().editor->text() == typed) << "the editor lost some of the code";
    }
}

INSTANTIATE_TEST_SUITE_P(EveryQuickCase, HostileWindow,
                         ::testing::Values("Exception", "SyntaxError", "InfiniteLoop",
                                           "InfiniteRecursion", "AllocatingGigabytes", "OsExit",
                                           "Segfault", "DeleteKeyTwice", "NonPuzzleValue",
                                           "ForeignAwaitable", "ForeignAwaitableObject",
                                           "FiveMegabyteSource", "BinaryGarbage"),
                         [](const ::testing::TestParamInfo<std::string> &param) {
                             return param.param;
                         });

} // namespace
} // namespace rankstep::gui::testing
