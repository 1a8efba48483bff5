// SPDX-License-Identifier: MIT
// Files handed to the app: a notebook or .py dropped on the window is imported, the
// files and folders opened are in File > Open Recent after a restart, a recent file that is gone
// leaves the list with a message, and a file of another kind is refused with a sentence.
#include "codeeditor.h"
#include "demoactions.h"
#include "gradecontroller.h"
#include "guitestsupport.h"
#include "notebookimport.h"
#include "recentfiles.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QMenu>
#include <QMimeData>
#include <QTest>
#include <QUrl>

namespace rankstep::gui::testing {
namespace {

class OpenFilesTest : public WindowTest
{
protected:
    QString write(const QString &name, const std::string &text)
    {
        const QString path = root() + QLatin1Char('/') + name;
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text.data(), qint64(text.size()));
        return path;
    }
    // Imports read on a worker thread; their summary comes after.
    static bool importsDone(MainWindow &window)
    {
        return QTest::qWaitFor([&] { return !window.parts().notebookImport->isImporting(); },
                               10000);
    }
    static void closeDialogs()
    {
        for (QWidget *top : QApplication::topLevelWidgets())
            if (auto *box = qobject_cast<QMessageBox *>(top))
                box->close();
    }
};

TEST_F(OpenFilesTest, ANotebookDroppedOnTheWindowIsImported)
{
    auto window = makeWindow();
    const std::string solution = builtinLesson(QStringLiteral("ddp")).solution;
    const QString file = write(QStringLiteral("mine.py"), solution);
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(file)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window.get(), &enter);
    EXPECT_TRUE(enter.isAccepted()) << "a local file is welcome";
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window.get(), &drop);
    ASSERT_TRUE(importsDone(*window));
    EXPECT_NE(visibleMessageBox(QStringLiteral("importSummary")), nullptr);
    EXPECT_TRUE(savedText(progress(), QStringLiteral("ddp")).contains(QStringLiteral("allreduce")));
    closeDialogs();

    QMimeData web;
    web.setUrls({QUrl(QStringLiteral("https://example.org/x.ipynb"))});
    QDragEnterEvent remote(QPoint(10, 10), Qt::CopyAction, &web, Qt::LeftButton, Qt::NoModifier);
    remote.setAccepted(false);
    QApplication::sendEvent(window.get(), &remote);
    EXPECT_FALSE(remote.isAccepted()) << "only files on this machine";
}

TEST_F(OpenFilesTest, RecentFilesSurviveARestartAndAGoneOneLeavesTheList)
{
    const QString notebook =
        write(QStringLiteral("a.py"), builtinLesson(QStringLiteral("basic")).solution);
    const QString gone = write(QStringLiteral("gone.py"), "async def ddp(model):\n    pass\n");
    const QString folder = root() + QStringLiteral("/class");
    write(QStringLiteral("class/ana/ddp.py"), builtinLesson(QStringLiteral("ddp")).solution);
    {
        auto window = makeWindow();
        EXPECT_TRUE(window->openFile(gone));
        ASSERT_TRUE(importsDone(*window));
        closeDialogs();
        EXPECT_TRUE(window->openFile(notebook));
        ASSERT_TRUE(importsDone(*window));
        closeDialogs();
        EXPECT_TRUE(window->openFile(folder));
        window->parts().classGrading->stop();
    }
    auto window = makeWindow(); // a restart
    const QStringList recent = window->parts().recentFiles->paths();
    EXPECT_EQ(recent, QStringList({QFileInfo(folder).absoluteFilePath(),
                                   QFileInfo(notebook).absoluteFilePath(),
                                   QFileInfo(gone).absoluteFilePath()}));
    auto *first = window->findChild<QAction *>(QStringLiteral("recent0"));
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(first->text().contains(QStringLiteral("class")));
    first->trigger();
    EXPECT_TRUE(window->parts().classGrading->isRunning()) << "the class folder is graded again";
    window->parts().classGrading->stop();

    QFile::remove(gone);
    window->findChild<QAction *>(QStringLiteral("recent2"))->trigger();
    EXPECT_EQ(window->parts().recentFiles->paths().size(), 2)
        << "the file that is gone left the list";
    window->findChild<QAction *>(QStringLiteral("clearRecentAction"))->trigger();
    EXPECT_TRUE(window->parts().recentFiles->paths().isEmpty());
}

TEST_F(OpenFilesTest, AFileOfAnotherKindIsRefusedWithASentence)
{
    auto window = makeWindow();
    const QString text = write(QStringLiteral("notes.txt"), "hello\n");
    EXPECT_FALSE(window->openFile(text));
    QMessageBox *box = visibleMessageBox(QStringLiteral("openFileFailedDialog"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QStringLiteral("notes.txt is none of these")))
        << utf8(box->text());
    closeDialogs();
    const QString broken = write(QStringLiteral("demo.json"), "{\"format\": \"something else\"}");
    EXPECT_FALSE(window->openFile(broken));
    box = visibleMessageBox(QStringLiteral("openFileFailedDialog"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QStringLiteral("JSON of another kind"))) << utf8(box->text());
    closeDialogs();
    EXPECT_FALSE(window->openFile(root() + QStringLiteral("/nowhere.py")));
    EXPECT_TRUE(window->parts().recentFiles->paths().isEmpty()) << "nothing that failed is kept";
}

} // namespace
} // namespace rankstep::gui::testing
