// SPDX-License-Identifier: MIT
// File > Export as PyTorch Program…: the code in the editor, saved, becomes a plain PyTorch
// program through rankstep-cli export; code that does not run gives a dialog and no program.
#include "guitestsupport.h"
#include "mainwindow.h"
#include "torchexportactions.h"
#include "torchexporter.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace rankstep::gui {
namespace {

using testing::builtinLesson;
using testing::WindowTest;

class TorchExportTest : public WindowTest
{};

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

TEST_F(TorchExportTest, WritesTheEditorsCodeAsAProgramForTorchrun)
{
    auto window = makeWindow();
    auto *actions = window->findChild<TorchExportActions *>();
    ASSERT_NE(actions, nullptr);
    auto *fileMenu = window->findChild<QMenu *>(QStringLiteral("fileMenu"));
    ASSERT_NE(fileMenu, nullptr);
    EXPECT_TRUE(fileMenu->actions().contains(actions->action()));
    ASSERT_TRUE(window->openLesson(QStringLiteral("fsdp")));
    EXPECT_EQ(actions->suggestedName(), QStringLiteral("fsdp.py"));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("fsdp")).solution));

    QTemporaryDir dir;
    const QString program = dir.filePath(QStringLiteral("fsdp.py"));
    QSignalSpy exported(&actions->exporter(), &TorchExporter::exported);
    QSignalSpy failed(&actions->exporter(), &TorchExporter::exportFailed);
    ASSERT_TRUE(actions->exportTo(program));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !exported.isEmpty() || !failed.isEmpty(); }, 60000));
    ASSERT_TRUE(failed.isEmpty()) << failed.front().front().toString().toStdString();
    EXPECT_EQ(exported.front().at(0).toString(), program);
    EXPECT_TRUE(exported.front().at(1).toString().contains(
        QStringLiteral("torchrun --standalone --nproc_per_node 4")));
    const QString text = readText(program);
    // The solution's schedule at the lesson's 4 ranks and 6 layers: shards gathered, then used.
    EXPECT_TRUE(text.contains(QStringLiteral("RANKS, LAYERS, BATCHES = 4, 6, 4")))
        << text.left(2000).toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("r.all_gather(\"weight\", 5, total=4")));
    EXPECT_TRUE(text.contains(QStringLiteral("def rank_3(r):")));
    EXPECT_FALSE(text.contains(QStringLiteral("rankstep_real")));
}

TEST_F(TorchExportTest, CodeThatRaisesIsNotExportedAndSaysWhy)
{
    auto window = makeWindow();
    auto *actions = window->findChild<TorchExportActions *>();
    ASSERT_NE(actions, nullptr);
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(
        QStringLiteral("async def ddp(model):\n"
                       "    raise ValueError('nothing to export')\n"));
    QTemporaryDir dir;
    const QString program = dir.filePath(QStringLiteral("ddp.py"));
    QSignalSpy failed(&actions->exporter(), &TorchExporter::exportFailed);
    ASSERT_TRUE(actions->exportTo(program));
    ASSERT_TRUE(failed.wait(60000));
    const QString why = failed.front().front().toString();
    EXPECT_TRUE(why.contains(QStringLiteral("nothing to export"))) << why.toStdString();
    EXPECT_FALSE(QFile::exists(program));
    EXPECT_TRUE(QTest::qWaitFor(
        [] { return testing::visibleMessageBox(QStringLiteral("torchExportFailedDialog")); },
        5000));
}

} // namespace
} // namespace rankstep::gui
