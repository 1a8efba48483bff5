// SPDX-License-Identifier: MIT
#pragma once

#include "core/lessons/lesson.h"

#include <optional>
#include <string>
#include <vector>

namespace rankstep::cli {

// `rankstep-cli real FILE --function F --ranks R --layers L --batches B ...`: the
// program is simulated first, then run by one process per rank on real tensors through
// torch.distributed (core/real/rankstep_real), and the ranks' final weights are compared with one
// process training the same model on every batch. Runs in the unsandboxed supervisor, which
// starts the rank processes; never inside the runner that hosts learner code.
int realCommand(const std::vector<std::string> &args);
// realCommand with a usage error or an unexpected one turned into its message and exit code.
int runReal(const std::vector<std::string> &args);

// How a PyTorch lesson runs: its report (--json), its time limit, and sizes other than the
// lesson's (0: the lesson's own; the tests run a few steps of a small model).
struct TorchLessonOptions {
    std::string json;
    double timeout = 300;
    int steps = 0;
    int embd = 0;
    long long memory = 2048; // MiB a rank may use (kRealMemoryMiB, cli/realprocess.h)
};

// A PyTorch lesson (lesson.h TorchSettings): one process per rank runs the learner's train(run)
// on real tensors (core/real/rankstep_real/torchlesson.py), sandboxed as a real run's ranks are,
// and its checks are printed; `sourceName` names the code in messages. kSolved or kNotSolved,
// or kLearnerError, kStopped, 69 without PyTorch.
int torchLessonCommand(const lessons::Lesson &lesson, const std::string &source,
                       const std::string &sourceName, const TorchLessonOptions &options);
// `rankstep-cli lesson NAME FILE` when NAME is a PyTorch lesson: its exit code; nothing when it
// is a simulated lesson (or the arguments are the ordinary command's to refuse).
std::optional<int> runTorchLessonIfOne(const std::vector<std::string> &args);

// After the timeout: where each rank of a real run stood, from the progress its ranks wrote to
// `folder` (rank-R.progress), in the simulator's words: "rank 2 never called allreduce(layer 0)."
// then every rank's last call. The `ranks` ranks of this node from `firstRank` on.
std::string realTimeoutDiagnosis(const std::string &folder, int firstRank, int ranks);

// The folder holding the rankstep_real package: RANKSTEP_REAL_DIR, else the installed
// share/rankstep/python beside bin/, else the source tree's core/real.
std::string realPackageDir();

} // namespace rankstep::cli
