// SPDX-License-Identifier: MIT
#include "runcommand.h"

#include "figureexport.h"
#include "runreport.h"
#include "runsupport.h"
#include "supervisor.h"

#include "core/io/costfile.h"
#include "core/terminaltext.h"

#include <iostream>
#include <optional>
#include <sstream>

namespace rankstep::cli {

int runCommand(const std::vector<std::string> &rest)
{
    std::vector<std::string> valued = {"function", "ranks", "layers", "batches"};
    valued.insert(valued.end(), kRunOptions.begin(), kRunOptions.end());
    const Arguments args(rest, valued, kRunFlags);
    if (args.positional().size() != 1)
        throw UsageError{"run takes exactly one FILE"};
    const std::string file = args.positional().front();
    refuseOutputsOverInputs(args, {file});
    const RunResult result = runOne(args, runRequest(args, file));
    if (!result.trace)
        return result.exitCode;
    const core::Trace &trace = *result.trace;
    writeTraceFiles(args, trace, file, result.function, result.encoded);
    writeFigureFiles(args, trace, {result.function + " (" + file + ")", std::nullopt});
    if (!args.has("no-report")) {
        printRun(trace);
        if (!trace.error)
            std::cout << (trace.check.passed
                              ? "Correct!"
                              : "Not correct yet:\n" + core::terminalText(trace.check.message))
                      << "\n";
    }
    return exitCodeFor(trace);
}

namespace {

// An option of the help, its text wrapped at 96 columns under itself.
std::string optionHelp(const std::string &option, const std::string &text)
{
    constexpr std::size_t kIndent = 23, kWidth = 96;
    std::string help = "  " + option + std::string(kIndent - 2 - option.size(), ' ');
    std::size_t column = kIndent;
    std::istringstream words(text);
    bool first = true;
    for (std::string word; words >> word; first = false) {
        if (!first && column + 1 + word.size() > kWidth) {
            help += "\n" + std::string(kIndent, ' ');
            column = kIndent;
        } else if (!first) {
            help += ' ';
            ++column;
        }
        help += word;
        column += word.size();
    }
    return help + "\n";
}

// --cost names the presets built in (resources/costs): a new preset is a new file there.
std::string costOption()
{
    std::string presets;
    for (const std::string &name : io::costPresetNames())
        if (name != "notebook")
            presets += name + ", ";
    return optionHelp("--cost PRESET|FILE",
                      "the cost model: notebook (the default), " + presets +
                          "or a rankstep-cost JSON file (docs/cost-models.md); a real-scale one "
                          "prints seconds and GB, and a lesson run under it is checked but not "
                          "graded");
}

} // namespace

std::string helpText()
{
    // "  or: " before each further form, as help2man reads a usage (the man page's SYNOPSIS).
    return R"(Usage: rankstep-cli run FILE [options]
  or:  rankstep-cli lesson NAME [FILE | --solution | --starter] [options]
  or:  rankstep-cli lessons [--lessons DIR]
  or:  rankstep-cli grade PATH... [--json | --csv] [--roster] [--timeout S] [--jobs N]
  or:  rankstep-cli explain FILE [run options] [--at TIME|peak] [--target-memory B] [--json]
  or:  rankstep-cli compare A B [--json]
  or:  rankstep-cli real FILE --function F [--ranks R --layers L --batches B] [real options]
  or:  rankstep-cli sweep FILE [--ranks LIST --layers LIST --batches LIST] [sweep options]
  or:  rankstep-cli export FILE --function F [--ranks R --layers L --batches B] --torch OUT.py

Runs a puzzle function from FILE on every simulated rank and prints the figures the way the
puzzle notebook does:
  Timesteps: 16.5
  Maximum Memory: 2621440 at GPU: 0 time: 8
followed by the end time and the check ("Correct!" or what is wrong).

`lesson` runs FILE (or the lesson's reference solution or starter) with the lesson's ranks,
layers and batches, compares the figures with the lesson's targets and says whether FILE solves
it. NAME is the lesson's name as `lessons` lists it (ddp, fsdp, gpipe, ...).

The code runs in a sandbox: in a temporary folder of its own (never the folder of FILE), where
alone it may write files; it may not read the user's other files, start programs, use the
network or reach other processes, and every process of the run ends with it. Only the run's own
report decides the exit code and the files written.

`grade` finds the puzzle functions in each learner file (.py or .ipynb; a folder PATH is
searched for them) and runs each against the lesson of the same name, every run in its own
process stopped after --timeout seconds (default 30), --jobs N at a time (default: every core):
a table of file, lesson, result, time and memory against the targets, and the error; --json and
--csv print the same as data. --roster prints one row per learner (the folder below PATH a file
sits in, or the file's name) and one column per lesson: solved, not solved with the kind of
mistake, or missing; then the common mistakes, counted by learner. It exits 0 once everything is
graded, solved or not. Ctrl+C (SIGINT or SIGTERM) stops it at once: the runs under way are ended.

`explain` runs FILE as `run` does and says why the run behaves as it does: what fills the peak
memory (by kind and object, with the line that stored each), each rank's busy, idle and
communication time, the chain of operations that sets the end time, and every wait with the
operations that ended it. --at TIME adds every rank's memory at that time; --target-memory B
says what holds the peak above B. `compare` reads two trace files (--json or --trace-out of a
run) and says how their settings, end times and peaks differ, and why. docs/explain.md describes
both, and their JSON.

`real` runs FILE for real: first simulated (a program the simulator refuses is not run), then one
process per rank trains real tensors through PyTorch's torch.distributed (python3-torch), and the
ranks' final weights, put together, are compared with one process trained on every batch: the
largest difference per layer, and the first layer that differs (and, across nodes, whose ranks
hold values that differ). Each rank runs in the runner's sandbox, the check in one of its own
(docs/command-line.md, "Running it for real"). Its options:
  --hidden H --length N   the model's sizes (default the notebook's 512 and 256)
  --seed S                the seed of the data set and of the first weights (default 0)
  --tensor T --context C --pipeline P --expert E
                          the layout, as run's; a tensor-parallel slice's layer is two blocks
                          of two matrices each for real, an expert layer one matrix per expert
  --backend gloo|nccl     torch.distributed's backend (default gloo); nccl needs PyTorch with
                          CUDA and NCCL and a GPU per rank, said before any rank starts
  --json OUT              the real run as JSON: events in seconds, memory in bytes, and "result"
  --profile OUT           torch.profiler's trace of every rank in one file (Perfetto opens it)
  --timeout S             end every rank process after S seconds (default 120)
  --nnodes N --node-rank K --master-addr A --master-port P
                          torchrun's conventions across machines: run the same command on each;
                          every node checks every rank's weights (the ranks exchange them)
  It exits 0 when the weights match, 1 when they differ, 2 when a rank raised (on any node), 4 at
  the timeout, 64 for a usage error, 69 when PyTorch is not installed, and as `run` when the
  simulation stops.

`export` runs FILE as `run` does and writes its schedule as a plain PyTorch program, OUT.py, for
torchrun (no Rankstep import): `torchrun --standalone --nproc_per_node R OUT.py --check` trains it
and compares it with one process; --hidden, --length and --seed are real's, and --context C splits
each sequence across context groups of C ranks, as run's does (docs/export.md).

`sweep` runs FILE at every setting of a grid, each run in a child process of its own and as many
at a time as there are cores, and prints a row per setting: result, Timesteps, end time, peak
memory and where, idle share (`rankstep-cli sweep --help`, docs/sweeps.md).

Options of run, lesson and explain (`lesson`, `lessons` and `grade` also take --lessons DIR:
read the lessons from DIR instead of the built-in ones, for lesson authors):
  --function NAME      the function to run (default: the file's only function)
  --ranks R            number of ranks (GPUs), default 1
  --layers L           number of layers, default 2
  --batches B          number of batches, default 4
  --tensor T --context C --pipeline P --expert E
                       the ranks' layout (docs/simulation.md, "Layouts"): each degree 1
                       unless given; the data-parallel degree is R / (T x C x P)
  --json OUT           write the whole trace as JSON (docs/trace-format.md); --trace-json OUT
                       is the same (grade: --json alone prints the results as JSON)
  --chrome-trace OUT   write a trace that Perfetto and chrome://tracing open: a track per
                       rank, arrows from each pass_to to its receive, memory per rank
  --trace-out OUT      write the whole trace in Rankstep's compact binary form, which
                       loads fast (docs/trace-format.md)
  --svg OUT            draw the timeline above the memory chart as a 1920x1080 SVG for slides
  --png OUT            the same figure as a 1920x1080 PNG
  --state-png OUT      draw every rank's state (the app's state view) as a 1920x1080 PNG
  --at EVENT|end       where --state-png (and the cursor line of --svg and --png) stands: after
                       the EVENT-th event, counted from 1 (0: before the first); default end.
                       The figures need no display: they are drawn offscreen.
)" + costOption() +
           R"(  --bandwidth GBPS     with a real-scale --cost: every link, inside and between nodes, at GBPS
                       gigabytes a second each way
  --max-ops N          stop after N model calls and storage changes (default 5000000, or 4000
                       a rank beyond 1250 ranks; 0 = no limit but the trace's: 2147483647)
  --timeout S          stop after S seconds of wall-clock time (default 30, 0 = no limit)
  --memory-limit MB    the memory a run may use, in MiB (default 2048, or 1 MiB for every 4
                       ranks beyond 8192 ranks; 0 = no limit);
                       code that asks for more gets "ran out of memory"
  --quiet              do not echo what the code prints
  --no-report          print only what the code prints, no figures or errors (for programs
                       that read the trace file, such as the app)
  --help               this text

Exit codes:
  0   the run finished and the check passed (for `lesson`: the lesson is solved)
  1   the run finished but the check failed (for `lesson`: or a target was missed)
  2   the code raised an exception, did not parse, or broke a puzzle rule
  3   the ranks hung: a deadlock or a collective mismatch (each rank's wait is printed)
  4   the run was stopped: time limit, operation budget, or a stop request
  64  bad usage: unknown option, unreadable file, no such function
  70  an internal error of Rankstep
  73  an output file (--json, --trace-out, --png, ...) could not be written: the message names
      it and the reason (a full disk, no permission); no part of it is left behind
`grade` exits 0 once everything is graded (whatever the results), 4 when it was stopped, 64 for
bad usage or a PATH that cannot be read.
)";
}

int reportingErrors(const std::function<int()> &command)
{
    try {
        return command();
    } catch (const UsageError &e) {
        // A message may name a file or folder a learner named (grade class/*): text only.
        std::cerr << "rankstep-cli: " << core::terminalText(e.message)
                  << "\nTry 'rankstep-cli --help'.\n";
        return kUsage;
    } catch (const OutputError &e) {
        std::cerr << "rankstep-cli: " << e.message << "\n";
        return kCannotWrite;
    } catch (const std::exception &e) {
        std::cerr << "rankstep-cli: internal error: " << core::terminalText(e.what()) << "\n";
        return kInternal;
    }
}

} // namespace rankstep::cli
