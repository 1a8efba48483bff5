// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <array>

class QAction;
class QMenu;

namespace rankstep::gui {

class MainWindow;

// File > Export of the main window: the timeline and memory figure as SVG or PNG, every rank's
// state at the cursor as PNG, and the trace as Rankstep JSON or as a Perfetto trace. Enabled
// only while the window holds a run's trace; failures say which file and why in a dialog.
class ExportActions : public QObject
{
    Q_OBJECT
public:
    enum class Kind { TimelineSvg, TimelinePng, StatePng, TraceJson, PerfettoTrace };
    static constexpr int kKinds = 5;

    explicit ExportActions(MainWindow *window);

    QMenu *menu() const { return m_menu; }
    QAction *action(Kind kind) const { return m_actions[std::size_t(kind)]; }
    // Writes what kind exports of the window's current run to path, without asking; returns
    // an empty string, or what went wrong (no run yet, or the file could not be written).
    QString exportTo(Kind kind, const QString &path) const;
    // The file name the save dialog proposes, e.g. "ddp-timeline.svg".
    QString suggestedName(Kind kind) const;

private:
    void onExport(Kind kind);
    void updateEnabled();

    MainWindow *m_window;
    QMenu *m_menu = nullptr;
    std::array<QAction *, kKinds> m_actions{};
    QString m_folder; // where the last export went
};

} // namespace rankstep::gui
