// SPDX-License-Identifier: MIT
#pragma once

#include "tracefwd.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace rankstep::gui {

class Appearance;
class RunSession;

// Two runs side by side: the session's run (A) above the one it is compared with (B), their
// timelines on one time axis, each run's memory over time overlaid below, and what differs and why
// in words (core/explain/compare.h). Buttons ask for what to compare with: the lesson's
// solution, the previous run, or another lesson's solution.
class ComparisonView : public QWidget
{
    Q_OBJECT
public:
    ComparisonView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // The lessons whose solutions can be compared with (id, title), the current one first.
    void setLessons(const QList<QPair<QString, QString>> &lessons);
    QString summary() const;
    // The canvas drawing both timelines and the memory overlay (for tests and exports).
    QWidget *canvas() const { return m_canvas; }

Q_SIGNALS:
    void solutionRequested(const QString &lessonId); // compare with this lesson's solution
    void previousRunRequested();

private:
    void update();

    RunSession &m_session;
    Appearance &m_appearance;
    QLabel *m_summary;
    QComboBox *m_lessons;
    QWidget *m_canvas;
};

} // namespace rankstep::gui
