// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QLabel;
class QProgressBar;

namespace rankstep::gui {

// The status bar's sign of long work: a busy bar and "Running your code… 3.4 s"
// while a run, a real run, a PyTorch lesson, a sweep or a class's grading goes on; the newest
// one is named, with the seconds since it began. Hidden when nothing runs.
class BusyIndicator : public QWidget
{
    Q_OBJECT
public:
    explicit BusyIndicator(QWidget *parent = nullptr);

    // `key` names the work ("run", "sweep"); a second begin() of the same key restarts it.
    void begin(const QString &key, const QString &text);
    void end(const QString &key);
    bool isBusy() const { return !m_work.empty(); }
    QString text() const; // what the label says now

private:
    void tick();

    struct Work {
        QString key, text;
        QElapsedTimer clock;
    };
    std::vector<Work> m_work; // oldest first
    QLabel *m_label = nullptr;
    QProgressBar *m_bar = nullptr;
    QTimer m_ticker;
};

} // namespace rankstep::gui
