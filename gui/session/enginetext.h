// SPDX-License-Identifier: MIT
#pragma once

#include "core/sentences.h"

#include <QString>

#include <string>

namespace rankstep::gui {

// The engine's English (an error, a warning, the check's verdict: core/sentences.h) in the
// language of the user interface. Each line is matched against the core's patterns and said
// through its translation in the context "EngineText", its arguments translated too where they
// are phrases of the list ("batches 0 and 1"); a line no pattern matches (a Python exception's
// own words) stays as it is, and so does everything when no translation is installed.
QString engineText(const std::string &english);
QString engineText(const QString &english);

// A Python traceback with the engine's words in its exception's line translated; the frames
// (Python's own format and the learner's code) stay as they are.
QString engineTraceback(const QString &traceback);

// The explanations' phrasebook in the language of the user interface: core/explain's sentences
// said through each pattern's translation (as UTF-8), for the views that explain in-process.
const core::Phrasebook &engineWords();

} // namespace rankstep::gui
