// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace rankstep::gui {

// A strip above a view that says what the learner must know about it and stays until it no
// longer holds (a read-only code file, a save that failed); hidden when there is nothing to say.
class NoticeBanner : public QLabel
{
    Q_OBJECT
public:
    explicit NoticeBanner(QWidget *parent = nullptr);

    void showNotice(const QString &text); // empty hides the banner
};

} // namespace rankstep::gui
