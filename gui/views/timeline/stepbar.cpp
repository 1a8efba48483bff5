// SPDX-License-Identifier: MIT
#include "stepbar.h"

#include "appearance.h"
#include "describable.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "timelineview.h"

#include <Qsci/qsciscintillabase.h>

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QSlider>
#include <QStandardItemModel>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QTextEdit>
#include <QToolButton>

#include <algorithm>
#include <utility>

namespace rankstep::gui {
namespace {

// The position in as many of its " · " parts as fit, the whole in its tooltip: a narrow window
// (1280x800, or German) cut "... rank 2 at t = 5.4, running · all ranks past t = 5" mid-word.
// Before it drops a part it tries the shorter words, if any ("11264/18038784 done" for "11264
// of 18038784 operations done"): at 1280x800 a 16,384-rank run lost "· 1024 running".
// Its size hint is the whole text's, so that it takes it back as the bar widens.
class FittedLabel : public QLabel
{
public:
    void setFullText(const QString &text, const QString &shorter = {})
    {
        m_full = text;
        m_shorter = shorter;
        updateGeometry();
        fit();
    }
    const QString &fullText() const { return m_full; }
    // Shown whole, in the full or the shorter words.
    bool isWhole() const
    {
        return text() == m_full || (!m_shorter.isEmpty() && text() == m_shorter);
    }
    QSize sizeHint() const override
    {
        return {fontMetrics().horizontalAdvance(m_full) + 2 * margin() + 2,
                QLabel::sizeHint().height()};
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit()
    {
        const int room = contentsRect().width() - 2 * margin();
        const QFontMetrics metrics = fontMetrics();
        const QString &words =
            !m_shorter.isEmpty() && metrics.horizontalAdvance(m_full) > room ? m_shorter : m_full;
        QStringList parts = words.split(QStringLiteral(" · "));
        while (parts.size() > 1 &&
               metrics.horizontalAdvance(parts.join(QStringLiteral(" · "))) > room)
            parts.removeLast();
        const QString shown =
            metrics.elidedText(parts.join(QStringLiteral(" · ")), Qt::ElideRight, room);
        setText(shown);
        setToolTip(shown == m_full ? QString() : m_full);
    }

    QString m_full;
    QString m_shorter; // the same in shorter words; empty: none
};

// The snapshot list: the open list names each draw() in full ("rank 2, line 64: draw(...)"),
// the closed box the one the cursor stands at by its rank and line ("rank 2, line 64"), whole:
// in the narrow box the full name read "line 64: dra". The whole name is in its tooltip.
// Between snapshots and after the last it names the last one passed ("after line 64"): at the
// end of a run whose step bar said "snapshot 8 of 8" the box was blank.
class SnapshotBox : public QComboBox
{
public:
    static constexpr int kShortRole = Qt::UserRole + 1;

