// SPDX-License-Identifier: MIT
// The learner's code file is never damaged and an edit is never lost silently: a file that is not
// UTF-8 text opens read-only and is never rewritten, a failed save says so and keeps a recovery
// copy, and a store another window holds is read-only here.
#include "appearance.h"
#include "codeeditor.h"
#include "codekeeper.h"
#include "guitestsupport.h"
#include "progressstore.h"
#include "tests/gui/support/eventwaits.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

QByteArray readBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

class CodeKeeperTest : public ::testing::Test
{
protected:
    QString root() const { return m_dir.filePath(QStringLiteral("code")); }

    QTemporaryDir m_dir;
    Appearance m_appearance;
    CodeEditor m_editor{m_appearance};
};

// Latin-1 "é" and a NUL byte: Scintilla would show U+FFFD or cut the text at the NUL, and a save
// would have written that back over the learner's file (1433 bytes became 391).
TEST_F(CodeKeeperTest, AFileThatIsNotUtf8TextOpensReadOnlyWithAReasonAndIsNeverRewritten)
{
    for (const QByteArray &bytes :
         {QByteArray("# caf\xe9\nx = 1\n"), QByteArray("x = 1\n\0\ny = 2\n# the rest\n", 25)}) {
        ProgressStore store(root());
        writeBytes(store.codePath(QStringLiteral("ddp")), bytes);
        CodeKeeper keeper(store, m_editor);
        QSignalSpy notices(&keeper, &CodeKeeper::noticeChanged);
        keeper.open(QStringLiteral("ddp"), QStringLiteral("starter\n"));
        EXPECT_TRUE(keeper.readOnly());
        EXPECT_TRUE(m_editor.isReadOnly());
        ASSERT_EQ(notices.count(), 1);
        EXPECT_TRUE(keeper.notice().contains(QStringLiteral("read-only"))) << utf8(keeper.notice());
        EXPECT_TRUE(keeper.save()); // runs read a scratch copy
        EXPECT_NE(keeper.runFilePath(), store.codePath(QStringLiteral("ddp")));
        EXPECT_EQ(readBytes(store.codePath(QStringLiteral("ddp"))), bytes); // untouched
    }
}

// The point-to-point lesson was `talk` (the notebook's demonstration had that name, so grading a
// notebook counted it as a failed lesson): a learner's code and state move to `pass_along`,
// the function renamed, the rest byte for byte.
TEST_F(CodeKeeperTest, CodeAndStateOfARenamedLessonMoveToItsNewName)
{
    const QByteArray old = "# mine: caf\xc3\xa9\nasync def talk(model):\n    talk_more = 1\n";
    writeBytes(root() + QStringLiteral("/talk.py"), old);
    QSettings().setValue(QStringLiteral("progress/talk"), QStringLiteral("solved"));
    QSettings().setValue(QStringLiteral("session/lastLesson"), QStringLiteral("talk"));

    ProgressStore store(root());
    EXPECT_FALSE(QFile::exists(root() + QStringLiteral("/talk.py")));
    EXPECT_EQ(readBytes(store.codePath(QStringLiteral("pass_along"))),
              QByteArray("# mine: caf\xc3\xa9\nasync def pass_along(model):\n    talk_more = 1\n"));
    EXPECT_EQ(store.state(QStringLiteral("pass_along")), ProgressStore::State::Solved);
    EXPECT_EQ(store.state(QStringLiteral("talk")), ProgressStore::State::New);
    EXPECT_EQ(store.lastLesson(), QStringLiteral("pass_along"));

    // Once: code saved under the new name is never replaced by an old file found later.
    writeBytes(root() + QStringLiteral("/talk.py"), "async def talk(model):\n    pass\n");
    ProgressStore again(root());
    EXPECT_TRUE(readBytes(again.codePath(QStringLiteral("pass_along"))).contains("talk_more"));
    QSettings().remove(QStringLiteral("progress/pass_along"));
    QSettings().remove(QStringLiteral("session/lastLesson"));
}

TEST_F(CodeKeeperTest, UnicodeTextIsEditableAndSavedBackByteForByte)
{
    ProgressStore store(root());
    const QByteArray bytes = "# caf\xc3\xa9 \xe2\x86\x92 rank 0\nx = 1\n";
    writeBytes(store.codePath(QStringLiteral("ddp")), bytes);
    CodeKeeper keeper(store, m_editor);
    keeper.open(QStringLiteral("ddp"), QString());
    EXPECT_FALSE(keeper.readOnly());
    EXPECT_TRUE(keeper.notice().isEmpty());
    ASSERT_TRUE(keeper.save());
    EXPECT_EQ(readBytes(store.codePath(QStringLiteral("ddp"))), bytes);
}

