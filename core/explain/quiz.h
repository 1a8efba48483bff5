// SPDX-License-Identifier: MIT
// Predict the next step (docs/quiz.md): before a step of a run is shown to a class, a question
// about it that the room can answer from what is on screen, with its choices and the answer
// revealed with the step. Questions are about the run on screen (its ranks, their memory, its
// outcome), never about any code: a lesson's solution is never quoted or hinted at.
#pragma once

#include "core/replay/state.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::explain {

enum class QuizKind {
    Outcome,     // at the start: will the run finish, hang, or stop with an error?
    NewObject,   // what appears in a rank's memory?
    NextRank,    // which rank moves next?
    NextOp,      // what does this rank do next?
    IdleLongest, // before the end: which rank was idle longest over the run?
};

struct QuizQuestion {
    QuizKind kind = QuizKind::NextRank;
    std::string question;
    std::vector<std::string> choices; // 2 to 4, shown as A, B, C, D
    int answer = 0;                   // into choices
    std::string reveal;               // a sentence said with the answer
    int rank =
        -1; // the rank it asks about (NewObject, NextOp), whose panel the room watches; else -1
};

// The question for the step from `before` to `after` (every rank's state at the cursor and at
// the step's target: replay::stateAt), or nullopt when the step asks nothing worth a guess (a
// lone rank's next operation, a step that changes nothing). fromHome: the cursor is at the start
// of the run; toEnd: the step reaches its end. `seed` orders the choices (the same step always
// gives the same order, the answer not always first).
std::optional<QuizQuestion> quizQuestion(const core::Trace &trace, const replay::RunState &before,
                                         const replay::RunState &after, bool fromHome, bool toEnd,
                                         std::uint32_t seed);

// "weight gradient of layer 1, batches 0-3", "weight of layer 0, shard 2 of 4": an object as the
// quiz names it.
std::string objectPhrase(const core::Object &object);

} // namespace rankstep::explain
