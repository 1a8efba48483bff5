// SPDX-License-Identifier: MIT
#include "viewcontrols.h"

#include "appearance.h"
#include "memorychart.h"
#include "quizcontroller.h"

#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace rankstep::gui {

ViewControls::ViewControls(WindowLayout layout, QMenuBar *menuBar, Appearance &appearance,
                           PresentationMode::Panes panes, StepController &step)
    : QObject(layout.window)
    , m_layout(std::move(layout))
    , m_appearance(appearance)
    , m_presentation(new PresentationMode(m_layout.window, &appearance, panes))
{
    buildMenu(menuBar);
    restoreWindowSettings(m_layout, m_appearance, *m_presentation, step);
}

QAction *ViewControls::action(const QString &objectName) const
{
    for (QAction *action : m_actions)
        if (action->objectName() == objectName)
            return action;
    return nullptr;
}

void ViewControls::saveLayout() const
{
    saveWindowLayout(m_layout, *m_presentation);
}

QAction *ViewControls::addAction(const QString &name, const QString &text,
                                 const QList<QKeySequence> &keys)
{
    QAction *action = m_menu->addAction(text);
    action->setObjectName(name);
    action->setShortcuts(keys);
    action->setShortcutContext(Qt::WindowShortcut);
    m_actions.append(action);
    return action;
}

void ViewControls::buildMenu(QMenuBar *menuBar)
{
    m_menu = menuBar->addMenu(tr("&View"));
    m_menu->setObjectName(QStringLiteral("viewMenu"));
    QAction *present = addAction(QStringLiteral("presentationAction"), tr("&Presentation Mode"),
                                 QKeySequence::keyBindings(QKeySequence::FullScreen));
    present->setCheckable(true);
    connect(present, &QAction::toggled, m_presentation, &PresentationMode::setActive);
    connect(m_presentation, &PresentationMode::activeChanged, present, &QAction::setChecked);
    QAction *spoilers = addAction(QStringLiteral("spoilersAction"),
                                  tr("Show &Hints and Solution While Presenting"), {});
    spoilers->setCheckable(true);
    connect(spoilers, &QAction::toggled, m_presentation, &PresentationMode::setSpoilersShown);
    m_menu->addSeparator();
    // Ctrl+= too: on most keyboards Plus needs Shift.
    connect(addAction(QStringLiteral("zoomInAction"), tr("Zoom &In"),
                      {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)}),
            &QAction::triggered, &m_appearance, &Appearance::zoomIn);
    connect(addAction(QStringLiteral("zoomOutAction"), tr("Zoom &Out"), {QKeySequence::ZoomOut}),
            &QAction::triggered, &m_appearance, &Appearance::zoomOut);
    connect(addAction(QStringLiteral("zoomResetAction"), tr("&Actual Size"),
                      {QKeySequence(Qt::CTRL | Qt::Key_0)}),
            &QAction::triggered, &m_appearance, &Appearance::resetZoom);
    m_menu->addSeparator();
    buildThemeMenu();
    QAction *colorBlind =
        addAction(QStringLiteral("colorBlindAction"), tr("&Color-Blind-Safe Colors"), {});
    colorBlind->setCheckable(true);
    colorBlind->setChecked(m_appearance.colorBlindSafe());
    connect(colorBlind, &QAction::toggled, &m_appearance, &Appearance::setColorBlindSafe);
    connect(&m_appearance, &Appearance::colorBlindSafeChanged, colorBlind, &QAction::setChecked);
}

void ViewControls::buildThemeMenu()
{
    QMenu *themes = m_menu->addMenu(tr("&Theme"));
    themes->setObjectName(QStringLiteral("themeMenu"));
    auto *group = new QActionGroup(themes);
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark, Theme::HighContrast}) {
        QAction *action = themes->addAction(themeTitle(theme));
        action->setObjectName(QStringLiteral("theme-") + themeName(theme));
        m_actions.append(action);
        action->setCheckable(true);
        action->setChecked(theme == m_appearance.theme());
        group->addAction(action);
        connect(action, &QAction::triggered, &m_appearance,
                [this, theme] { m_appearance.setTheme(theme); });
        connect(&m_appearance, &Appearance::themeChanged, action,
                [action, theme](Theme now) { action->setChecked(now == theme); });
    }
}

void ViewControls::addRunViewActions(MemoryChart &memory, QuizController &quiz)
{
    m_menu->addSeparator();
    QAction *byKind = m_menu->addAction(tr("Memory by &Kind"));
    byKind->setObjectName(QStringLiteral("memoryByKindAction"));
    byKind->setCheckable(true);
    byKind->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    connect(byKind, &QAction::toggled, &memory, &MemoryChart::setByKind);
    // Presenting: a question for the room before each step.
    QAction *asks = m_menu->addAction(tr("&Predict the Next Step (Quiz)"));
    asks->setObjectName(QStringLiteral("quizAction"));
    asks->setCheckable(true);
    asks->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    asks->setToolTip(
        tr("While presenting, each step forward first asks the room a question "
           "about it; the next press shows the answer with the step."));
    connect(asks, &QAction::toggled, &quiz, &QuizController::setEnabled);
    connect(&quiz, &QuizController::enabledChanged, asks, &QAction::setChecked);
    connect(&memory, &MemoryChart::byKindChanged, byKind, &QAction::setChecked);
}

} // namespace rankstep::gui
