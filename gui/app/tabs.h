// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rankstep::gui {

// The tabs left of the editor, in the order the window shows them.
enum class Tab { Lesson, State, Overview, Hang, Why, Compare, Experiments, WhatIf, Real, Class };

// One tab as every part of the app names it. This list is the only one: the window builds its
// tabs from it, scripts (--tab) and recorded demonstrations (docs/demonstrations.md) name a tab
// by `name`, and a screen reader reads `title` and `description`.
struct TabInfo {
    Tab tab;
    const char *name;        // in scripts and demonstration files: "state"
    const char *title;       // on the tab, translated: "State of every rank"
    const char *toolTip;     // over the tab, translated; null for none
    const char *description; // for a screen reader, translated; null for none
};

// Every tab, in the window's order (a tab's index is its Tab's value).
std::span<const TabInfo> tabs();
const TabInfo &tabInfo(Tab tab);

QString tabName(Tab tab);
std::optional<Tab> tabFromName(const QString &name);
QString tabTitle(Tab tab);   // translated
QString tabToolTip(Tab tab); // translated; empty for none
// Every tab's name, for a demonstration file's reader (core knows no tab).
std::vector<std::string> tabNames();
// The names in a list: "lesson, state, ..., real or class" by default.
QString tabNameList(const QString &separator = QStringLiteral(", "),
                    const QString &beforeLast = QStringLiteral(" or "));

} // namespace rankstep::gui
