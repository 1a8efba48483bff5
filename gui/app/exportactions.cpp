// SPDX-License-Identifier: MIT
#include "exportactions.h"

#include "appearance.h"
#include "enginetext.h"
#include "exportfiles.h"
#include "runsession.h"
#include "stateview.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

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
    {QT_TRANSLATE_NOOP("ExportActions", "Why (memory and time) as S&VG…"), "-why.svg",
     QT_TRANSLATE_NOOP("ExportActions", "SVG images (*.svg)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Why (memory and time) as PN&G…"), "-why.png",
     QT_TRANSLATE_NOOP("ExportActions", "PNG images (*.png)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Trace as &JSON…"), "-trace.json",
     QT_TRANSLATE_NOOP("ExportActions", "Rankstep traces (*.json)")},
    {QT_TRANSLATE_NOOP("ExportActions", "Trace as P&erfetto trace…"), "-perfetto.json",
     QT_TRANSLATE_NOOP("ExportActions", "Perfetto / Chrome traces (*.json)")},
}};

} // namespace

ExportActions::ExportActions(RunSession &session, const Appearance &appearance,
                             const StateView &stateView, LessonSource lesson, QMenu *fileMenu,
                             QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_appearance(appearance)
    , m_stateView(stateView)
    , m_lesson(std::move(lesson))
    , m_window(window)
    , m_folder(QSettings().value(QStringLiteral("export/folder"), QDir::homePath()).toString())
{
    m_menu = fileMenu->addMenu(tr("&Export"));
    m_menu->setObjectName(QStringLiteral("exportMenu"));
    for (int i = 0; i < kKinds; ++i) {
        const Kind kind = Kind(i);
        m_actions[std::size_t(i)] = m_menu->addAction(tr(kTexts[std::size_t(i)].label), this,
                                                      [this, kind] { onExport(kind); });
        if (kind == Kind::StatePng || kind == Kind::ExplainPng)
            m_menu->addSeparator();
    }
    connect(&session, &RunSession::traceChanged, this, &ExportActions::updateEnabled);
    updateEnabled();
}

QString ExportActions::suggestedName(Kind kind) const
{
    const lessons::Lesson *lesson = m_lesson();
    const QString stem = lesson ? QString::fromStdString(lesson->id) : QStringLiteral("rankstep");
    return stem + QLatin1String(kTexts[std::size_t(kind)].suffix);
}

QString ExportActions::exportTo(Kind kind, const QString &path) const
{
    StepController &step = m_session.stepper();
    const TracePtr trace = m_session.trace();
    if (!trace)
        return tr("There is no run to export yet: run the code first (F5).");
    const lessons::Lesson *lesson = m_lesson();
    FigureOptions options;
    options.scheme = m_appearance.look().scheme;                // the colors the learner sees
    options.words = &engineWords();                             // and the language
    options.realRun = m_session.units() == TraceUnits::Seconds; // its times in ms, as shown
    if (lesson) {
        options.title = QStringLiteral("%1: %2").arg(QString::fromStdString(lesson->title),
                                                     QString::fromStdString(lesson->function));
        options.memoryTarget = m_session.memoryTarget(); // none for a run not graded against it
    }
    if (!step.atEnd()) { // the cursor and the faded future, as the window shows them
        options.cursor = step.cursorTime();
        options.ghostAfter = step.appliedEvents();
        if (step.cursor()->cut())
            options.rankGhostAfter = step.appliedEventsByRank();
        options.running = step.runningEvents();
    }
    switch (kind) {
        case Kind::TimelineSvg:
            return writeTimelineSvg(trace, options, path);
        case Kind::TimelinePng:
            return writeTimelinePng(trace, options, path);
        case Kind::StatePng:
            options.ranks = m_stateView.visibleRanks(); // the ranks the learner picked
            return writeStatePng(trace, step.state(), options, path);
        case Kind::ExplainSvg:
        case Kind::ExplainPng:
            return writeExplainFigure(*trace, options, path, kind == Kind::ExplainSvg);
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
    QSettings().setValue(QStringLiteral("export/folder"), m_folder); // kept across restarts
    const QString error = exportTo(kind, path);
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Export failed"), error);
        return;
    }
    Q_EMIT exported(path);
}

void ExportActions::updateEnabled()
{
    const bool hasTrace = m_session.trace() != nullptr;
    for (QAction *action : m_actions)
        action->setEnabled(hasTrace);
    m_menu->setEnabled(hasTrace);
}

} // namespace rankstep::gui
