// SPDX-License-Identifier: MIT
#include "lesson.h"

namespace rankstep::lessons {

Verdict judge(const Lesson &lesson, const core::Trace &trace)
{
    Verdict v;
    v.finished = trace.status == core::RunStatus::Ok;
    v.checkPassed = trace.check.passed;
    if (lesson.targets && trace.figures.hasEvents) {
        v.timeMet = trace.figures.timesteps <= lesson.targets->time;
        v.memoryMet = trace.figures.maxMemory <= lesson.targets->memory;
    } else if (lesson.targets) {
        v.timeMet = v.memoryMet = false;
    }
    const bool checkNeeded = lesson.goal == Goal::Train;
    v.solved = v.finished && (!checkNeeded || v.checkPassed) && v.timeMet && v.memoryMet;
    if (!v.finished) {
        v.summary = "Not solved yet: the run did not finish (" +
                    std::string(core::runStatusName(trace.status)) + ").";
    } else if (checkNeeded && !v.checkPassed) {
        v.summary = "Not solved yet: " + trace.check.message;
    } else if (lesson.targets && !trace.figures.hasEvents) {
        // No figures to compare: "Timesteps 0 is above the target" would be false.
        v.summary =
            "Not solved yet: the run made no operations, so it has no figures to compare "
            "with the targets.";
    } else if (!v.timeMet || !v.memoryMet) {
        std::string missed;
        if (!v.timeMet)
            missed = "Timesteps " + trace.figures.timesteps.toString() + " is above the target " +
                     lesson.targets->time.toString();
        if (!v.memoryMet)
            missed += (missed.empty() ? "" : "; ") + std::string("Maximum Memory ") +
                      std::to_string(trace.figures.maxMemory) + " is above the target " +
                      std::to_string(lesson.targets->memory);
        v.summary = "Correct, but not solved yet: " + missed + ".";
    } else {
        v.summary = "Solved!";
    }
    return v;
}

} // namespace rankstep::lessons
