// SPDX-License-Identifier: MIT
// The lesson list: every built-in lesson in order, each with its state from the progress store.
#include "guitestsupport.h"

#include "core/lessons/builtin.h"
#include "lessonlistmodel.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <memory>

namespace rankstep::gui::testing {
namespace {

class LessonList : public WindowTest
{
protected:
    void SetUp() override
    {
        WindowTest::SetUp();
        m_model = std::make_unique<LessonListModel>(builtinLessons(), progress());
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    }

    LessonListModel &model() { return *m_model; }
    QString display(const QString &id) const
    {
        return m_model->index(m_model->rowOf(id)).data(Qt::DisplayRole).toString();
    }

private:
    std::unique_ptr<LessonListModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

TEST_F(LessonList, HasOneRowPerBuiltInLessonFolderInOrder)
{
    int folders = 0;
    for (const auto &[name, content] : lessons::builtinLessonFiles()) {
        folders += name.ends_with("/lesson.json") ? 1 : 0;
    }
    ASSERT_GT(folders, 0);
    EXPECT_EQ(model().rowCount(), folders);
    EXPECT_EQ(model().rowCount(model().index(0)), 0) << "a list has no children";

    int previousOrder = -1;
    for (int row = 0; row < model().rowCount(); ++row) {
        const lessons::Lesson *lesson = model().lessonAt(row);
        ASSERT_NE(lesson, nullptr);
        EXPECT_GT(lesson->order, previousOrder) << lesson->id;
        previousOrder = lesson->order;
        const QModelIndex index = model().index(row);
        EXPECT_EQ(index.data(LessonListModel::IdRole).toString().toStdString(), lesson->id);
        EXPECT_EQ(model().rowOf(QString::fromStdString(lesson->id)), row);
        EXPECT_TRUE(
            index.data(Qt::DisplayRole).toString().endsWith(QString::fromStdString(lesson->title)));
        EXPECT_EQ(utf8(index.data(LessonListModel::StateRole).toString()), "new");
    }
}

// A row's tooltip says the lesson's setting in its own terms: "1 rank", and a PyTorch lesson's
// steps instead of puzzle layers and batches it has none of.
TEST_F(LessonList, TellsEachLessonsSettingInItsTooltip)
{
    const auto tip = [this](const char *id) {
        return model()
            .index(model().rowOf(QString::fromLatin1(id)))
            .data(Qt::ToolTipRole)
            .toString();
    };
    EXPECT_TRUE(tip("basic").contains(QStringLiteral("1 rank, 2 layers, 4 batches")))
        << utf8(tip("basic"));
    EXPECT_TRUE(tip("ddp").contains(QStringLiteral("4 ranks, 2 layers, 4 batches")))
        << utf8(tip("ddp"));
    EXPECT_TRUE(tip("torch_ddp").contains(QStringLiteral("2 ranks, PyTorch, 100 steps")))
        << utf8(tip("torch_ddp"));
    EXPECT_FALSE(tip("torch_loop").contains(QStringLiteral("layers"))) << utf8(tip("torch_loop"));
}

TEST_F(LessonList, TicksALessonOnceItIsSolved)
{
    const QString ddp = QStringLiteral("ddp");
    ASSERT_GE(model().rowOf(ddp), 0);
    EXPECT_FALSE(display(ddp).startsWith(QStringLiteral("✓")));

    QSignalSpy changed(&model(), &QAbstractItemModel::dataChanged);
    progress().recordRun(ddp, true);
    model().refresh(ddp);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.first().at(0).toModelIndex().row(), model().rowOf(ddp));

    EXPECT_TRUE(display(ddp).startsWith(QStringLiteral("✓ "))) << display(ddp).toStdString();
    EXPECT_EQ(utf8(model().index(model().rowOf(ddp)).data(LessonListModel::StateRole).toString()),
              "solved");
    for (int row = 0; row < model().rowCount(); ++row) {
        if (row != model().rowOf(ddp)) {
            EXPECT_FALSE(model().index(row).data().toString().startsWith(QStringLiteral("✓")));
        }
    }
}

TEST_F(LessonList, KeepsASolvedLessonSolvedAfterAFailedRun)
{
    const QString hang = QStringLiteral("hang");
    progress().recordRun(hang, false);
    EXPECT_TRUE(display(hang).startsWith(QStringLiteral("• "))) << display(hang).toStdString();
    progress().recordRun(hang, true);
    progress().recordRun(hang, false);
    EXPECT_TRUE(display(hang).startsWith(QStringLiteral("✓ "))) << display(hang).toStdString();
    progress().reset(hang);
    EXPECT_EQ(utf8(model().index(model().rowOf(hang)).data(LessonListModel::StateRole).toString()),
              "new");
}

TEST_F(LessonList, AnswersNothingForUnknownLessonsAndRows)
{
    EXPECT_EQ(model().rowOf(QStringLiteral("no-such-lesson")), -1);
    EXPECT_EQ(model().lessonAt(-1), nullptr);
    EXPECT_EQ(model().lessonAt(model().rowCount()), nullptr);
    QSignalSpy changed(&model(), &QAbstractItemModel::dataChanged);
    model().refresh(QStringLiteral("no-such-lesson"));
    EXPECT_TRUE(changed.isEmpty());
}

} // namespace
} // namespace rankstep::gui::testing
