// SPDX-License-Identifier: MIT
#include "comparisonview.h"

#include "appearance.h"
#include "comparisoncanvas.h"
#include "enginetext.h"
#include "explainview.h"
#include "runsession.h"

#include "core/explain/compare.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rankstep::gui {

ComparisonView::ComparisonView(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_summary(new QLabel)
    , m_lessons(new QComboBox)
    , m_canvas(new ComparisonCanvas)
{
    auto *solution = new QPushButton(tr("Solution of"));
    auto *previous = new QPushButton(tr("My previous run"));
    solution->setToolTip(tr("Runs the lesson's reference solution and shows it below your run."));
    connect(solution, &QPushButton::clicked, this,
            [this] { Q_EMIT solutionRequested(m_lessons->currentData().toString()); });
    connect(previous, &QPushButton::clicked, this, &ComparisonView::previousRunRequested);
    m_lessons->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_lessons->setMinimumContentsLength(8);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel(tr("Compare with:")));
    buttons->addWidget(solution);
    buttons->addWidget(m_lessons, 1);
    buttons->addWidget(previous);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_canvas, 1);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scrollable(page));
    connect(&m_session, &RunSession::traceChanged, this, &ComparisonView::update);
    connect(&m_session, &RunSession::comparisonChanged, this, &ComparisonView::update);
    connect(&m_appearance, &Appearance::lookChanged, this, &ComparisonView::update);
    update();
}

void ComparisonView::setLessons(const QList<QPair<QString, QString>> &lessons)
{
    m_lessons->clear();
    for (const auto &[id, title] : lessons)
        m_lessons->addItem(title, id);
}

QString ComparisonView::summary() const
{
    return m_summary->text();
}

void ComparisonView::update()
{
    const TracePtr &a = m_session.trace();
    const TracePtr &b = m_session.comparison();
    static_cast<ComparisonCanvas *>(m_canvas)->setRuns(a, b, m_appearance.look(), m_session.units(),
                                                       m_session.comparisonUnits());
    if (!a || !b) {
        m_summary->setText(a ? tr("Choose what to compare your run with.")
                             : tr("Run your code first."));
        return;
    }
    if (m_session.units() != m_session.comparisonUnits()) {
        // Milliseconds against steps: the shapes compare, the numbers do not.
        const bool realFirst = m_session.units() == TraceUnits::Seconds;
        const core::Trace &real = realFirst ? *a : *b;
        const core::Trace &simulated = realFirst ? *b : *a;
        m_summary->setText(
            tr("The run on real processes took %1 ms; its simulation %2 steps. Each has its own "
               "time axis: where the bars' shapes agree, the notebook's costs describe this "
               "machine; where they do not (a collective far longer or shorter than a forward), "
               "they do not.")
                .arg(QString::fromStdString(real.figures.endTime.toString()),
                     QString::fromStdString(simulated.figures.endTime.toString())));
        return;
    }
    m_summary->setText(
        QString::fromStdString(explain::compareText(*a, *b, engineWords())).trimmed());
}

} // namespace rankstep::gui
