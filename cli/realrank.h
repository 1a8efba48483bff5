// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// `rankstep-runner __real-rank ARGS...`: one rank of `rankstep-cli real`, started by it, never by a
// learner. Starts CPython (PYTHONPATH holds rankstep_real), imports PyTorch and joins the other
// ranks (rankstep_real.rank.prepare), then locks itself down as the runner does (cli/sandbox.h)
// except that it may use sockets (its collectives; on one machine the network it sees is the
// run's own loopback), and only then runs the learner's code (rankstep_real.rank.run). `--out DIR`
// among ARGS is the one folder it may write; the learner's file is read from there (a copy the
// launcher made). `--memory-limit MB` caps its memory and files (cli/realprocess.h).
// With `--check-module MODULE --from RANKS` it is the check after the ranks (rankstep_real.verify
// or rankstep_real.torchjudge): the same sandbox without the network, reading RANKS and writing
// DIR; what the ranks left is never read by an unsandboxed process.
int realRankMain(const std::vector<std::string> &args);

} // namespace rankstep::cli
