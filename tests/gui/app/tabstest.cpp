// SPDX-License-Identifier: MIT
// The one list of the tabs left of the editor (gui/app/tabs.h): every name leads back to its tab,
// and the page teachers read about demonstration files lists exactly these names.
#include "tabs.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QRegularExpression>
#include <QStringList>

#include <set>

namespace rankstep::gui {
namespace {

TEST(Tabs, EveryNameLeadsBackToItsTabAndNoneIsTwice)
{
    std::set<std::string> seen;
    for (const TabInfo &info : tabs()) {
        EXPECT_EQ(tabFromName(tabName(info.tab)), info.tab) << info.name;
        EXPECT_FALSE(tabTitle(info.tab).isEmpty()) << info.name;
        EXPECT_TRUE(seen.insert(info.name).second) << info.name << " twice";
    }
    EXPECT_EQ(seen.size(), tabNames().size());
    EXPECT_FALSE(tabFromName(QStringLiteral("kitchen")));
}

TEST(Tabs, TheDemonstrationsPageListsExactlyTheTabs)
{
    QFile page(QStringLiteral(RANKSTEP_SOURCE_DIR "/docs/demonstrations.md"));
    ASSERT_TRUE(page.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(page.readAll());
    // The row of the file format's table: | `steps[].tab` | `lesson`, `state`, ... |
    const QRegularExpression row(QStringLiteral("^\\| `steps\\[\\]\\.tab` \\|(.*)\\|$"),
                                 QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = row.match(text);
    ASSERT_TRUE(match.hasMatch()) << "docs/demonstrations.md has no row for steps[].tab";
    QStringList listed;
    const QRegularExpression quoted(QStringLiteral("`([a-z]+)`"));
    for (auto it = quoted.globalMatch(match.captured(1)); it.hasNext();)
        listed << it.next().captured(1);
    QStringList names;
    for (const std::string &name : tabNames())
        names << QString::fromStdString(name);
    EXPECT_EQ(listed, names) << "listed: " << listed.join(QStringLiteral(", ")).toStdString();
}

} // namespace
} // namespace rankstep::gui
