// SPDX-License-Identifier: MIT
#include "demobar.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

// The caption reads from the back of a classroom: this much larger than the window's text (which
// the zoom and presentation mode already enlarge).
constexpr double kCaptionScale = 1.35;

QToolButton *textButton(const QString &text, const QString &toolTip, const QString &name)
{
    auto *button = new QToolButton;
    button->setText(text);
    button->setToolTip(toolTip);
    button->setObjectName(name);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

DemoBar::DemoBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("demoBar"));
    setAccessibleName(tr("Demonstration"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_pages = new QStackedWidget;
    m_pages->addWidget(buildRecording());
    m_pages->addWidget(buildReplay());
    m_pages->addWidget(buildUnsaved());
    layout->addWidget(m_pages);
    hide();
}

QWidget *DemoBar::buildRecording()
{
    auto *page = new QWidget;
    auto *row = new QHBoxLayout(page);
    row->setContentsMargins(0, 0, 0, 0);
    m_recording = new QLabel;
    m_recording->setObjectName(QStringLiteral("demoRecording"));
    m_recording->setTextFormat(Qt::RichText);
    row->addWidget(m_recording);
    m_captionEdit = new QLineEdit;
    m_captionEdit->setObjectName(QStringLiteral("demoCaptionEdit"));
    m_captionEdit->setPlaceholderText(tr("Caption of this step, shown large when replayed"));
    m_captionEdit->setAccessibleName(tr("Caption of the step on screen"));
    m_captionEdit->setMaxLength(1000); // at most 4000 bytes of UTF-8: the file's bound
    connect(m_captionEdit, &QLineEdit::textEdited, this, &DemoBar::captionEdited);
    row->addWidget(m_captionEdit, 1);
    QToolButton *stop =
        textButton(tr("■ Stop Recording…"), tr("End the recording and save it to a file"),
                   QStringLiteral("demoStopRecording"));
    connect(stop, &QToolButton::clicked, this, &DemoBar::stopRecordingClicked);
    row->addWidget(stop);
    return page;
}

QWidget *DemoBar::buildReplay()
{
    auto *page = new QWidget;
    auto *column = new QVBoxLayout(page);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    m_back = textButton(tr("◀ Step"), tr("The demonstration's step before (PageUp)"),
                        QStringLiteral("demoBack"));
    connect(m_back, &QToolButton::clicked, this, &DemoBar::previousClicked);
    row->addWidget(m_back);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("demoStatus"));
    row->addWidget(m_status);
    m_next = textButton(tr("Step ▶"), tr("The demonstration's next step (PageDown)"),
                        QStringLiteral("demoNext"));
    connect(m_next, &QToolButton::clicked, this, &DemoBar::nextClicked);
    row->addWidget(m_next);
    m_play = textButton(tr("Play"), tr("Go through the steps on their own, at the pace beside"),
                        QStringLiteral("demoPlay"));
    m_play->setCheckable(true);
    connect(m_play, &QToolButton::toggled, this, &DemoBar::playToggled);
    row->addWidget(m_play);
    m_pace = new QDoubleSpinBox;
    m_pace->setObjectName(QStringLiteral("demoPace"));
    m_pace->setRange(0.5, 120);
    m_pace->setDecimals(1);
    m_pace->setValue(4);
    m_pace->setSuffix(tr(" s a step"));
    m_pace->setToolTip(tr("How long Play shows each step"));
    m_pace->setAccessibleName(tr("Seconds a step while playing"));
    m_pace->setFocusPolicy(Qt::ClickFocus); // the clicker's keys stay with the recording
    connect(m_pace, &QDoubleSpinBox::valueChanged, this, &DemoBar::paceChanged);
    row->addWidget(m_pace);
    row->addStretch(1);
    QToolButton *end =
        textButton(tr("End Replay"), tr("Back to your own code; the demonstration changed nothing"),
                   QStringLiteral("demoEnd"));
    connect(end, &QToolButton::clicked, this, &DemoBar::endReplayClicked);
    row->addWidget(end);
    column->addLayout(row);
    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("demoCaption"));
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    m_caption->setAccessibleName(tr("Caption of the step"));
    column->addWidget(m_caption);
    updateCaptionFont();
    return page;
}

QWidget *DemoBar::buildUnsaved()
{
    auto *page = new QWidget;
    auto *row = new QHBoxLayout(page);
    row->setContentsMargins(0, 0, 0, 0);
    m_unsaved = new QLabel;
    m_unsaved->setObjectName(QStringLiteral("demoUnsaved"));
    m_unsaved->setWordWrap(true);
    row->addWidget(m_unsaved, 1);
    QToolButton *save =
        textButton(tr("Save…"), tr("Save the recording to a file"), QStringLiteral("demoSave"));
    connect(save, &QToolButton::clicked, this, &DemoBar::saveClicked);
    row->addWidget(save);
    QToolButton *discard =
        textButton(tr("Discard"), tr("Throw the recording away"), QStringLiteral("demoDiscard"));
    connect(discard, &QToolButton::clicked, this, &DemoBar::discardClicked);
    row->addWidget(discard);
    return page;
}

void DemoBar::updateCaptionFont()
{
    if (!m_caption)
        return;
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * kCaptionScale);
    big.setBold(true);
    m_caption->setFont(big);
}

void DemoBar::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateCaptionFont(); // the zoom changed the window's font
}

void DemoBar::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    Q_EMIT shownChanged(true);
}

void DemoBar::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    Q_EMIT shownChanged(false);
}

void DemoBar::showRecording(int steps, bool newStep)
{
    if (newStep || m_pages->currentIndex() != 0 || isHidden())
        m_captionEdit->clear();
    m_pages->setCurrentIndex(0);
    m_recording->setText(
        (steps == 1 ? tr("<span style='color:#d32f2f'>●</span> Recording · 1 step")
                    : tr("<span style='color:#d32f2f'>●</span> Recording · %1 steps").arg(steps)));
    show();
}

void DemoBar::showUnsaved(int steps)
{
    m_pages->setCurrentIndex(2);
    m_unsaved->setText(steps == 1 ? tr("The recording of 1 step is not saved yet.")
                                  : tr("The recording of %1 steps is not saved yet.").arg(steps));
    show();
}

void DemoBar::showReplay(int step, int count, const QString &caption, const QString &what)
{
    m_pages->setCurrentIndex(1);
    m_status->setText(what.isEmpty() ? tr("Step %1 of %2").arg(step + 1).arg(count)
                                     : tr("Step %1 of %2 · %3").arg(step + 1).arg(count).arg(what));
    m_back->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < count);
    m_caption->setText(caption);
    m_caption->setVisible(!caption.isEmpty());
    show();
}

void DemoBar::showWaiting(int step, int count)
{
    m_pages->setCurrentIndex(1);
    m_status->setText(tr("Step %1 of %2 · running its code…").arg(step + 1).arg(count));
    show();
}

void DemoBar::setPlaying(bool playing)
{
    const QSignalBlocker blocker(m_play);
    m_play->setChecked(playing);
    m_play->setText(playing ? tr("Pause") : tr("Play"));
}

void DemoBar::setPace(double seconds)
{
    const QSignalBlocker blocker(m_pace);
    m_pace->setValue(seconds);
}

void DemoBar::hideBar()
{
    setPlaying(false);
    hide();
}

} // namespace rankstep::gui
