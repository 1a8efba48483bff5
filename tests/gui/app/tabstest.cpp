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

// The backquoted names in the first match of `pattern` in the docs/ page `page`.
QStringList namesIn(const QString &page, const QString &pattern)
{
    QFile file(QStringLiteral(RANKSTEP_SOURCE_DIR "/docs/") + page);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text)) << page.toStdString();
    const QString text = QString::fromUtf8(file.readAll());
    const QRegularExpressionMatch match =
        QRegularExpression(pattern, QRegularExpression::MultilineOption).match(text);
    EXPECT_TRUE(match.hasMatch()) << page.toStdString() << " no longer lists the tabs";
    QStringList names;
    const QRegularExpression quoted(QStringLiteral("`([a-z]+)`"));
    for (auto it = quoted.globalMatch(match.captured(1)); it.hasNext();)
        names << it.next().captured(1);
    return names;
}

TEST(Tabs, TheDocsListExactlyTheTabs)
{
    QStringList names;
    for (const std::string &name : tabNames())
        names << QString::fromStdString(name);
    // The file format's table: | `steps[].tab` | `lesson`, `state`, ... |
    EXPECT_EQ(namesIn(QStringLiteral("demonstrations.md"),
                      QStringLiteral("^\\| `steps\\[\\]\\.tab` \\|(.*)\\|$")),
              names);
    // The screenshots' options: (`--tab` names one of `lesson`, ..., `class`)
    EXPECT_EQ(namesIn(QStringLiteral("app.md"), QStringLiteral("`--tab` names one of ([^)]*)\\)")),
              names);
}

} // namespace
} // namespace rankstep::gui
