// SPDX-License-Identifier: MIT
// The conventions a Qt app on Linux keeps: Edit and Help menus, File > Quit, every
// shortcut that has a QKeySequence::StandardKey on it, no key doing two things, a Keyboard
// Shortcuts page that lists them all; find, replace and go to line in the code.
#include "busyindicator.h"
#include "codeeditor.h"
#include "editactions.h"
#include "guitestsupport.h"
#include "helpactions.h"
#include "legendbar.h"
#include "lessonpanel.h"
#include "memorychart.h"
#include "resultspanel.h"
#include "runsession.h"
#include "stateview.h"
#include "stepbar.h"
#include "tests/gui/support/eventwaits.h"
#include "timelineview.h"
#include "waitforview.h"

#include <QAction>
#include <QDialog>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QXmlStreamReader>

#include <map>
#include <set>

namespace rankstep::gui::testing {
namespace {

class DesktopConventionsTest : public WindowTest
{};

QAction *action(MainWindow &window, const char *name)
{
    return window.findChild<QAction *>(QString::fromLatin1(name));
}

TEST_F(DesktopConventionsTest, StandardActionsUseTheDesktopsKeys)
{
    auto window = makeWindow();
    const std::pair<const char *, QKeySequence::StandardKey> standard[] = {
        {"undoAction", QKeySequence::Undo},
        {"redoAction", QKeySequence::Redo},
        {"cutAction", QKeySequence::Cut},
        {"copyAction", QKeySequence::Copy},
        {"pasteAction", QKeySequence::Paste},
        {"selectAllAction", QKeySequence::SelectAll},
        {"findAction", QKeySequence::Find},
        {"findNextAction", QKeySequence::FindNext},
        {"findPreviousAction", QKeySequence::FindPrevious},
        {"replaceAction", QKeySequence::Replace},
        {"presentationAction", QKeySequence::FullScreen},
        {"shortcutsAction", QKeySequence::HelpContents},
        {"zoomOutAction", QKeySequence::ZoomOut},
        {"stopAction", QKeySequence::Cancel},
    };
    for (const auto &[name, key] : standard) {
        QAction *found = action(*window, name);
        ASSERT_NE(found, nullptr) << name;
        EXPECT_EQ(found->shortcuts(), QKeySequence::keyBindings(key)) << name;
    }
    const QList<QKeySequence> quit = QKeySequence::keyBindings(QKeySequence::Quit);
    EXPECT_EQ(action(*window, "quitAction")->shortcuts(),
              quit.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Q)} : quit);
    // The menus a user looks for, in the usual order.
    QStringList menus;
    for (const QAction *top : window->menuBar()->actions())
        menus << top->text().remove(QLatin1Char('&'));
    EXPECT_EQ(menus,
              QStringList({QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("Run"),
                           QStringLiteral("View"), QStringLiteral("Help")}));
    // The toolbar names the key the action has, not a text of its own.
    EXPECT_EQ(action(*window, "runAction")->text(), QStringLiteral("▶ Run (F5)"));
}

TEST_F(DesktopConventionsTest, NoKeyDoesTwoThingsAndThePageListsEveryOne)
{
    auto window = makeWindow();
    std::map<QString, QString> owner;
    int withKeys = 0;
    for (const QAction *each : window->findChildren<QAction *>()) {
        if (each->shortcuts().isEmpty())
            continue;
        ++withKeys;
        for (const QKeySequence &key : each->shortcuts()) {
            const QString text = key.toString(QKeySequence::PortableText);
            const auto [it, fresh] = owner.emplace(text, each->text());
            EXPECT_TRUE(fresh || it->second == each->text())
                << utf8(text) << ": " << utf8(it->second) << " and " << utf8(each->text());
        }
    }
    const std::vector<ShortcutEntry> listed = windowShortcuts(window.get());
    std::set<QString> what;
    for (const ShortcutEntry &entry : listed)
        what.insert(entry.what);
    for (const char *name : {"Undo", "Find", "Go to Line", "Quit", "Keyboard Shortcuts",
                             "Presentation Mode", "One step on", "To the end of the run"})
        EXPECT_TRUE(what.count(QString::fromLatin1(name))) << name;
    EXPECT_GE(int(listed.size()), withKeys);
    QDialog *page = window->parts().helpActions->shortcutsDialog();
    const auto *table = page->findChild<QTableWidget *>(QStringLiteral("shortcutsTable"));
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->rowCount(), int(listed.size()));
    delete page;
}

