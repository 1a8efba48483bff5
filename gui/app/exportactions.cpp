// SPDX-License-Identifier: MIT
#include "exportactions.h"

#include "exportfiles.h"
#include "mainwindow.h"
#include "stateview.h"
#include "stepcontroller.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace rankstep::gui {
namespace {

using Kind = ExportActions::Kind;

struct KindText {
    const char *label;
    const char *suffix; // of the proposed file name
    const char *filter;
};

constexpr std::array<KindText, ExportActions::kKinds> kTexts{{
    {QT_TRANSLATE_NOOP("ExportActions", "Timeline and memory as &SVG…"), "-timeline.svg",
     QT_TRANSLATE_NOOP("ExportActions", "SVG images (*.svg)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Timeline and memory as &PNG…"), "-timeline.png",
     QT_TRANSLATE_NOOP("ExportActions", "PNG images (*.png)")},
    {QT_TRANSLATE_NOOP("ExportActions", "State of every rank as P&NG…"), "-state.png",
     QT_TRANSLATE_NOOP("ExportActions", "PNG images (*.png)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Trace as &JSON…"), "-trace.json",
     QT_TRANSLATE_NOOP("ExportActions", "Rankstep traces (*.json)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Trace as P&erfetto trace…"), "-perfetto.json",
     QT_TRANSLATE_NOOP("ExportActions", "Perfetto / Chrome traces (*.json)")},
}};

// The window's File menu: the one another part of the window made, or a new one.
QMenu *fileMenu(MainWindow *window)
{
    const QString name = QStringLiteral("fileMenu");
    if (auto *menu = window->menuBar()->findChild<QMenu *>(name))
        return menu;
    QMenu *menu = window->menuBar()->addMenu(ExportActions::tr("&File"));
    menu->setObjectName(name);
    return menu;
}

} // namespace

ExportActions::ExportActions(MainWindow *window)
    : QObject(window), m_window(window), m_folder(QDir::homePath())
{
    m_menu = fileMenu(window)->addMenu(tr("&Export"));
    m_menu->setObjectName(QStringLiteral("exportMenu"));
    for (int i = 0; i < kKinds; ++i) {
        const Kind kind = Kind(i);
        m_actions[std::size_t(i)] = m_menu->addAction(tr(kTexts[std::size_t(i)].label), this,
                                                      [this, kind] { onExport(kind); });
        if (kind == Kind::StatePng)
            m_menu->addSeparator();
    }
    connect(window->stepController(), &StepController::traceChanged, this,
            &ExportActions::updateEnabled);
    updateEnabled();
}

QString ExportActions::suggestedName(Kind kind) const
{
    const lessons::Lesson *lesson = m_window->currentLesson();
    const QString stem = lesson ? QString::fromStdString(lesson->id) : QStringLiteral("rankstep");
    return stem + QLatin1String(kTexts[std::size_t(kind)].suffix);
}

QString ExportActions::exportTo(Kind kind, const QString &path) const
{
    StepController &step = *m_window->stepController();
    const TracePtr trace = step.trace();
    if (!trace)
        return tr("There is no run to export yet: run the code first (F5).");
    const lessons::Lesson *lesson = m_window->currentLesson();
    FigureOptions options;
    if (lesson) {
        options.title = QStringLiteral("%1: %2").arg(QString::fromStdString(lesson->title),
                                                     QString::fromStdString(lesson->function));
        if (lesson->targets)
            options.memoryTarget = lesson->targets->memory;
    }
    if (!step.atEnd()) { // the cursor and the faded future, as the window shows them
        options.cursor = step.cursorTime();
        options.ghostAfter = step.appliedEvents();
    }
    switch (kind) {
        case Kind::TimelineSvg:
            return writeTimelineSvg(trace, options, path);
        case Kind::TimelinePng:
            return writeTimelinePng(trace, options, path);
        case Kind::StatePng:
            options.ranks = m_window->stateView()->visibleRanks(); // the ranks the learner picked
            return writeStatePng(trace, step.state(), options, path);
        case Kind::TraceJson:
            return writeTraceJson(*trace,
                                  {lesson ? lesson->id + ".py" : std::string(),
                                   lesson ? lesson->function : std::string()},
                                  path);
        case Kind::PerfettoTrace:
            return writePerfettoTrace(*trace, path);
    }
    return {};
}

void ExportActions::onExport(Kind kind)
{
    const KindText &text = kTexts[std::size_t(kind)];
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr(text.label).remove(QLatin1Char('&')).remove(QStringLiteral("…")),
        QDir(m_folder).filePath(suggestedName(kind)), tr(text.filter));
    if (path.isEmpty())
        return;
    m_folder = QFileInfo(path).absolutePath();
    const QString error = exportTo(kind, path);
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Export failed"), error);
        return;
    }
    m_window->statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
}

void ExportActions::updateEnabled()
{
    const bool hasTrace = m_window->stepController()->trace() != nullptr;
    for (QAction *action : m_actions)
        action->setEnabled(hasTrace);
    m_menu->setEnabled(hasTrace);
}

} // namespace rankstep::gui
