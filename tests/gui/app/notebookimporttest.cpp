// SPDX-License-Identifier: MIT
// File > Import notebook or Python file… as a learner uses it: Ctrl+I, the file dialog, the
// summary, the editor showing the imported code, and the learner's own code kept aside.
#include "guitestsupport.h"

#include "busyindicator.h"
#include "codeeditor.h"
#include "notebookimport.h"
#include "progressstore.h"
#include "tests/support/fulldisk.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QMenuBar>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

using NotebookImportTest = WindowTest;

QString notebookPath()
{
    return QStringLiteral(RANKSTEP_SOURCE_DIR "/tests/lessons/data/puzzles.ipynb");
}

QFileDialog *visibleFileDialog()
{
    for (QWidget *widget : QApplication::topLevelWidgets()) {
        auto *dialog = qobject_cast<QFileDialog *>(widget);
        if (dialog && dialog->isVisible() &&
            dialog->objectName() == QLatin1String("importFileDialog"))
            return dialog;
    }
    return nullptr;
}

QString fileText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

TEST_F(NotebookImportTest, CtrlIImportsTheNotebookKeepsTheLearnersCodeAndReloadsTheEditor)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString mine = QStringLiteral("# my own attempt\nasync def ddp(model):\n    pass\n");
    window->parts().editor->setCode(mine);
    ASSERT_TRUE(progress().saveCode(QStringLiteral("ddp"), mine));

    QTest::keyClick(window.get(), Qt::Key_I, Qt::ControlModifier);
    QFileDialog *dialog = nullptr;
    ASSERT_TRUE(QTest::qWaitFor([&] { return (dialog = visibleFileDialog()) != nullptr; }, 5000))
        << "Ctrl+I opens the file dialog";
    dialog->selectFile(notebookPath());
    static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept is protected

    QMessageBox *box = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return (box = visibleMessageBox(QStringLiteral("importSummary"))) != nullptr; },
        5000));
    EXPECT_EQ(utf8(box->text()), "Found 8 puzzle functions in puzzles.ipynb.");
    const std::string details = utf8(box->informativeText());
    EXPECT_NE(details.find("✓ Distributed data parallel (ddp): loaded into its editor"),
              std::string::npos)
        << details;
    EXPECT_NE(details.find("Functions that match no lesson (left out): myfunc"), std::string::npos)
        << details;
    EXPECT_EQ(details.find("Not found"), std::string::npos) << details;

    const QString editor = window->parts().editor->text();
    EXPECT_TRUE(
        editor.contains(QStringLiteral("weights[layer], opt_states[layer] = model.update(")))
        << utf8(editor);
    EXPECT_FALSE(editor.contains(QStringLiteral("my own attempt")));
    const QStringList backups = QDir(root()).entryList({QStringLiteral("ddp.before-import-*.py")});
    ASSERT_EQ(backups.size(), 1) << utf8(details.c_str());
    EXPECT_EQ(fileText(QDir(root()).filePath(backups.front())), mine);
    EXPECT_NE(details.find("Your earlier code was kept in"), std::string::npos);
    EXPECT_EQ(QDir(root()).entryList({QStringLiteral("*.before-import-*")}).size(), 1)
        << "lessons without code of the learner's own need no backup";
    box->accept();
}

TEST_F(NotebookImportTest, FilesAreReadOnAWorkerOneAfterAnotherWhileTheStatusBarSaysSo)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString garbage = QDir(root()).filePath(QStringLiteral("garbage.ipynb"));
    QFile file(garbage);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("not a notebook");
    file.close();
    QStringList finished;
    QObject::connect(window->parts().notebookImport, &NotebookImport::importFinished, window.get(),
                     [&](const ImportSummary &summary) { finished << summary.file; });

    // Two files dropped at once: the window is back before either is read.
    window->parts().notebookImport->importAndReport(notebookPath());
    window->parts().notebookImport->importAndReport(garbage);
    EXPECT_TRUE(window->parts().notebookImport->isImporting());
    EXPECT_TRUE(finished.isEmpty());
    EXPECT_TRUE(window->parts().busyIndicator->isBusy());
    EXPECT_TRUE(
        window->parts().busyIndicator->text().startsWith(QStringLiteral("Importing puzzles.ipynb")))
        << utf8(window->parts().busyIndicator->text());

    ASSERT_TRUE(
        QTest::qWaitFor([&] { return !window->parts().notebookImport->isImporting(); }, 10000));
    EXPECT_EQ(finished,
              (QStringList{QStringLiteral("puzzles.ipynb"), QStringLiteral("garbage.ipynb")}));
    EXPECT_FALSE(window->parts().busyIndicator->isBusy());
    EXPECT_TRUE(window->parts().editor->text().contains(
        QStringLiteral("weights[layer], opt_states[layer] = model.update(")))
        << "the open lesson shows the imported code";
    int boxes = 0;
    for (QWidget *top : QApplication::topLevelWidgets())
        boxes += top->isVisible() && top->objectName() == QLatin1String("importSummary");
    EXPECT_EQ(boxes, 2) << "each file gets its summary";
}