// Resetting is the learner's way out of a file that is not text: its bytes are kept first.
TEST_F(CodeKeeperTest, ResetReplacesAFileThatIsNotTextOnlyAfterKeepingACopyOfIt)
{
    ProgressStore store(root());
    const QByteArray bytes("# caf\xe9\n");
    writeBytes(store.codePath(QStringLiteral("ddp")), bytes);
    CodeKeeper keeper(store, m_editor);
    keeper.open(QStringLiteral("ddp"), QString());
    keeper.resetTo(QStringLiteral("starter = 1\n"));
    EXPECT_FALSE(m_editor.isReadOnly());
    EXPECT_EQ(utf8(m_editor.text()), "starter = 1\n");
    const QStringList copies = QDir(root() + QStringLiteral("/recovery")).entryList(QDir::Files);
    ASSERT_EQ(copies.size(), 1);
    EXPECT_EQ(readBytes(root() + QStringLiteral("/recovery/") + copies.front()), bytes);
    EXPECT_TRUE(keeper.notice().contains(copies.front())) << utf8(keeper.notice());
}

// The code path is a folder, which even root cannot save over (a read-only file would not do as
// root).
TEST_F(CodeKeeperTest, AFailedSaveIsShownAndTheTextIsKeptInARecoveryFileUntilASaveWorks)
{
    ProgressStore store(root());
    const QString path = store.codePath(QStringLiteral("ddp"));
    ASSERT_TRUE(QDir().mkpath(path));
    CodeKeeper keeper(store, m_editor);
    keeper.open(QStringLiteral("ddp"), QStringLiteral("x = 1\n"));
    m_editor.setText(QStringLiteral("typed = 2\n"));
    QString error;
    EXPECT_FALSE(keeper.save(&error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(utf8(m_editor.text()), "typed = 2\n"); // the text stays
    const QStringList copies = QDir(root() + QStringLiteral("/recovery")).entryList(QDir::Files);
    ASSERT_EQ(copies.size(), 1);
    EXPECT_EQ(readBytes(root() + QStringLiteral("/recovery/") + copies.front()), "typed = 2\n");
    EXPECT_TRUE(keeper.notice().contains(QStringLiteral("could not be saved")));
    EXPECT_TRUE(keeper.notice().contains(copies.front())) << utf8(keeper.notice());

    ASSERT_TRUE(QDir().rmdir(path));
    EXPECT_TRUE(keeper.save());
    EXPECT_TRUE(keeper.notice().isEmpty());
    EXPECT_EQ(readBytes(path), "typed = 2\n");
}

// Two windows on one store overwrote each other's edits; the second now says who holds it.
TEST_F(CodeKeeperTest, AStoreAnotherWindowHoldsIsShownReadOnlyAndNeverWritten)
{
    ProgressStore first(root());
    ASSERT_FALSE(first.lock());
    ASSERT_TRUE(first.saveCode(QStringLiteral("ddp"), QStringLiteral("first = 1\n")));
    ProgressStore second(root());
    const auto held = second.lock();
    ASSERT_TRUE(held);
    EXPECT_TRUE(held->contains(QString::number(QCoreApplication::applicationPid()))) << utf8(*held);
    CodeKeeper keeper(second, m_editor);
    keeper.open(QStringLiteral("ddp"), QString());
    EXPECT_TRUE(m_editor.isReadOnly());
    EXPECT_EQ(keeper.notice(), *held);
    EXPECT_TRUE(keeper.save());
    EXPECT_EQ(readBytes(first.codePath(QStringLiteral("ddp"))), "first = 1\n");
}

// A 400 ms debounce alone never saved during a burst of typing: kill -9 lost all of it.
TEST_F(CodeKeeperTest, TheEditorAsksForASaveAtLeastOnceASecondWhileTypingGoesOn)
{
    m_editor.setCode(QStringLiteral("x = 1\n"));
    m_editor.show();
    QSignalSpy edited(&m_editor, &CodeEditor::codeEdited);
    // Keys one after the other, the editor's timers running between them: never a 400 ms pause
    // (unless a loaded machine stalls the test, which can only make the saves come sooner).
    // Without the rule, no save comes at all before the bound.
    QElapsedTimer typing;
    typing.start();
    for (int keys = 1; edited.count() < 2 && !typing.hasExpired(kSettleTimeoutMs); ++keys) {
        QTest::keyClick(&m_editor, keys % 80 != 0 ? Qt::Key_A : Qt::Key_Return);
        QCoreApplication::processEvents();
    }
    EXPECT_GE(edited.count(), 2);
}

// A modal "could not be saved" box kept a scripted `rankstep --run --screenshot` open forever.
TEST(ScriptedRun, ARunWhoseCodeCannotBeSavedReportsAndExits)
{
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    // The store's ddp.py is a folder: no save can work, not even as root.
    ASSERT_TRUE(QDir().mkpath(home.filePath(QStringLiteral("data/Rankstep/Rankstep/code/ddp.py"))));
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    const QString shot = home.filePath(QStringLiteral("shot.png"));
    app.start(QStringLiteral(RANKSTEP_APP),
              {QStringLiteral("--lesson"), QStringLiteral("ddp"), QStringLiteral("--run"),
               QStringLiteral("--screenshot"), shot});
    const bool ended = app.waitForFinished(30000);
    if (!ended)
        app.kill();
    ASSERT_TRUE(ended) << "the scripted run did not end";
    EXPECT_EQ(app.exitCode(), 1);
    EXPECT_TRUE(app.readAllStandardError().contains("saving failed"));
    EXPECT_TRUE(QFile::exists(shot)); // the picture shows why
}

} // namespace
} // namespace rankstep::gui::testing
