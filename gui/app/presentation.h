// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QMainWindow;
class QSplitter;
class QWidget;

namespace rankstep::gui {

class Appearance;
class LessonPanel;

// Presentation mode (F11), for showing a run to a class: the window full screen and zoomed to at
// least kPresentationZoom, the lesson list folded away, the hints and the solution out of sight
// until asked for, and the clicker's PageDown and PageUp stepping the run whichever widget has the
// focus (outside this mode the code editor and the lesson text keep those keys for scrolling).
class PresentationMode : public QObject
{
    Q_OBJECT
public:
    // What presenting rearranges: the window's three panes (lessons, work, results), the lesson
    // list it folds away, the lesson panel whose hints it hides.
    struct Panes {
        QSplitter *panes = nullptr;
        QWidget *lessonList = nullptr;
        LessonPanel *lessonPanel = nullptr;
    };

    PresentationMode(QMainWindow *window, Appearance *appearance, Panes panes);

    bool isActive() const { return m_active; }
    bool spoilersShown() const { return m_spoilersShown; }

public Q_SLOTS:
    void setActive(bool active);
    void toggle() { setActive(!m_active); }
    // In presentation mode, shows or hides the hint and solution controls.
    void setSpoilersShown(bool shown);

Q_SIGNALS:
    void activeChanged(bool active);
    void spoilersShownChanged(bool shown);

private:
    void applySpoilers();
    void arrangePanes(bool presenting);

    QPointer<QMainWindow> m_window;
    Appearance *m_appearance;
    Panes m_panes;
    bool m_active = false;
    bool m_spoilersShown = false;
    bool m_wasMaximized = false;
    double m_zoomBefore = 1.0;
    QByteArray m_panesBefore; // the main splitter before presenting
};

inline constexpr double kPresentationZoom = 1.5;

} // namespace rankstep::gui
