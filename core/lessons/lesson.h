// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/simtime.h"
#include "core/trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::lessons {

// What a learner's run must achieve to solve the lesson.
enum class Goal {
    Train, // finish, pass the check (every layer updated once), meet the targets
    Run,   // finish without an error and meet the targets (demonstrations of one collective)
};

struct Targets {
    core::SimTime time;      // Timesteps at most this
    std::int64_t memory = 0; // maximum memory at most this
};

// Another setting to run the same function at, shown side by side (the bubble lesson).
struct Experiment {
    std::string label;
    int ranks = 1, layers = 1, batches = 1;
};

// How a lesson's ranks divide the model ("parallelism" in lesson.json, lessons/README.md), which
// picks the formula its run is measured against (core/explain/formulas.h).
enum class Parallelism {
    None,         // no formula beside the run (the field left out)
    DataParallel, // every rank holds the whole model: "data_parallel"
    Sharded,      // the ranks share one copy of the model's state: "sharded"
    Pipeline,     // the layers in stages, the bubble between them: "pipeline"
};

// A lesson of real PyTorch code (lessons/100-torch_loop and on): the learner's train(run) runs on
// real processes and is checked against a reference (core/real/rankstep_real/torchlesson.py),
// not simulated. `check` names what is checked: "loop", "amp", "ddp", "ddp_accum", "zero",
// "fsdp", "checkpoint" or "checklist" (docs/torch-lessons.md).
struct TorchSettings {
    std::string check;
    int steps = 100;
    int accumulation = 1;
    int embd = 256; // the notebook's n_embd is 1000: `rankstep-cli lesson ... --embd 1000`
};

// A lesson's text and hints in another language (text.de.md, hints.de.md): each may be left out,
// and the English one is shown instead; the hints, when there, are as many as the English ones.
struct LessonWords {
    std::string text;               // Markdown; empty: the English text
    std::vector<std::string> hints; // empty: the English hints
};

struct Lesson {
    std::string id;     // the folder name without its order prefix: "ddp"; also the CLI's name
    std::string folder; // "30-ddp"
    std::string title;
    int order = 0;
    std::string function; // the puzzle function, named as in the notebook
    core::RunConfig config;
    Goal goal = Goal::Train;
    std::optional<Targets> targets;         // what the reference solution reaches: the pass mark
    std::optional<Targets> notebookTargets; // the original notebook's rounded targets
    std::vector<Experiment> experiments;
    Parallelism parallelism = Parallelism::None;
    // A training lesson is solved only by gradients a backward computed (verdict.cpp), unless it
    // teaches with gradients given by fake_grad (lesson.json "fake_gradients": true). A Lesson
    // made in code asks nothing of the gradients.
    bool gradientsComputed = false;
    std::string text; // Markdown
    std::string starter;
    std::string solution;
    std::vector<std::string> hints;                  // Markdown, revealed one at a time
    std::optional<TorchSettings> torch;              // set for a PyTorch lesson ("kind": "torch")
    std::map<std::string, LessonWords> translations; // by language code: "de"
    // The SVG files beside the text, by file name ("block.svg", "block.de.svg"), as the text
    // shows them: ![alt](block.svg) (core/lessons/pictures.h). Checked only when drawn.
    std::map<std::string, std::string> pictures;

    bool isTorch() const { return torch.has_value(); }
};

// The lesson's text and hints in `language` ("de") where it has them, else the English ones: a
// learner reads whole texts, never a paragraph of one language inside another's.
const std::string &lessonText(const Lesson &lesson, const std::string &language);
const std::vector<std::string> &lessonHints(const Lesson &lesson, const std::string &language);

// A lesson's files by name relative to the lessons root: "30-ddp/lesson.json", ...
using LessonFiles = std::map<std::string, std::string>;

// Reads every lesson folder. Any problem is an Error of kind Usage naming the file and the field,
// e.g. "30-ddp/lesson.json: targets.memory: expected a whole number".
core::Result<std::vector<Lesson>> loadLessons(const LessonFiles &files);

// The lessons that load, and one problem (naming the file and the field) per folder left out.
struct LessonSet {
    std::vector<Lesson> lessons; // sorted by order
    std::vector<std::string> problems;
};
// Loads every whole lesson folder and leaves out the broken ones, so one bad folder does not
// hide the others (an author's --lessons DIR).
LessonSet loadLessonsSkippingBroken(const LessonFiles &files);
// The files of a lessons folder on disk (an author's --lessons DIR).
core::Result<LessonFiles> readLessonFolder(const std::string &root);
const Lesson *findLesson(const std::vector<Lesson> &lessons, const std::string &idOrFunction);

struct Verdict {
    // Which sentence `summary` is: the app says it in the language shown
    // (gui/views/lesson/resultspanel.h).
    enum class Kind {
        Solved,
        OtherSetting,  // correct at a what-if setting; graded at the lesson's own
        OtherCosts,    // correct under another cost model; graded under the notebook's
        Unfinished,    // an error, a hang or a stop; `detail` is the error's gist
        CheckFailed,   // `detail` is the check's message
        NoFigures,     // finished without operations
        TargetsMissed, // correct, over a target (timeMet, memoryMet say which)
    };
    Kind kind = Kind::Solved;
    std::string detail; // the engine's words the summary quotes (English), or empty
    struct Place {
        int rank = -1; // -1: the detail says where itself, or there is no place
        int line = 0;
    };
    Place detailAt; // where the detail happened, said before it: "rank 0, line 26: ..."
    bool solved = false;
    bool finished = false; // no error, deadlock or stop
    bool checkPassed = false;
    bool timeMet = true;
    bool memoryMet = true;
    std::string summary; // one plain sentence: what is solved or what is missing
};

// The single definition of "solved", shared by the app and the grader.
Verdict judge(const Lesson &lesson, const core::Trace &trace);

} // namespace rankstep::lessons
