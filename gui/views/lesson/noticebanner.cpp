// SPDX-License-Identifier: MIT
#include "noticebanner.h"

namespace rankstep::gui {

NoticeBanner::NoticeBanner(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("noticeBanner"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse); // paths can be copied
    setMargin(6);
    // Warning colors that read in the light and the dark theme alike.
    setStyleSheet(
        QStringLiteral("QLabel#noticeBanner { background: #fff3cd; color: #3d2e00; "
                       "border: 1px solid #e0b800; }"));
    hide();
}

void NoticeBanner::showNotice(const QString &text)
{
    setText(text);
    setVisible(!text.isEmpty());
}

} // namespace rankstep::gui
