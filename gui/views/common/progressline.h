// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <cstdint>

class QLabel;
class QProgressBar;
class QPushButton;

namespace rankstep::gui {

// One line in the status bar for work the learner may stop: what it does ("Reading
// big16k.rstb: 412 of 801 MB"), a bar, and Cancel. Hidden while nothing goes on.
class ProgressLine : public QWidget
{
    Q_OBJECT
public:
    explicit ProgressLine(QWidget *parent = nullptr);

    // total 0: the bar moves without a measure.
    void setProgress(const QString &text, std::int64_t done, std::int64_t total);
    QString text() const;
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *bar() const { return m_bar; }

Q_SIGNALS:
    void cancelRequested();

private:
    QLabel *m_label = nullptr;
    QProgressBar *m_bar = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace rankstep::gui
