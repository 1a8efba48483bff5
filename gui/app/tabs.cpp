// SPDX-License-Identifier: MIT
#include "tabs.h"

#include <QCoreApplication>
#include <QStringList>

#include <iterator>

namespace rankstep::gui {
namespace {

// The translations' context: lupdate finds these texts through QT_TRANSLATE_NOOP.
constexpr const char *kContext = "rankstep::gui::Tabs";

constexpr TabInfo kTabs[] = {
    {Tab::Lesson, "lesson", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Lesson"), nullptr,
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "The lesson's text, its goal and hints")},
    {Tab::State, "state", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "State of every rank"), nullptr,
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "What each rank holds at the cursor: weights, optimizer states, "
                       "activations and gradients")},
    {Tab::Overview, "overview", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Ranks"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Every rank at a glance, by its place in the layout"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "Every rank at a glance: stages, replicas and ranks, each with when it "
                       "computed, communicated or idled")},
    {Tab::Hang, "hang", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Why it hung"), nullptr,
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Who waits on whom when no rank can go on")},
    {Tab::Why, "why", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Why"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "What fills each rank's memory, and where its time goes"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "What fills each rank's memory and where its time goes")},
    {Tab::Compare, "compare", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Compare"), nullptr,
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "This run beside another")},
    {Tab::Experiments, "experiments", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Experiments"),
     nullptr, nullptr},
    {Tab::WhatIf, "whatif", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "What if"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "Your code at many settings: Timesteps against peak memory"),
     nullptr},
    {Tab::Real, "real", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "For real"), nullptr, nullptr},
    {Tab::Class, "class", QT_TRANSLATE_NOOP("rankstep::gui::Tabs", "Class"),
     QT_TRANSLATE_NOOP("rankstep::gui::Tabs",
                       "A class folder: every learner's lessons, solved or why not"),
     nullptr},
};

constexpr bool indexedByTab()
{
    for (std::size_t i = 0; i < std::size(kTabs); ++i)
        if (std::size_t(kTabs[i].tab) != i)
            return false;
    return true;
}
static_assert(indexedByTab(), "the window finds a tab at its Tab's index");

} // namespace

std::span<const TabInfo> tabs()
{
    return kTabs;
}

const TabInfo &tabInfo(Tab tab)
{
    return kTabs[std::size_t(tab)];
}

QString tabName(Tab tab)
{
    return QLatin1String(tabInfo(tab).name);
}

std::optional<Tab> tabFromName(const QString &name)
{
    for (const TabInfo &info : kTabs)
        if (name == QLatin1String(info.name))
            return info.tab;
    return std::nullopt;
}

QString tabTitle(Tab tab)
{
    return QCoreApplication::translate(kContext, tabInfo(tab).title);
}

QString tabToolTip(Tab tab)
{
    const char *tip = tabInfo(tab).toolTip;
    return tip ? QCoreApplication::translate(kContext, tip) : QString();
}

std::vector<std::string> tabNames()
{
    std::vector<std::string> names;
    for (const TabInfo &info : kTabs)
        names.emplace_back(info.name);
    return names;
}

QString tabNameList(const QString &separator, const QString &beforeLast)
{
    QStringList names;
    for (const TabInfo &info : kTabs)
        names << QLatin1String(info.name);
    const QString last = names.takeLast();
    return names.join(separator) + beforeLast + last;
}

} // namespace rankstep::gui