TEST_F(DesktopConventionsTest, FindReplaceAndGoToLineWorkOnTheCode)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    CodeEditor &editor = *window->parts().editor;
    editor.setText(QStringLiteral("a = 1\nb = a + a\nprint(a)\n"));
    EditActions &edit = *window->parts().editActions;
    action(*window, "findAction")->trigger();
    EXPECT_TRUE(edit.findBar()->isVisible());
    edit.findField()->setText(QStringLiteral("a + a"));
    EXPECT_TRUE(edit.findNext());
    int line = 0, index = 0;
    editor.getCursorPosition(&line, &index);
    EXPECT_EQ(line, 1);
    edit.findField()->setText(QStringLiteral("zzz"));
    EXPECT_FALSE(edit.findNext());
    action(*window, "replaceAction")->trigger();
    edit.findField()->setText(QStringLiteral("a"));
    edit.replaceField()->setText(QStringLiteral("x"));
    EXPECT_EQ(edit.replaceAll(), 4);
    EXPECT_EQ(editor.text(), QStringLiteral("x = 1\nb = x + x\nprint(x)\n"));
    editor.undo(); // one undo takes every replacement back
    EXPECT_EQ(editor.text(), QStringLiteral("a = 1\nb = a + a\nprint(a)\n"));
    // Replace replaces a match whatever its case, as the search finds it (found in review: it
    // only moved on).
    editor.setText(QStringLiteral("Foo = 1\n"));
    editor.setCursorPosition(0, 0);
    edit.findField()->setText(QStringLiteral("foo"));
    edit.replaceField()->setText(QStringLiteral("bar"));
    ASSERT_TRUE(edit.findNext());
    edit.replaceOne();
    EXPECT_EQ(editor.text(), QStringLiteral("bar = 1\n"));
    // Esc in the field closes the bar, not a run.
    QTest::keyClick(edit.findField(), Qt::Key_Escape);
    EXPECT_FALSE(edit.findBar()->isVisible());
    // A read-only editor (another learner's code) is searched but never changed.
    window->showScriptCode(QStringLiteral("a = a\n"), QStringLiteral("read-only"));
    edit.findField()->setText(QStringLiteral("a"));
    EXPECT_EQ(edit.replaceAll(), 0);
    EXPECT_EQ(editor.text(), QStringLiteral("a = a\n"));
}

TEST_F(DesktopConventionsTest, QuitClosesTheWindowAndKeepsTheCode)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("basic")));
    window->parts().editor->setText(QStringLiteral("# kept\n"));
    action(*window, "quitAction")->trigger();
    EXPECT_FALSE(window->isVisible());
    EXPECT_EQ(savedText(progress(), QStringLiteral("basic")), QStringLiteral("# kept\n"));
}

TEST_F(DesktopConventionsTest, ABusyIndicatorNamesTheRunAndItsSeconds)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(QString::fromStdString(testsupport::loopingFunction("ddp")));
    BusyIndicator &busy = *window->parts().busyIndicator;
    EXPECT_FALSE(busy.isVisible());
    window->runCode();
    ASSERT_TRUE(waitForRunsInTheirLoops());
    // The run's name and its seconds, which count up while it runs (from 0.0 s at the start).
    const QRegularExpression named(QStringLiteral("^Running your code… (\\d+\\.\\d) s$"));
    const auto countsUp = [&] {
        const QRegularExpressionMatch match = named.match(busy.text());
        return busy.isVisible() && match.hasMatch() && match.captured(1).toDouble() > 0.0;
    };
    EXPECT_TRUE(QTest::qWaitFor(countsUp, kSettleTimeoutMs)) << utf8(busy.text());
    window->stopRun();
    EXPECT_FALSE(busy.isVisible());
}

