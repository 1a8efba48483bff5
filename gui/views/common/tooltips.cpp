// SPDX-License-Identifier: MIT
#include "tooltips.h"

#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace rankstep::gui {

void answerToolTip(QWidget &view, QHelpEvent &event, const QString &text, const QRect &area)
{
    if (text.isEmpty()) {
        QToolTip::hideText();
        event.ignore();
        return;
    }
    QToolTip::showText(event.globalPos(), text, &view, area);
}

} // namespace rankstep::gui
