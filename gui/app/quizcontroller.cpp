// SPDX-License-Identifier: MIT
#include "quizcontroller.h"

#include "appearance.h"
#include "enginetext.h"
#include "quizpanel.h"
#include "runsession.h"
#include "stepcontroller.h"

namespace rankstep::gui {

QuizController::QuizController(RunSession &session, Appearance &appearance, QuizPanel &panel,
                               QObject *parent)
    : QObject(parent), m_session(session), m_appearance(appearance), m_panel(panel)
{
    m_session.stepper().setForwardGate([this](const replay::Cursor &to) { return gate(to); });
    connect(&m_session.stepper(), &StepController::cursorChanged, this,
            &QuizController::onCursorChanged);
    // The held cursor points into the run's stop points: a new run drops it.
    connect(&m_session.stepper(), &StepController::traceChanged, this, &QuizController::dismiss);
    connect(&m_appearance, &Appearance::presentingChanged, this, [this](bool presenting) {
        if (!presenting)
            dismiss();
    });
}

void QuizController::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    if (!enabled)
        dismiss();
    Q_EMIT enabledChanged(enabled);
}

bool QuizController::active() const
{
    const TracePtr &trace = m_session.trace();
    return m_enabled && m_appearance.presenting() && trace && !m_session.stepper().isPlaying() &&
           trace->events.size() <= kMostQuizEvents;
}

bool QuizController::gate(const replay::Cursor &to)
{
    if (!active()) {
        dismiss();
        return true;
    }
    if (m_held && *m_held == to) { // the second press: the answer, with the step
        m_panel.reveal(m_question->answer, engineText(m_question->reveal));
        m_held.reset();
        m_revealed = to;
        return true;
    }
    StepController &stepper = m_session.stepper();
    const auto from = stepper.cursor();
    const replay::RunState after = replay::stateAt(*m_session.trace(), to);
    auto question =
        explain::quizQuestion(*m_session.trace(), stepper.state(), after, from && from->atHome(),
                              to.atEnd(), std::uint32_t(to.stop()));
    if (!question) { // nothing worth a guess: the step goes at once
        dismiss();
        return true;
    }
    QStringList choices;
    for (const std::string &choice : question->choices)
        choices.append(engineText(choice));
    m_panel.ask(engineText(question->question), choices);
    const int rank = question->rank;
    m_question = std::move(question);
    m_held = to;
    m_revealed.reset();
    if (rank >= 0)
        Q_EMIT askedAboutRank(rank);
    return false;
}

void QuizController::onCursorChanged()
{
    const auto cursor = m_session.stepper().cursor();
    if (m_revealed && cursor && *cursor == *m_revealed)
        return; // the revealed step: its answer stays until the next question
    // Moved otherwise (back, a click, the scrubber): the question is about a step not taken.
    dismiss();
}

void QuizController::dismiss()
{
    m_held.reset();
    m_revealed.reset();
    m_question.reset();
    if (m_panel.isVisibleTo(m_panel.parentWidget()) || !m_panel.isHidden())
        m_panel.hidePanel();
}

} // namespace rankstep::gui