    // `after`: the closed box's text while the cursor stands at no snapshot, `afterTip` its
    // tooltip (both empty before the first snapshot: the placeholder shows).
    void showCurrent(const QString &after = {}, const QString &afterTip = {})
    {
        const bool at = currentIndex() >= 0;
        m_after = at ? QString() : after;
        const QString shown = at ? itemData(currentIndex(), kShortRole).toString() : m_after;
        setProperty(kShownTextProperty, shown.isEmpty() ? QVariant() : QVariant(shown));
        setToolTip(at ? currentText() : afterTip.isEmpty() ? m_toolTip : afterTip);
        update();
    }
    void setBaseToolTip(const QString &tip)
    {
        m_toolTip = tip;
        setToolTip(tip);
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QStylePainter painter(this);
        QStyleOptionComboBox option;
        initStyleOption(&option);
        painter.drawComplexControl(QStyle::CC_ComboBox, option);
        if (currentIndex() >= 0) {
            option.currentText = itemData(currentIndex(), kShortRole).toString();
        } else {
            // QComboBox's own paintEvent draws the placeholder; this one has to as well.
            option.currentText = m_after.isEmpty() ? placeholderText() : m_after;
            option.palette.setBrush(QPalette::ButtonText, option.palette.placeholderText());
        }
        painter.drawControl(QStyle::CE_ComboBoxLabel, option);
    }

private:
    QString m_toolTip;
    QString m_after;
};

} // namespace

namespace {

bool isStepKey(const QKeyEvent &key)
{
    const int k = key.key();
    return key.modifiers() == Qt::NoModifier &&
           (k == Qt::Key_PageUp || k == Qt::Key_PageDown || k == Qt::Key_Home || k == Qt::Key_End);
}

// Widgets that move through their own content with `key` (PageUp, PageDown, Home or End).
bool usesNavigationKey(const QObject *widget, int key)
{
    if (qobject_cast<const TimelineView *>(widget)) // pans to the start and the end
        return key == Qt::Key_Home || key == Qt::Key_End;
    return qobject_cast<const QsciScintillaBase *>(widget) ||
           qobject_cast<const QLineEdit *>(widget) || qobject_cast<const QTextEdit *>(widget) ||
           qobject_cast<const QPlainTextEdit *>(widget) ||
           qobject_cast<const QAbstractSpinBox *>(widget) ||
           qobject_cast<const QAbstractItemView *>(widget) ||
           qobject_cast<const QAbstractSlider *>(widget);
}

} // namespace

StepBar::StepBar(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_controller(&session.stepper())
    , m_appearance(appearance)
{
    setObjectName(QStringLiteral("stepBar"));
    buildButtons();
    buildSettings();
    buildShortcuts();
    connect(m_controller, &StepController::traceChanged, this, &StepBar::onTraceChanged);
    connect(m_controller, &StepController::cursorChanged, this, &StepBar::onCursorChanged);
    connect(m_controller, &StepController::playingChanged, this, &StepBar::onPlayingChanged);
    // While a file opens the bar waits for its run (the run shown before stands still).
    connect(&session, &RunSession::openingChanged, this, [this] {
        if (!m_session.opening().isEmpty())
            m_controller->pause();
        onCursorChanged();
    });
    // The one filter of every event: a shortcut override is sent to the focused widget only.
    qApp->installEventFilter(this);
    onTraceChanged();
    onCursorChanged();
}

QToolButton *StepBar::addButton(const QString &text, const QString &toolTip,
                                void (StepController::*slot)())
{
    auto *button = new QToolButton;
    button->setText(text);
    button->setToolTip(toolTip);
    button->setFocusPolicy(Qt::NoFocus);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, m_controller, slot);
    layout()->addWidget(button);
    return button;
}

void StepBar::buildButtons()
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->setSpacing(4);
    m_home = addButton(tr("Start"), tr("To the start of the run (Home)"), &StepController::home);
    m_back =
        addButton(tr("◀ Back"), tr("One step back (Shift+F10, PageUp)"), &StepController::previous);
    m_play = addButton(tr("Play"), tr("Play and pause (Space while this button has the focus)"),
                       &StepController::togglePlay);
    m_play->setFocusPolicy(Qt::StrongFocus);
    m_play->setObjectName(QStringLiteral("playButton"));
    m_next = addButton(tr("Next ▶"), tr("One step on (F10, PageDown)"), &StepController::next);
    m_end = addButton(tr("End"), tr("To the end of the run (End)"), &StepController::end);
    setFocusProxy(m_play);
    // Icons rather than ⏮ ⏸ ⏭, which many fonts lack.
    for (auto [button, icon] :
         {std::pair(m_home, QStyle::SP_MediaSkipBackward), std::pair(m_play, QStyle::SP_MediaPlay),
          std::pair(m_end, QStyle::SP_MediaSkipForward)}) {
        button->setIcon(style()->standardIcon(icon));
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    }
    // Room for the longer of its two texts (German "Abspielen" is longer than "Pause").
    m_play->setMinimumWidth(m_play->sizeHint().width() +
                            std::max(0, fontMetrics().horizontalAdvance(tr("Pause")) -
                                            fontMetrics().horizontalAdvance(tr("Play"))));
}

void StepBar::buildSettings()
{
    auto *row = static_cast<QHBoxLayout *>(layout());
    m_mode = new QComboBox;
    m_mode->addItem(tr("by simulated time"), int(StepController::StepMode::Time));
    m_mode->addItem(tr("by operation"), int(StepController::StepMode::Operation));
    // The scheduler's interleaving, the one mode whose ranks stand at different times.
    m_mode->addItem(tr("by scheduler turn"), int(StepController::StepMode::Slice));
    m_mode->addItem(tr("by snapshot (draw)"), int(StepController::StepMode::Snapshot));
    m_mode->setFocusPolicy(Qt::ClickFocus);
    connect(m_mode, &QComboBox::activated, this, [this](int index) {
        m_snapshotsWanted = false; // the learner's choice now
        m_controller->setStepMode(StepController::StepMode(m_mode->itemData(index).toInt()));
    });
    connect(m_controller, &StepController::stepModeChanged, this,
            [this](StepController::StepMode mode) {
                m_mode->setCurrentIndex(m_mode->findData(int(mode)));
                if (mode != StepController::StepMode::Time &&
                    mode != StepController::StepMode::Snapshot)
                    m_snapshotsWanted = false;
                keepSnapshotsStepping();
                showSnapshotMode();
                onCursorChanged(); // the counter and the slider count this mode's steps
            });
    m_mode->setCurrentIndex(m_mode->findData(int(m_controller->stepMode())));
    row->addWidget(m_mode);

    auto *snapshots = new SnapshotBox;
    m_snapshots = snapshots;
    m_snapshots->setObjectName(QStringLiteral("snapshots"));
    snapshots->setBaseToolTip(tr("The snapshots your draw() calls marked: pick one to go there"));
    m_snapshots->setPlaceholderText(tr("snapshots"));
    m_snapshots->setFocusPolicy(Qt::ClickFocus);
    // Narrow in the bar (the window must fit small screens), the full names in the open list.
    m_snapshots->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_snapshots->setMinimumContentsLength(5);
    connect(m_snapshots, &QComboBox::activated, m_controller, &StepController::toSnapshot);
    row->addWidget(m_snapshots);

    m_speed = new QDoubleSpinBox;
    m_speed->setRange(0.5, 50);
    m_speed->setDecimals(1);
    m_speed->setSuffix(tr(" steps/s"));
    // The point every other figure of a run is written with (4.0, not the locale's 4,0).
    m_speed->setLocale(QLocale::c());
    m_speed->setValue(m_controller->speed());
    m_speed->setToolTip(tr("How fast Play steps"));
    m_speed->setFocusPolicy(Qt::ClickFocus);
    connect(m_speed, &QDoubleSpinBox::valueChanged, m_controller, &StepController::setSpeed);
    connect(m_controller, &StepController::speedChanged, m_speed, &QDoubleSpinBox::setValue);
    row->addWidget(m_speed);

    m_scrubber = new QSlider(Qt::Horizontal);
    m_scrubber->setObjectName(QStringLiteral("scrubber"));
    m_scrubber->setToolTip(tr("The whole run: drag to move through it"));
    m_scrubber->setFocusPolicy(Qt::ClickFocus);
    m_scrubber->setMinimumWidth(120); // before the position gives up its last parts
    connect(m_scrubber, &QSlider::valueChanged, this, &StepBar::onScrubberMoved);
    row->addWidget(m_scrubber, 1);

    m_label = new FittedLabel;
    m_label->setObjectName(QStringLiteral("stepPosition"));
    m_label->setMinimumWidth(m_label->fontMetrics().horizontalAdvance(
        QStringLiteral("operation 00 of 00 · t = 00.0 · rank 0 starts")));
    row->addWidget(m_label);
}

void StepBar::buildShortcuts()
{
    // Each says what it does: Help > Keyboard Shortcuts lists it.
    const auto add = [this](const QKeySequence &keys, void (StepController::*slot)(),
                            const QString &what) {
        auto *shortcut = new QShortcut(keys, this, nullptr, nullptr, Qt::WindowShortcut);
        shortcut->setWhatsThis(what);
        connect(shortcut, &QShortcut::activated, m_controller, slot);
        return shortcut;
    };
    add(QKeySequence(Qt::Key_F10), &StepController::next, tr("One step on"));
    add(QKeySequence(Qt::SHIFT | Qt::Key_F10), &StepController::previous, tr("One step back"));
    m_pageDown =
        add(QKeySequence(Qt::Key_PageDown), &StepController::next, tr("One step on (the clicker)"));
    m_pageUp = add(QKeySequence(Qt::Key_PageUp), &StepController::previous,
                   tr("One step back (the clicker)"));
    add(QKeySequence(Qt::Key_Home), &StepController::home, tr("To the start of the run"));
    add(QKeySequence(Qt::Key_End), &StepController::end, tr("To the end of the run"));
}

bool StepBar::eventFilter(QObject *watched, QEvent *event)
{
    // Accepting the override hands the key to the focused widget instead of our shortcut.
    if (event->type() != QEvent::ShortcutOverride || !watched->isWidgetType())
        return QWidget::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    if (!isStepKey(*key) || static_cast<QWidget *>(watched)->window() != window())
        return QWidget::eventFilter(watched, event);
    // While presenting, the clicker's PageDown and PageUp step whatever has the focus: the
    // override stays unaccepted, so the window's step shortcut gets the key.
    const bool clicker = key->key() == Qt::Key_PageDown || key->key() == Qt::Key_PageUp;
    if (clicker && (m_appearance.presenting() || m_clickerForRecording)) {
        event->ignore();
        return true;
    }
    if (usesNavigationKey(watched, key->key()))
        event->accept();
    return QWidget::eventFilter(watched, event);
}

void StepBar::setClickerForRecording(bool recording)
{
    m_clickerForRecording = recording;
    m_pageDown->setEnabled(!recording);
    m_pageUp->setEnabled(!recording);
}

QString StepBar::positionText(bool shortWords) const
{
    const auto cursor = m_controller->cursor();
    if (!cursor)
        return tr("Run your code to step through it.");
    const core::Trace &trace = *m_controller->trace();
    // A real run's times are milliseconds; a simulated run's steps go without a unit, as in
    // the notebook.
    const QString unit =
        m_session.units() == TraceUnits::Seconds ? QStringLiteral(" ms") : QString();
    const QString time = QString::fromStdString(m_controller->cursorTime().toString()) + unit;
    const auto index = qlonglong(m_controller->stepIndex());
    const auto count = qlonglong(m_controller->stepCount());
    const std::optional<int> rank = m_controller->movedRank();
    const std::size_t running = cursor->atEnd() ? 0 : m_controller->runningCount();
    // Every mode but the scheduler's turns stands at one time that every view shows.
    QString text;
    switch (m_controller->stepMode()) {
        case StepController::StepMode::Time:
            text =
                (shortWords ? tr("t = %1 · %2/%3 done") : tr("t = %1 · %2 of %3 operations done"))
                    .arg(time)
                    .arg(m_controller->doneEvents())
                    .arg(trace.events.size());
            // The learner asked for snapshots: why it steps by time instead.
            if (m_snapshotsWanted)
                text += tr(" · no snapshots: the code calls no draw()");
            break;
        case StepController::StepMode::Operation:
            text = tr("operation %1 of %2 · t = %3").arg(index).arg(count).arg(time);
            if (rank && !cursor->atEnd())
                text += tr(" · rank %1 starts").arg(*rank);
            break;
        case StepController::StepMode::Snapshot:
            text = tr("snapshot %1 of %2 · t = %3").arg(index).arg(count).arg(time);
            if (const auto mark = cursor->mark()) {
                const core::Mark &at = trace.marks[*mark];
                text += at.rank >= 0 && trace.config.ranks > 1
                            ? tr(" · rank %1's draw() at line %2").arg(at.rank).arg(at.line)
                            : tr(" · draw() at line %1").arg(at.line);
            }
            break;
        case StepController::StepMode::Slice:
            // The one mode whose ranks stand at their own clocks: the time is the mover's.
            text = tr("turn %1 of %2").arg(index).arg(count);
            if (rank)
                text += tr(" · rank %1 at t = %2").arg(*rank).arg(time);
            if (trace.config.ranks > 1 && !cursor->atEnd() && !cursor->atHome())
                text += tr(" · each rank at its own time");
            break;
    }
    if (cursor->atEnd())
        return text + tr(" · end of the run");
    return running > 0 ? text + tr(" · %n running", nullptr, int(running)) : text;
}

std::optional<core::SimTime> StepBar::shownTime() const
{
    if (!m_controller->cursor())
        return std::nullopt;
    return m_controller->cursorTime();
}

QStringList StepBar::elidedTexts() const
{
    const auto *label = static_cast<const FittedLabel *>(m_label);
    if (!label->isVisible() || label->isWhole())
        return {};
    return {label->fullText()};
}

void StepBar::onCursorChanged()
{
    const auto cursor = m_controller->cursor();
    const bool opening = !m_session.opening().isEmpty();
    setEnabled(cursor.has_value() && !opening); // no steps of a run going
    const QString full = positionText();
    const QString shorter = positionText(true);
    static_cast<FittedLabel *>(m_label)->setFullText(full, shorter == full ? QString() : shorter);
    if (opening) { // in the room the label has: the window is not laid out again for it
        // Short, so that the name shows whole in a narrow window; the tooltip says the rest.
        const QString text = tr("Opening %1…").arg(m_session.opening());
        m_label->setText(m_label->fontMetrics().elidedText(text, Qt::ElideRight,
                                                           m_label->contentsRect().width()));
        m_label->setToolTip(
            tr("Opening %1: stepping starts when it is ready.").arg(m_session.opening()));
    }
    m_updatingScrubber = true;
    // The current mode's steps, so that the slider and the counter agree.
    m_scrubber->setRange(0, cursor ? int(m_controller->stepCount()) : 0);
    m_scrubber->setValue(cursor ? int(m_controller->stepIndex()) : 0);
    m_updatingScrubber = false;
    const auto snapshot = m_controller->snapshot();
    m_snapshots->setCurrentIndex(snapshot ? int(*snapshot) : -1);
    showPassedSnapshot();
    m_home->setEnabled(cursor && !cursor->atHome());
    m_back->setEnabled(cursor && !cursor->atHome());
    m_next->setEnabled(cursor && !cursor->atEnd());
    m_end->setEnabled(cursor && !cursor->atEnd());
    // A run without operations has nothing to play.
    m_play->setEnabled(cursor && !(cursor->atHome() && cursor->atEnd()));
}

void StepBar::onTraceChanged()
{
    keepSnapshotsStepping();
    showSnapshotMode();
    m_snapshots->clear();
    const TracePtr &trace = m_controller->trace();
    int shortest = 5; // the box's width, in characters: its longest short form
    if (trace) {
        const bool ranks = trace->config.ranks > 1;
        for (const core::Mark &mark : trace->marks) {
            const QString call = QStringLiteral("%1: %2(...)")
                                     .arg(mark.line)
                                     .arg(QString::fromStdString(mark.label));
            const bool ofRank = ranks && mark.rank >= 0;
            m_snapshots->addItem(ofRank ? tr("rank %1, line %2").arg(mark.rank).arg(call)
                                        : tr("line %1").arg(call));
            const QString shortText = ofRank ? tr("rank %1, line %2").arg(mark.rank).arg(mark.line)
                                             : tr("line %1").arg(mark.line);
            m_snapshots->setItemData(m_snapshots->count() - 1, shortText, SnapshotBox::kShortRole);
            shortest = std::max(shortest, int(shortText.size()));
        }
    }
    // "after " and the longest short form: the box names the snapshot passed whole too.
    m_snapshots->setMinimumContentsLength(trace && !trace->marks.empty()
                                              ? int(tr("after %1").arg(QString()).size()) + shortest
                                              : shortest);
    showPassedSnapshot();
    m_snapshots->setVisible(m_snapshots->count() > 0);
    QAbstractItemView *list = m_snapshots->view();
    list->setMinimumWidth(list->sizeHintForColumn(0) + 2 * list->frameWidth() +
                          style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

void StepBar::showPassedSnapshot()
{
    auto *box = static_cast<SnapshotBox *>(m_snapshots);
    const std::size_t taken = m_controller->snapshotsTaken();
    if (m_controller->snapshot() || taken == 0 || int(taken) > box->count()) {
        box->showCurrent();
        return;
    }
    const int passed = int(taken) - 1;
    box->showCurrent(tr("after %1").arg(box->itemData(passed, SnapshotBox::kShortRole).toString()),
                     tr("After the snapshot %1: pick one to go there").arg(box->itemText(passed)));
}

// A run without draw() calls has no snapshot to step to: stepping by snapshot there went nowhere
// ("snapshot 0 of 0"). It steps by time instead, and snapshots come back with the next run that
// has some.
void StepBar::keepSnapshotsStepping()
{
    const TracePtr &trace = m_controller->trace();
    if (!trace)
        return;
    const bool drawn = !trace->marks.empty();
    if (!drawn && m_controller->stepMode() == StepController::StepMode::Snapshot) {
        m_snapshotsWanted = true;
        m_controller->setStepMode(StepController::StepMode::Time);
    } else if (drawn && m_snapshotsWanted) {
        m_snapshotsWanted = false;
        m_controller->setStepMode(StepController::StepMode::Snapshot);
    }
}

// Its mode is offered greyed out, with why.
void StepBar::showSnapshotMode()
{
    const TracePtr &trace = m_controller->trace();
    const bool offered = !trace || !trace->marks.empty();
    const QString why = tr("This run has no snapshots: the code calls draw() to make them");
    auto *model = static_cast<QStandardItemModel *>(m_mode->model());
    if (QStandardItem *item =
            model->item(m_mode->findData(int(StepController::StepMode::Snapshot)))) {
        item->setEnabled(offered);
        item->setToolTip(offered ? QString() : why);
    }
    m_mode->setToolTip(m_snapshotsWanted
                           ? tr("What Next, Back and Play step by. This run has no snapshots (the "
                                "code calls no draw()): it steps by simulated time")
                           : tr("What Next, Back and Play step by"));
}

void StepBar::onPlayingChanged(bool playing)
{
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void StepBar::onScrubberMoved(int value)
{
    if (m_updatingScrubber || m_scrubber->maximum() == 0)
        return;
    m_controller->setFraction(double(value) / double(m_scrubber->maximum()));
}

} // namespace rankstep::gui
