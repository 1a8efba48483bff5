// SPDX-License-Identifier: MIT
#include "demoactions.h"

#include "appearance.h"
#include "demobar.h"
#include "runsession.h"
#include "stepbar.h"
#include "stepcontroller.h"

#include "core/wholefile.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QStandardPaths>

namespace rankstep::gui {
namespace {

const QString kFolderKey = QStringLiteral("demonstrations/folder");

// What made a step, as the replay's bar says it.
QString changeText(const std::string &change)
{
    if (change == "lesson")
        return DemoActions::tr("the lesson");
    if (change == "run")
        return DemoActions::tr("a run");
    if (change == "step")
        return DemoActions::tr("a step of the run");
    if (change == "tab")
        return DemoActions::tr("a tab");
    if (change == "view")
        return DemoActions::tr("the time shown");
    if (change == "zoom")
        return DemoActions::tr("the zoom");
    if (change == "select")
        return DemoActions::tr("a selection");
    if (change == "ranks")
        return DemoActions::tr("the ranks shown");
    return {};
}

} // namespace

DemoActions::DemoActions(const DemoStage &stage, DemoBar &bar, StepBar &stepBar, QMenu *fileMenu,
                         QWidget *window)
    : QObject(window)
    , m_stage(stage)
    , m_bar(bar)
    , m_stepBar(stepBar)
    , m_window(window)
    , m_recorder(new DemoRecorder(stage, this))
    , m_player(new DemoPlayer(stage, this))
{
    fileMenu->addSeparator();
    m_record = fileMenu->addAction(tr("&Record a Demonstration"));
    m_record->setObjectName(QStringLiteral("recordDemoAction"));
    m_record->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
    connect(m_record, &QAction::triggered, this,
            [this] { m_recorder->isRecording() ? stopAndAskToSave() : startRecording(); });
    m_replay = fileMenu->addAction(tr("Re&play a Demonstration…"));
    m_replay->setObjectName(QStringLiteral("replayDemoAction"));
    m_replay->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
    connect(m_replay, &QAction::triggered, this, &DemoActions::askToReplay);

    // The clicker steps the recording while it is replayed, whichever widget has the focus.
    m_pageDown =
        new QShortcut(QKeySequence(Qt::Key_PageDown), window, nullptr, nullptr, Qt::WindowShortcut);
    m_pageUp =
        new QShortcut(QKeySequence(Qt::Key_PageUp), window, nullptr, nullptr, Qt::WindowShortcut);
    m_pageDown->setWhatsThis(tr("The demonstration's next step, while replaying one"));
    m_pageUp->setWhatsThis(tr("The demonstration's step before, while replaying one"));
    connect(m_pageDown, &QShortcut::activated, m_player, &DemoPlayer::next);
    connect(m_pageUp, &QShortcut::activated, m_player, &DemoPlayer::previous);

    connect(&bar, &DemoBar::captionEdited, m_recorder, &DemoRecorder::setCaption);
    connect(&bar, &DemoBar::stopRecordingClicked, this, &DemoActions::stopAndAskToSave);
    connect(&bar, &DemoBar::saveClicked, this, &DemoActions::askToSaveUnsaved);
    connect(&bar, &DemoBar::discardClicked, this, &DemoActions::discardUnsaved);
    connect(&bar, &DemoBar::previousClicked, m_player, &DemoPlayer::previous);
    connect(&bar, &DemoBar::nextClicked, m_player, &DemoPlayer::next);
    connect(&bar, &DemoBar::playToggled, m_player, &DemoPlayer::setPlaying);
    connect(&bar, &DemoBar::paceChanged, m_player, &DemoPlayer::setPace);
    connect(&bar, &DemoBar::endReplayClicked, m_player, &DemoPlayer::finish);
    connect(m_recorder, &DemoRecorder::stepsChanged, this,
            [this](int count, bool added) { m_bar.showRecording(count, added); });
    connect(m_player, &DemoPlayer::stepShown, this, &DemoActions::updateBar);
    connect(m_player, &DemoPlayer::waitingForRun, this,
            [this](int step) { m_bar.showWaiting(step, m_player->count()); });
    connect(m_player, &DemoPlayer::playingChanged, &m_bar, &DemoBar::setPlaying);
    connect(m_player, &DemoPlayer::activeChanged, this, [this](bool active) {
        m_stepBar.setClickerForRecording(active);
        updateActions();
        updateBar();
    });
    m_bar.setPace(m_player->pace());
    updateActions();
    // Every change on screen that a recording keeps (the window notes the tab's).
    const auto note = [this](const char *change) {
        return [this, change] {
            noteChange(QLatin1String(change));
        };
    };
    connect(&stage.session->stepper(), &StepController::cursorChanged, this, note("step"));
    connect(stage.session, &RunSession::visibleRangeChanged, this, note("view"));
    connect(stage.session, &RunSession::selectedRankChanged, this, note("select"));
    connect(stage.session, &RunSession::selectedEventChanged, this, note("select"));
    connect(stage.session, &RunSession::shownRanksChanged, this, note("ranks"));
    connect(stage.appearance, &Appearance::zoomChanged, this, note("zoom"));
}

void DemoActions::updateActions()
{
    const bool replaying = m_player->isActive();
    m_pageDown->setEnabled(replaying);
    m_pageUp->setEnabled(replaying);
    m_record->setEnabled(!replaying);
    m_replay->setEnabled(!m_recorder->isRecording());
    m_record->setText(m_recorder->isRecording() ? tr("Stop &Recording…")
                                                : tr("&Record a Demonstration"));
}

void DemoActions::updateBar()
{
    if (m_player->isActive()) {
        const int step = m_player->shownStep();
        if (step < 0)
            return; // waiting for a run: the bar says so
        const io::DemoStep &shown = m_player->demonstration().steps[std::size_t(step)];
        m_bar.showReplay(step, m_player->count(), QString::fromStdString(shown.caption),
                         changeText(shown.change));
    } else if (m_recorder->isRecording()) {
        m_bar.showRecording(m_recorder->stepCount(), false);
    } else if (!m_unsaved.steps.empty()) {
        m_bar.showUnsaved(int(m_unsaved.steps.size()));
    } else {
        m_bar.hideBar();
    }
}

void DemoActions::startRecording()
{
    if (m_recorder->isRecording() || m_player->isActive())
        return;
    if (!m_unsaved.steps.empty()) {
        Q_EMIT message(tr("Save or discard the last recording before starting another."));
        updateBar();
        return;
    }
    // The run on screen is recorded with its code only when it is that code's run (not a What if
    // setting or a real run opened since).
    const bool ownRun = m_stage.session->trace() && m_stage.session->trace() == m_lastRunTrace;
    if (!m_recorder->start(ownRun ? m_lastRunCode : QString(), m_lastRunCost))
        return;
    updateActions();
    Q_EMIT message(
        tr("Recording: every step, tab and view change is kept. Type a caption for "
           "the step on screen in the bar above the steps."));
}

void DemoActions::stopRecording()
{
    if (m_recorder->isRecording())
        m_unsaved = m_recorder->stop();
    updateActions();
    updateBar();
}

void DemoActions::stopAndAskToSave()
{
    stopRecording();
    askToSaveUnsaved();
}

void DemoActions::askToSaveUnsaved()
{
    if (m_unsaved.steps.empty())
        return;
    const QString suggested = QDir(folder()).filePath(QString::fromStdString(m_unsaved.lesson) +
                                                      QStringLiteral("-demonstration.json"));
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Save the Demonstration"), suggested,
                                     tr("Rankstep demonstrations (*.json);;All files (*)"));
    if (path.isEmpty())
        return; // kept on the bar
    QString why;
    if (!saveUnsaved(path, &why)) {
        QMessageBox::warning(m_window, tr("The demonstration was not saved"), why);
        return;
    }
    Q_EMIT message(tr("Saved the demonstration to %1.").arg(QDir::toNativeSeparators(path)));
}