// Typing goes on while a file is read: what was typed is kept in the backup, and the imported
// code is what the lesson's file and the editor hold (the editor's reload saved the typing over
// the imported code).
TEST_F(NotebookImportTest, TypingWhileAFileIsReadIsKeptAndTheImportedCodeWins)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    CodeEditor *editor = window->parts().editor;
    editor->replaceAllUndoable(QStringLiteral("async def ddp(model):\n    pass\n"));
    QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
    QStringList imported;
    QString error;
    QObject::connect(window->parts().notebookImport, &NotebookImport::importFinished, window.get(),
                     [&](const ImportSummary &summary) {
                         imported = summary.imported;
                         error = summary.error;
                     });
    window->parts().notebookImport->importAndReport(notebookPath());
    QTest::keyClicks(editor, QStringLiteral("# typed meanwhile"));
    ASSERT_TRUE(editor->hasUnsavedEdits());

    ASSERT_TRUE(
        QTest::qWaitFor([&] { return !window->parts().notebookImport->isImporting(); }, 10000));
    EXPECT_TRUE(imported.contains(QStringLiteral("ddp"))) << utf8(error);
    const QString saved = savedText(progress(), QStringLiteral("ddp"));
    EXPECT_TRUE(saved.contains(QStringLiteral("weights[layer], opt_states[layer] = model.update(")))
        << utf8(saved);
    EXPECT_EQ(editor->text(), saved);
    const QStringList backups = QDir(root()).entryList({QStringLiteral("ddp.before-import-*.py")});
    ASSERT_EQ(backups.size(), 1);
    EXPECT_TRUE(fileText(QDir(root()).filePath(backups.front()))
                    .contains(QStringLiteral("# typed meanwhile")));
}

TEST_F(NotebookImportTest, ASummaryNamesAtMostADozenFunctionsOfAList)
{
    auto window = makeWindow();
    ImportSummary summary;
    summary.file = QStringLiteral("helpers.py");
    for (int k = 0; k < 6000; ++k)
        summary.unmatched << QStringLiteral("helper%1").arg(k);
    const QString details = window->parts().notebookImport->details(summary);
    EXPECT_TRUE(details.contains(QStringLiteral("helper0, helper1,"))) << utf8(details);
    EXPECT_TRUE(details.contains(QStringLiteral("helper10 and 5989 more"))) << utf8(details);
    EXPECT_FALSE(details.contains(QStringLiteral("helper11"))) << utf8(details);
    summary.unmatched = summary.unmatched.first(12);
    EXPECT_TRUE(
        window->parts().notebookImport->details(summary).endsWith(QStringLiteral("helper11")));
}

TEST_F(NotebookImportTest, AnImportedBrokenFunctionRunsAndShowsItsSyntaxError)
{
    auto window = makeWindow();
    const ImportSummary summary = window->parts().notebookImport->importFile(notebookPath());
    ASSERT_TRUE(summary.imported.contains(QStringLiteral("gpipe"))) << utf8(summary.error);
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    EXPECT_TRUE(window->parts().editor->text().contains(QStringLiteral("# the colon is missing")));

    ASSERT_TRUE(runAndWait(*window));
    ASSERT_TRUE(window->parts().session->trace());
    ASSERT_TRUE(window->parts().session->trace()->error.has_value());
    EXPECT_EQ(window->parts().session->trace()->error->kind, core::ErrorKind::Syntax);
    QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
    ASSERT_NE(box, nullptr) << "the error dialog names the line";
    box->accept();
}