TEST_F(DesktopConventionsTest, EveryViewHasANameAndThePaintedOnesSayWhatTheyShow)
{
    auto window = makeWindow();
    for (QWidget *view : std::initializer_list<QWidget *>{
             window->parts().editor, window->parts().lessonList, window->parts().lessonPanel,
             window->parts().results, window->parts().stateView, window->parts().waitForView,
             window->parts().timeline, window->parts().memoryChart, window->parts().stepBar,
             window->parts().legendBar}) {
        EXPECT_FALSE(view->accessibleName().isEmpty()) << view->metaObject()->className();
        EXPECT_FALSE(view->accessibleDescription().isEmpty()) << view->metaObject()->className();
    }
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().session->setSelectedRank(2);
    // The text follows once the changes settle, in as many event rounds as that takes.
    const auto stateSays = [&] {
        const QString state = window->parts().stateView->accessibleDescription();
        return state.contains(QStringLiteral("rank 2")) &&
               state.contains(QStringLiteral("weights[0]"));
    };
    EXPECT_TRUE(QTest::qWaitFor(stateSays, kSettleTimeoutMs))
        << utf8(window->parts().stateView->accessibleDescription());
    window->parts().session->setSelectedEvent(0);
    const auto timelineSays = [&] {
        return window->parts().timeline->accessibleDescription().startsWith(
            QStringLiteral("Selected: rank "));
    };
    EXPECT_TRUE(QTest::qWaitFor(timelineSays, kSettleTimeoutMs))
        << utf8(window->parts().timeline->accessibleDescription());
    EXPECT_TRUE(
        window->parts().memoryChart->accessibleDescription().startsWith(QStringLiteral("Peak ")));
    EXPECT_EQ(window->parts().waitForView->accessibleDescription(),
              QStringLiteral("The run did not hang."));
}

// The desktop entry is named after the AppStream id (as desktops and software centres expect;
// main.cpp sets the same desktop file name), speaks German as the app does, and the metainfo
// launches it, links the project, shows the picture committed in the tree and names the app's
// Qt translations.
TEST(DesktopFiles, TheEntryAndTheMetainfoNameEachOtherAndSpeakTheAppsLanguages)
{
    const QString resources = QStringLiteral(RANKSTEP_SOURCE_DIR "/resources/");
    const QString id = QStringLiteral("io.github.rankstep.Rankstep");
    QFile entryFile(resources + id + QStringLiteral(".desktop"));
    ASSERT_TRUE(entryFile.open(QIODevice::ReadOnly)) << utf8(entryFile.fileName());
    const QString entry = QString::fromUtf8(entryFile.readAll());
    for (const char *key : {"\nName[de]=", "\nComment[de]="})
        EXPECT_TRUE(entry.contains(QString::fromLatin1(key))) << key;
    EXPECT_FALSE(QFile::exists(resources + QStringLiteral("rankstep.desktop")));

    QFile metainfoFile(resources + id + QStringLiteral(".metainfo.xml"));
    ASSERT_TRUE(metainfoFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&metainfoFile);
    std::map<QString, QString> found; // element (with its type) -> text
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QString type = xml.attributes().value(QStringLiteral("type")).toString();
        const QString name =
            xml.name().toString() + (type.isEmpty() ? QString() : QLatin1Char(':') + type);
        if (xml.name() == QStringLiteral("id") || xml.name() == QStringLiteral("launchable") ||
            xml.name() == QStringLiteral("url") || xml.name() == QStringLiteral("image") ||
            xml.name() == QStringLiteral("translation"))
            found[name] = xml.readElementText();
    }
    ASSERT_FALSE(xml.hasError()) << utf8(xml.errorString());
    EXPECT_EQ(found[QStringLiteral("id")], id);
    EXPECT_EQ(found[QStringLiteral("launchable:desktop-id")], id + QStringLiteral(".desktop"));
    EXPECT_TRUE(found[QStringLiteral("url:homepage")].startsWith(QStringLiteral("https://")));
    // The screenshot is the picture the tree holds, at its place in the repository.
    const QString image = found[QStringLiteral("image")];
    const qsizetype inTree = image.indexOf(QStringLiteral("/main/"));
    ASSERT_GE(inTree, 0) << utf8(image);
    EXPECT_TRUE(QFile::exists(QStringLiteral(RANKSTEP_SOURCE_DIR "/") + image.mid(inTree + 6)))
        << utf8(image);
    EXPECT_TRUE(QFile::exists(resources + QStringLiteral("translations/") +
                              found[QStringLiteral("translation:qt")] + QStringLiteral("_de.ts")));
}

TEST_F(DesktopConventionsTest, TheAboutBoxCreditsThePuzzlesItBuildsOn)
{
    const QString about = HelpActions::aboutText();
    EXPECT_TRUE(about.contains(QStringLiteral("Sasha Rush"))) << utf8(about);
    EXPECT_TRUE(about.contains(QStringLiteral("LLM Training Puzzles"))) << utf8(about);
    EXPECT_TRUE(about.contains(QStringLiteral("MIT"))) << utf8(about);
}

} // namespace
} // namespace rankstep::gui::testing
