// SPDX-License-Identifier: MIT
#pragma once

#include "core/explain/quiz.h"

#include <QObject>

#include <optional>

namespace rankstep::gui {

class Appearance;
class QuizPanel;
class RunSession;

// View > Predict the Next Step (docs/quiz.md): while presenting, a step forward first asks the
// room a question about it (core/explain/quiz.h) and holds the step; the next step forward
// (PageDown, F10, Next) reveals the answer with the step. Play, stepping back, another run and
// leaving presentation mode never wait for it. Runs of more than kMostQuizEvents events are not
// quizzed (each question rebuilds the state at the step's target from the start).
class QuizController : public QObject
{
    Q_OBJECT
public:
    QuizController(RunSession &session, Appearance &appearance, QuizPanel &panel,
                   QObject *parent = nullptr);

    static constexpr std::size_t kMostQuizEvents = 20000;

    bool isEnabled() const { return m_enabled; }
    // A question waits for its answer (the step is held).
    bool isAsking() const { return m_held.has_value(); }
    const std::optional<explain::QuizQuestion> &question() const { return m_question; }

public Q_SLOTS:
    void setEnabled(bool enabled);

Q_SIGNALS:
    void enabledChanged(bool enabled);
    // A question about one rank is asked (what appears in its memory, what it does next): the
    // room watches that rank's panel, which is shown large.
    void askedAboutRank(int rank);

private:
    bool active() const;
    bool gate(const replay::Cursor &to);
    void onCursorChanged();
    void dismiss();

    RunSession &m_session;
    Appearance &m_appearance;
    QuizPanel &m_panel;
    bool m_enabled = false;
    std::optional<replay::Cursor> m_held;     // the step the question is about
    std::optional<replay::Cursor> m_revealed; // where the revealed step went
    std::optional<explain::QuizQuestion> m_question;
};

} // namespace rankstep::gui
