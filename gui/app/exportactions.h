// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <array>
#include <functional>

class QAction;
class QMenu;

namespace rankstep::gui {

class Appearance;
class RunSession;
class StateView;

// File > Export: the session's run as the timeline and memory figure (SVG or PNG), every rank's
// state at the cursor (PNG, the ranks the state view shows), and the trace as Rankstep JSON or
// as a Perfetto trace. Enabled only while the session holds a run; failures say which file and
// why in a dialog over `window`.
class ExportActions : public QObject
{
    Q_OBJECT
public:
    enum class Kind {
        TimelineSvg,
        TimelinePng,
        StatePng,
        ExplainSvg,
        ExplainPng,
        TraceJson,
        PerfettoTrace
    };
    static constexpr int kKinds = 7;

    using LessonSource = std::function<const lessons::Lesson *()>; // the open lesson, or null

    ExportActions(RunSession &session, const Appearance &appearance, const StateView &stateView,
                  LessonSource lesson, QMenu *fileMenu, QWidget *window);

    QMenu *menu() const { return m_menu; }
    QAction *action(Kind kind) const { return m_actions[std::size_t(kind)]; }
    // Writes what kind exports of the window's current run to path, without asking; returns
    // an empty string, or what went wrong (no run yet, or the file could not be written).
    QString exportTo(Kind kind, const QString &path) const;
    // The file name the save dialog proposes, e.g. "ddp-timeline.svg".
    QString suggestedName(Kind kind) const;

Q_SIGNALS:
    void exported(const QString &path); // a file was written

private:
    void onExport(Kind kind);
    void updateEnabled();

    RunSession &m_session;
    const Appearance &m_appearance;
    const StateView &m_stateView;
    LessonSource m_lesson;
    QPointer<QWidget> m_window;
    QMenu *m_menu = nullptr;
    std::array<QAction *, kKinds> m_actions{};
    QString m_folder; // where the last export went
};

} // namespace rankstep::gui