TEST_F(NotebookImportTest, GarbageImportsNothingAndSaysWhy)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString before = window->parts().editor->text();
    const QString garbage = QDir(root()).filePath(QStringLiteral("garbage.ipynb"));
    QFile file(garbage);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x89PNG\r\n\x1a\n\0\0\xff", 11));
    file.close();

    const ImportSummary summary = window->parts().notebookImport->importFile(garbage);

    EXPECT_TRUE(summary.imported.isEmpty());
    EXPECT_TRUE(summary.error.startsWith(QStringLiteral("this is not a Jupyter notebook")))
        << utf8(summary.error);
    EXPECT_EQ(utf8(NotebookImport::headline(summary)), "Nothing was imported from garbage.ipynb.");
    EXPECT_EQ(window->parts().editor->text(), before);
}

// Window B, read-only because window A holds the store, imported a notebook and rewrote all 8 of
// A's code files.
TEST_F(NotebookImportTest, AReadOnlyWindowImportsNothingAndChangesNoSavedCode)
{
    ProgressStore windowA(root());
    ASSERT_FALSE(windowA.lock());
    const QString mine = QStringLiteral("# A's own attempt\nasync def ddp(model):\n    pass\n");
    ASSERT_TRUE(windowA.saveCode(QStringLiteral("ddp"), mine));
    const QStringList before = QDir(root()).entryList(QDir::AllEntries | QDir::Hidden);
    const auto held = progress().lock(); // this window's store: read-only
    ASSERT_TRUE(held);
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));

    const ImportSummary summary = window->parts().notebookImport->importFile(notebookPath());

    EXPECT_TRUE(summary.imported.isEmpty());
    EXPECT_EQ(utf8(summary.error),
              "Nothing was imported, and no saved code was changed. " + utf8(*held));
    EXPECT_EQ(utf8(NotebookImport::headline(summary)), "Nothing was imported from puzzles.ipynb.");
    EXPECT_EQ(fileText(windowA.codePath(QStringLiteral("ddp"))), mine);
    EXPECT_EQ(QDir(root()).entryList(QDir::AllEntries | QDir::Hidden), before);
    EXPECT_EQ(window->parts().editor->text(), mine);
}

// The data folder on a full disk, then an import: four 0-byte code files, "✓ loaded into its
// editor", and an empty editor at the next start.
TEST_F(NotebookImportTest, OnAFullDiskNoSavedCodeIsLostAndTheSummarySaysWhichFilesFailed)
{
    const QString mine = QStringLiteral("# my own attempt\nasync def ddp(model):\n    pass\n");
    ASSERT_TRUE(progress().saveCode(QStringLiteral("ddp"), mine));
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    ImportSummary summary;
    {
        const testsupport::FileSizeLimit full(0); // every write to a file fails, as on a full disk
        summary = window->parts().notebookImport->importFile(notebookPath());
    }
    EXPECT_TRUE(summary.imported.isEmpty()) << utf8(summary.imported.join(QLatin1Char(' ')));
    const QString tooLarge =
        QStringLiteral("(the file would be larger than this process may write (File too large))");
    EXPECT_TRUE(
        summary.error.contains(QStringLiteral("ddp was not imported: its earlier code "
                                              "could not be kept in ")))
        << utf8(summary.error);
    const QString gpipe = progress().codePath(QStringLiteral("gpipe"));
    EXPECT_TRUE(summary.error.contains(QStringLiteral("gpipe was not imported: ") + gpipe +
                                       QStringLiteral(" could not be written ") + tooLarge +
                                       QStringLiteral("; its saved code is unchanged.")))
        << utf8(summary.error);
    const std::string details = utf8(window->parts().notebookImport->details(summary));
    EXPECT_EQ(details.find("loaded into its editor"), std::string::npos) << details;
    EXPECT_EQ(fileText(progress().codePath(QStringLiteral("ddp"))), mine);
    EXPECT_EQ(QDir(root()).entryList({QStringLiteral("*.py"), QStringLiteral(".*")},
                                     QDir::Files | QDir::Hidden),
              QStringList{QStringLiteral("ddp.py")})
        << "no empty code file, no partial file";

    window.reset();
    auto restarted = makeWindow(); // the next start
    ASSERT_TRUE(restarted->openLesson(QStringLiteral("ddp")));
    EXPECT_EQ(restarted->parts().editor->text(), mine);
}

TEST_F(NotebookImportTest, TheFileMenuHoldsTheImportAction)
{
    auto window = makeWindow();
    QAction *action = window->parts().notebookImport->action();
    EXPECT_EQ(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
    bool inFileMenu = false;
    for (QAction *menu : window->menuBar()->actions())
        inFileMenu = inFileMenu || (menu->menu() && menu->menu()->actions().contains(action));
    EXPECT_TRUE(inFileMenu);
}

} // namespace
} // namespace rankstep::gui::testing