bool DemoActions::saveUnsaved(const QString &path, QString *why)
{
    if (m_unsaved.steps.empty()) {
        *why = tr("There is no recording to save.");
        return false;
    }
    const std::string text = io::demonstrationToJson(m_unsaved);
    // Whole or not at all: a full disk must not leave an empty file where a demonstration was.
    if (const auto failed = core::writeWholeFile(QFile::encodeName(path).toStdString(), text)) {
        *why = tr("Cannot write %1: %2. The recording is kept; save it elsewhere.")
                   .arg(QDir::toNativeSeparators(path), QString::fromStdString(failed->reason));
        return false;
    }
    rememberFolder(path);
    m_unsaved = io::Demonstration();
    updateBar();
    return true;
}

void DemoActions::discardUnsaved()
{
    m_unsaved = io::Demonstration();
    updateBar();
}

void DemoActions::askToReplay()
{
    if (m_recorder->isRecording())
        return;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Replay a Demonstration"), folder(),
                                     tr("Rankstep demonstrations (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString why;
    if (!replay(path, 0, &why))
        QMessageBox::warning(m_window, tr("This demonstration cannot be replayed"), why);
}

bool DemoActions::replay(const QString &path, int first, QString *why)
{
    if (m_recorder->isRecording()) {
        *why = tr("Stop the recording before replaying one.");
        return false;
    }
    if (m_player->isActive())
        m_player->finish();
    m_openingForReplay = true;
    const bool started = m_player->open(path, first, why);
    m_openingForReplay = false;
    if (started) {
        rememberFolder(path);
        Q_EMIT replayed(path);
    }
    return started;
}

void DemoActions::onRunStarted(const QString &code, const QString &cost)
{
    m_pendingCode = code;
    m_pendingCost = cost;
    m_pendingBefore = m_stage.session->trace();
    m_recorder->onRunStarted(code, cost);
}

void DemoActions::onRunFinished()
{
    // Only a run that put a new trace on screen is the code of what is shown.
    const TracePtr &trace = m_stage.session->trace();
    if (!m_pendingCode.isEmpty() && trace && trace != m_pendingBefore) {
        m_lastRunCode = m_pendingCode;
        m_lastRunCost = m_pendingCost;
        m_lastRunTrace = trace;
    }
    m_pendingCode.clear();
    m_pendingBefore = nullptr;
    m_recorder->onRunFinished();
    m_player->onRunFinished();
}

bool DemoActions::confirmClose()
{
    stopRecording();
    if (m_unsaved.steps.empty())
        return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Save the demonstration?"),
        tr("The recording of %1 steps is not saved yet.").arg(m_unsaved.steps.size()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard) {
        discardUnsaved();
        return true;
    }
    if (answer == QMessageBox::Save)
        askToSaveUnsaved();
    return m_unsaved.steps.empty(); // saved; a cancelled dialog keeps the window open
}

void DemoActions::onLessonOpened(const QString &lessonId)
{
    m_lastRunCode.clear();
    m_lastRunTrace = nullptr;
    if (m_openingForReplay)
        return;
    // A demonstration is of one lesson: another one ends the replay, and stops the recording
    // (kept on the bar to be saved).
    if (m_player->isActive() && lessonId.toStdString() != m_player->demonstration().lesson)
        m_player->finish();
    if (m_recorder->isRecording() && lessonId.toStdString() != m_recorder->recording().lesson) {
        stopRecording();
        Q_EMIT message(tr("The recording stopped: it is of one lesson. Save it from the bar."));
    }
}

void DemoActions::noteChange(const QString &change)
{
    m_recorder->noteChange(change);
}

QString DemoActions::folder() const
{
    const QString saved = QSettings().value(kFolderKey).toString();
    if (!saved.isEmpty() && QFileInfo(saved).isDir())
        return saved;
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

void DemoActions::rememberFolder(const QString &file)
{
    QSettings().setValue(kFolderKey, QFileInfo(file).absolutePath());
}

} // namespace rankstep::gui
