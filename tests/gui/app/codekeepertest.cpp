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
#include "tests/support/fulldisk.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <optional>

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

// A read-only window writes nothing to the store: no save, no backup, no recovery copy there,
// and Reset to starter says why it changes nothing.
TEST_F(CodeKeeperTest, AReadOnlyWindowRefusesEveryWriteToTheStoreWithTheReason)
{
    ProgressStore first(root());
    ASSERT_FALSE(first.lock());
    ASSERT_TRUE(first.saveCode(QStringLiteral("ddp"), QStringLiteral("first = 1\n")));
    const QStringList before = QDir(root()).entryList(QDir::AllEntries | QDir::Hidden);
    ProgressStore second(root());
    const auto held = second.lock();
    ASSERT_TRUE(held);
    QString error;
    EXPECT_FALSE(second.saveCode(QStringLiteral("ddp"), QStringLiteral("second = 2\n"), &error));
    EXPECT_EQ(error, *held);
    EXPECT_TRUE(
        second.keepCopy(QStringLiteral("ddp"), QStringLiteral("copy.py"), &error).isEmpty());
    const QString recovery = second.saveRecovery(QStringLiteral("ddp"), "second = 2\n", &error);
    EXPECT_FALSE(recovery.startsWith(root())) << utf8(recovery);
    QFile::remove(recovery);

    CodeKeeper keeper(second, m_editor);
    keeper.open(QStringLiteral("ddp"), QStringLiteral("starter = 0\n"));
    keeper.resetTo(QStringLiteral("starter = 0\n"));
    EXPECT_EQ(utf8(keeper.notice()), "Nothing was reset. " + utf8(*held));
    EXPECT_EQ(utf8(m_editor.text()), "first = 1\n");
    EXPECT_EQ(readBytes(first.codePath(QStringLiteral("ddp"))), "first = 1\n");
    EXPECT_EQ(QDir(root()).entryList(QDir::AllEntries | QDir::Hidden), before);
}

// As root, a folder's mode bits bind only while this thread goes without root's file rights
// (capabilities are per thread): what a learner's account meets, in a test run as root.
class WithoutRootsFileRights
{
public:
    WithoutRootsFileRights()
    {
        syscall(SYS_capget, &m_header, m_saved);
        __user_cap_data_struct fewer[2] = {m_saved[0], m_saved[1]};
        for (const int right : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER})
            fewer[0].effective &= ~(1U << right);
        syscall(SYS_capset, &m_header, fewer);
    }
    ~WithoutRootsFileRights() { syscall(SYS_capset, &m_header, m_saved); }
    WithoutRootsFileRights(const WithoutRootsFileRights &) = delete;
    WithoutRootsFileRights &operator=(const WithoutRootsFileRights &) = delete;

private:
    __user_cap_header_struct m_header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct m_saved[2]{};
};

// A read-only folder said "Another Rankstep window (process 0 on this computer) has your saved
// code open": no lock file could be made, and no other window existed.
TEST_F(CodeKeeperTest, AReadOnlyCodeFolderIsCalledReadOnlyNotAnotherWindow)
{
    {
        ProgressStore writer(root());
        ASSERT_TRUE(writer.saveCode(QStringLiteral("ddp"), QStringLiteral("mine = 1\n")));
    }
    const QByteArray folder = QFile::encodeName(root());
    ASSERT_EQ(chmod(folder.constData(), 0555), 0);
    std::optional<QString> why;
    {
        const WithoutRootsFileRights asALearner;
        ProgressStore store(root());
        why = store.lock();
        CodeKeeper keeper(store, m_editor);
        keeper.open(QStringLiteral("ddp"), QStringLiteral("starter = 0\n"));
        EXPECT_TRUE(m_editor.isReadOnly());
        EXPECT_EQ(utf8(m_editor.text()), "mine = 1\n");
        if (why) {
            EXPECT_EQ(keeper.notice(), *why);
        }
    }
    chmod(folder.constData(), 0755);
    ASSERT_TRUE(why) << "the store was locked in a read-only folder";
    EXPECT_TRUE(why->startsWith(QStringLiteral("Your code folder ") + root() +
                                QStringLiteral(" cannot be written (it is read-only for you)")))
        << utf8(*why);
    EXPECT_TRUE(why->contains(QStringLiteral("Rankstep can save nothing there"))) << utf8(*why);
    EXPECT_FALSE(why->contains(QStringLiteral("Another Rankstep window"))) << utf8(*why);
}

// A code file that is a symbolic link: a save wrote through it, to a file outside the store
// (~/.bashrc as well as any). The link is now replaced by a file in the store, and said so.
TEST_F(CodeKeeperTest, ACodeFileThatIsALinkIsReplacedInTheStoreAndNeverWrittenThrough)
{
    QTemporaryDir outside;
    const QString target = outside.filePath(QStringLiteral("bashrc"));
    writeBytes(target, "# outside the store\n");
    ProgressStore store(root());
    const QString path = store.codePath(QStringLiteral("ddp"));
    ASSERT_TRUE(QFile::link(target, path));
    CodeKeeper keeper(store, m_editor);
    keeper.open(QStringLiteral("ddp"), QStringLiteral("starter = 0\n"));
    EXPECT_TRUE(keeper.notice().contains(QStringLiteral("is a link to ") + target))
        << utf8(keeper.notice());
    m_editor.setText(QStringLiteral("typed = 1\n"));
    ASSERT_TRUE(keeper.save());
    EXPECT_EQ(readBytes(target), "# outside the store\n");
    EXPECT_FALSE(QFileInfo(path).isSymLink());
    EXPECT_EQ(readBytes(path), "typed = 1\n");
    EXPECT_TRUE(keeper.notice().isEmpty());
}

// A full disk: Qt 6.4's QSaveFile took a write refused at its close for written and renamed an
// empty file over the saved code.
TEST_F(CodeKeeperTest, ASaveOnAFullDiskKeepsTheSavedFileWholeAndSaysWhy)
{
    ProgressStore store(root());
    ASSERT_TRUE(store.saveCode(QStringLiteral("ddp"), QStringLiteral("saved = 1\n")));
    CodeKeeper keeper(store, m_editor);
    keeper.open(QStringLiteral("ddp"), QString());
    m_editor.setText(QStringLiteral("typed = 2\n"));
    QString error;
    {
        const testsupport::FileSizeLimit full(0);
        EXPECT_FALSE(keeper.save(&error));
    }
    EXPECT_EQ(utf8(error), "the file would be larger than this process may write (File too large)");
    EXPECT_EQ(readBytes(store.codePath(QStringLiteral("ddp"))), "saved = 1\n");
    EXPECT_TRUE(keeper.notice().contains(QStringLiteral("could not be saved")))
        << utf8(keeper.notice());
    EXPECT_EQ(utf8(m_editor.text()), "typed = 2\n");
    EXPECT_TRUE(keeper.save());
    EXPECT_EQ(readBytes(store.codePath(QStringLiteral("ddp"))), "typed = 2\n");
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
