// SPDX-License-Identifier: MIT
// elidedTexts finds what a window cuts: each kind of widget is cut on purpose and its full text
// must be listed; given room, the same widgets list nothing.
#include "describable.h"
#include "elisions.h"
#include "tests/gui/support/layoutwaits.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTabWidget>
#include <QTableWidget>

#include <memory>

namespace rankstep::gui::testing {
namespace {

const QString kLong = QStringLiteral("Broadcast the initial weights from rank zero");

std::string listed(const QStringList &texts)
{
    return texts.join(QStringLiteral(" | ")).toStdString();
}

// A top-level widget of a fixed size, shown and laid out.
std::unique_ptr<QWidget> shown(QWidget *content, QSize size)
{
    auto top = std::make_unique<QWidget>();
    auto *layout = new QHBoxLayout(top.get());
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(content);
    top->setFixedSize(size);
    top->show();
    EXPECT_TRUE(settleLayouts(*top));
    return top;
}

QTabWidget *tabsNamed(const QStringList &names)
{
    auto *tabs = new QTabWidget;
    for (const QString &name : names)
        tabs->addTab(new QWidget, name);
    return tabs;
}

TEST(ElidedTexts, ATabElidedInANarrowBarIsListed)
{
    QTabWidget *tabs = tabsNamed({QStringLiteral("Lesson"), kLong});
    tabs->setElideMode(Qt::ElideRight);
    tabs->setUsesScrollButtons(false);
    const auto top = shown(tabs, {180, 120});
    EXPECT_TRUE(elidedTexts(*top).contains(kLong)) << listed(elidedTexts(*top));
}

TEST(ElidedTexts, ATabScrolledOutOfItsBarIsListed)
{
    QStringList names;
    for (int i = 0; i < 12; ++i)
        names << QStringLiteral("Experiments %1").arg(i);
    QTabWidget *tabs = tabsNamed(names);
    tabs->setElideMode(Qt::ElideNone);
    tabs->setUsesScrollButtons(true);
    const auto top = shown(tabs, {300, 120});
    const QStringList found = elidedTexts(*top);
    EXPECT_TRUE(found.contains(names.last())) << listed(found);
    EXPECT_FALSE(found.contains(names.first())) << "the first tab shows whole";
}

TEST(ElidedTexts, ALabelTooNarrowForItsTextIsListed)
{
    auto *label = new QLabel(kLong);
    label->setMinimumWidth(10);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const auto top = shown(label, {120, 40});
    EXPECT_EQ(elidedTexts(*top), QStringList{kLong});
}

TEST(ElidedTexts, ALabelShowingAnEllipsisIsListedWithTheTextItsTooltipKeeps)
{
    auto *label = new QLabel(QStringLiteral("Broadcast the…"));
    label->setToolTip(kLong);
    const auto top = shown(label, {400, 40});
    EXPECT_EQ(elidedTexts(*top), QStringList{kLong});
}

TEST(ElidedTexts, ARichTextLabelTooNarrowIsListedAsPlainText)
{
    auto *label = new QLabel(QStringLiteral("<b>Broadcast</b> the initial weights from rank zero"));
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const auto top = shown(label, {120, 40});
    EXPECT_EQ(elidedTexts(*top), QStringList{kLong});
}

TEST(ElidedTexts, ATableCellNarrowerThanItsTextIsListed)
{
    auto *table = new QTableWidget(1, 1);
    table->setWordWrap(false);
    table->setItem(0, 0, new QTableWidgetItem(kLong));
    table->horizontalHeader()->resizeSection(0, 60);
    const auto top = shown(table, {400, 200});
    EXPECT_TRUE(elidedTexts(*top).contains(kLong)) << listed(elidedTexts(*top));
}

TEST(ElidedTexts, AWrappedCellTooShortForItsLinesIsListed)
{
    auto *table = new QTableWidget(1, 1);
    table->setWordWrap(true);
    table->setItem(0, 0, new QTableWidgetItem(kLong));
    table->horizontalHeader()->resizeSection(0, 90);
    table->verticalHeader()->resizeSection(0, table->fontMetrics().height() + 4);
    const auto top = shown(table, {400, 200});
    EXPECT_TRUE(elidedTexts(*top).contains(kLong)) << listed(elidedTexts(*top));
}

TEST(ElidedTexts, AColumnScrolledOutOfTheViewportIsListedWithItsHeader)
{
    auto *table = new QTableWidget(1, 8);
    QStringList headers;
    for (int c = 0; c < 8; ++c) {
        headers << QStringLiteral("lesson %1").arg(c);
        table->setItem(0, c, new QTableWidgetItem(QStringLiteral("✓ %1").arg(c)));
    }
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setDefaultSectionSize(100);
    const auto top = shown(table, {300, 200});
    const QStringList found = elidedTexts(*top);
    EXPECT_TRUE(found.contains(QStringLiteral("✓ 7"))) << listed(found);
    EXPECT_TRUE(found.contains(QStringLiteral("lesson 7"))) << listed(found);
    EXPECT_FALSE(found.contains(QStringLiteral("✓ 0"))) << listed(found);
}

TEST(ElidedTexts, AListRowBelowTheViewportCountsOnlyWithoutAScrollBar)
{
    auto *list = new QListWidget;
    for (int i = 0; i < 30; ++i)
        list->addItem(QStringLiteral("lesson %1").arg(i));
    list->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    const auto top = shown(list, {200, 150});
    EXPECT_FALSE(elidedTexts(*top).contains(QStringLiteral("lesson 29")))
        << "a scroll bar says there are more";
    list->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    ASSERT_TRUE(settleLayouts(*top));
    EXPECT_TRUE(elidedTexts(*top).contains(QStringLiteral("lesson 29")))
        << listed(elidedTexts(*top));
}

TEST(ElidedTexts, AHeaderSectionNarrowerThanItsTextIsListed)
{
    auto *table = new QTableWidget(1, 2);
    table->setHorizontalHeaderLabels({QStringLiteral("a"), kLong});
    table->horizontalHeader()->resizeSection(1, 50);
    const auto top = shown(table, {400, 200});
    EXPECT_TRUE(elidedTexts(*top).contains(kLong)) << listed(elidedTexts(*top));
}

TEST(ElidedTexts, AComboBoxNarrowerThanItsCurrentTextIsListed)
{
    auto *combo = new QComboBox;
    combo->addItem(kLong);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(5);
    combo->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    auto *box = new QWidget;
    auto *row = new QHBoxLayout(box);
    row->addWidget(combo);
    row->addStretch(1);
    const auto top = shown(box, {500, 60});
    EXPECT_EQ(elidedTexts(*top), QStringList{kLong});
}

class PaintedView
    : public QWidget
    , public Describable
{
public:
    QString describedName() const override { return QStringLiteral("painted"); }
    QStringList elidedTexts() const override { return m_cut.texts(); }
    ElidedTexts m_cut;
};

TEST(ElidedTexts, APaintedViewSaysWhatItCut)
{
    auto *view = new PaintedView;
    view->m_cut.note(QStringLiteral("rank 12"));
    const auto top = shown(view, {200, 100});
    EXPECT_EQ(elidedTexts(*top), QStringList{QStringLiteral("rank 12")});
}

TEST(ElidedTexts, AHiddenPageCutsNothing)
{
    auto *tabs = new QTabWidget;
    tabs->addTab(new QWidget, QStringLiteral("a"));
    auto *label = new QLabel(kLong);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    tabs->addTab(label, QStringLiteral("b"));
    const auto top = shown(tabs, {120, 80});
    EXPECT_TRUE(elidedTexts(*top).isEmpty()) << listed(elidedTexts(*top));
}

// The same kinds of widget as above, each with the room its text needs.
TEST(ElidedTexts, WidgetsWideEnoughListNothing)
{
    auto *box = new QWidget;
    auto *column = new QVBoxLayout(box);
    column->addWidget(tabsNamed({QStringLiteral("Lesson"), kLong}));
    column->addWidget(new QLabel(kLong));
    auto *combo = new QComboBox;
    combo->addItem(kLong);
    column->addWidget(combo);
    auto *table = new QTableWidget(2, 2);
    table->setHorizontalHeaderLabels({QStringLiteral("gpipe"), QStringLiteral("pipeline_fsdp")});
    table->setItem(0, 0, new QTableWidgetItem(QStringLiteral("✓")));
    table->setItem(1, 1, new QTableWidgetItem(kLong));
    table->resizeColumnsToContents();
    column->addWidget(table);
    auto *list = new QListWidget;
    list->addItems({QStringLiteral("Broadcast"), kLong});
    column->addWidget(list);
    const auto top = shown(box, {900, 700});
    EXPECT_TRUE(elidedTexts(*top).isEmpty()) << listed(elidedTexts(*top));
}

} // namespace
} // namespace rankstep::gui::testing
