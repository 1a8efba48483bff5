// SPDX-License-Identifier: MIT
#pragma once

#include <QRect>
#include <QString>

class QHelpEvent;
class QWidget;

namespace rankstep::gui {

// Answers a view's QEvent::ToolTip: shows `text` at the pointer (kept while the pointer stays in
// `area`, the whole widget when empty), or hides any tool tip and ignores the event when `text`
// is empty. What the three painted views' event() does with a tool tip.
void answerToolTip(QWidget &view, QHelpEvent &event, const QString &text, const QRect &area = {});

} // namespace rankstep::gui
