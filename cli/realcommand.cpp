// SPDX-License-Identifier: MIT
// `rankstep-cli real`: the learner's program on real processes (docs/command-line.md,
// "Running it for real"), to check that a simulated program trains as it says. Three steps, each a
// child process: the simulation (the same rules and messages as every run, and the groups the
// program uses), one Python process per rank (rankstep_real.rank, joined by torch.distributed), and
// the check against one process (rankstep_real.verify).
#include "realcommand.h"

#include "arguments.h"
#include "childprocess.h"
#include "core/io/jsonparser.h"
#include "core/io/tracebinary.h"
#include "realprocess.h"
#include "realrun.h"
#include "runcommand.h"
#include "runreport.h"
#include "runsupport.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;

RealOptions parse(const std::vector<std::string> &args)
{
    const Arguments a(args, {"function",     "ranks",  "layers",    "batches",     "hidden",
                             "length",       "seed",   "backend",   "json",        "profile",
                             "timeout",      "nnodes", "node-rank", "master-addr", "master-port",
                             "memory-limit", "tensor", "context",   "pipeline",    "expert"},
                      {});
    if (a.positional().size() != 1)
        throw UsageError{"real: give exactly one FILE"};
    RealOptions o;
    o.file = a.positional()[0];
    o.function = a.text("function");
    if (o.function.empty())
        throw UsageError{"real: --function NAME is needed (the rank function to run)"};
    o.ranks = int(a.integer("ranks", 1, 1, 64));
    o.layers = int(a.integer("layers", 2, 1, 256));
    o.batches = int(a.integer("batches", 4, 1, 1024));
    o.hidden = int(a.integer("hidden", 512, 1, 4096));
    o.length = int(a.integer("length", 256, 1, 4096));
    o.seed = int(a.integer("seed", 0, 0, 1'000'000'000));
    o.backend = a.text("backend", "gloo");
    if (o.backend != "gloo" && o.backend != "nccl")
        throw UsageError{"real: --backend is gloo or nccl, not '" + o.backend + "'"};
    o.json = a.text("json");
    o.profile = a.text("profile");
    o.timeout = a.seconds("timeout", 120);
    o.memory = realMemoryLimit(a.integer("memory-limit", kRealMemoryMiB, 0, 1LL << 30));
    o.nnodes = int(a.integer("nnodes", 1, 1, 64));
    o.nodeRank = int(a.integer("node-rank", 0, 0, 63));
    o.masterAddr = a.text("master-addr", "127.0.0.1");
    o.masterPort = int(a.integer("master-port", 0, 0, 65535));
    if (o.nodeRank >= o.nnodes)
        throw UsageError{"real: --node-rank must be below --nnodes"};
    if (o.ranks % o.nnodes != 0)
        throw UsageError{"real: --ranks must be a multiple of --nnodes (the same ranks per node)"};
    if (o.nnodes > 1 && o.masterPort == 0)
        throw UsageError{"real: across nodes every node needs the same --master-port"};
    // The layout (core/layout.h), as `run` takes it: the simulation and every rank use it.
    o.layout.tensor = int(a.integer("tensor", 1, 1, 64));
    o.layout.context = int(a.integer("context", 1, 1, 64));
    o.layout.pipeline = int(a.integer("pipeline", 1, 1, 64));
    o.layout.expert = int(a.integer("expert", 1, 1, 64));
    if (const std::string problem = core::layoutProblem(o.ranks, o.layout); !problem.empty())
        throw UsageError{"real: " + problem};
    const char *python = std::getenv("RANKSTEP_PYTHON");
    o.python = python && *python ? python : "/usr/bin/python3";
    return o;
}

// The model both the ranks and the check against one process build, as their arguments.
std::vector<std::string> modelArguments(const RealOptions &o)
{
    return {"--layers", std::to_string(o.layers), "--batches", std::to_string(o.batches),
            "--hidden", std::to_string(o.hidden), "--length",  std::to_string(o.length),
            "--seed",   std::to_string(o.seed)};
}

std::string slurp(const fs::path &path)
{
    try {
        return readFile(path.string(), std::size_t(256) << 20);
    } catch (const UsageError &) {
        return {};
    }
}

// The groups the simulated run's collectives used, other than every rank, in the order they
// first appear: "0,1;2,3". Each rank process makes them all, in this order, before the learner's
// code runs (torch.distributed.new_group is called by every process alike).
std::string groupsOf(const core::Trace &trace)
{
    std::map<std::int64_t, std::set<int>> byCollective;
    std::vector<std::int64_t> order;
    for (const core::Event &event : trace.events) {
        if (!core::isCollective(event.op))
            continue;
        auto [it, fresh] = byCollective.try_emplace(event.link);
        if (fresh)
            order.push_back(event.link);
        it->second.insert(event.rank);
    }
    std::set<std::set<int>> seen;
    std::string text;
    for (std::int64_t link : order) {
        const std::set<int> &members = byCollective[link];
        if (int(members.size()) == trace.config.ranks || !seen.insert(members).second)
            continue;
        if (!text.empty())
            text += ';';
        bool first = true;
        for (int rank : members) {
            if (!first)
                text += ',';
            text += std::to_string(rank);
            first = false;
        }
    }
    return text;
}

// The layout's options, for `run` and for every rank: only the degrees that are not 1.
std::vector<std::string> layoutArguments(const core::Layout &layout)
{
    std::vector<std::string> words;
    for (const auto &[name, degree] : {std::pair{"--tensor", layout.tensor},
                                       {"--context", layout.context},
                                       {"--pipeline", layout.pipeline},
                                       {"--expert", layout.expert}})
        if (degree != 1)
            words.insert(words.end(), {name, std::to_string(degree)});
    return words;
}

// Each layer as the simulated run trained it ("dense,tensor"): a tensor-parallel slice's layer is
// the real model's two-block layer, an expert's a layer of experts, and in a run whose context
// group splits the sequence every other layer is an attention layer (rankstep_real/blocks.py).
// Taken from the simulation, never from what a rank wrote: the check against one process builds
// its model from it (rankstep_real.verify --kinds).
std::string layerKinds(const core::Trace &trace)
{
    std::vector<std::string> kinds(std::size_t(trace.config.layers),
                                   trace.config.layout.context > 1 ? "attention" : "dense");
    for (const core::WeightsByLayer &weights : trace.finalWeights)
        for (const auto &[layer, weight] : weights)
            if (layer >= 0 && layer < trace.config.layers)
                if (weight.slice || weight.expert >= 0)
                    kinds[std::size_t(layer)] = weight.slice ? "tensor" : "expert";
    std::string text;
    for (const std::string &kind : kinds)
        text += (text.empty() ? "" : ",") + kind;
    return text;
}

// The words after `__real-rank` of a puzzle's rank (rankstep_real.rank).
std::vector<std::string> puzzleRankWords(const RealOptions &o, const std::string &groups,
                                         const fs::path &out)
{
    std::vector<std::string> words{"--file",         (out / "learner.py").string(),
                                   "--source-name",  fs::absolute(o.file).string(),
                                   "--function",     o.function,
                                   "--backend",      o.backend,
                                   "--groups",       groups,
                                   "--timeout",      std::to_string(int(o.timeout) + 5),
                                   "--memory-limit", std::to_string(o.memory),
                                   "--out",          out.string()};
    const std::vector<std::string> model = modelArguments(o);
    words.insert(words.end(), model.begin(), model.end());
    const std::vector<std::string> layout = layoutArguments(o.layout);
    words.insert(words.end(), layout.begin(), layout.end());
    if (!o.profile.empty())
        words.emplace_back("--profile");
    if (o.nnodes > 1) // every node's check needs every rank's files (rankstep_real.exchange)
        words.insert(words.end(), {"--node-ranks", std::to_string(o.ranks / o.nnodes)});
    if (o.backend == "nccl")
        words.insert(words.end(), {"--device", "cuda"});
    return words;
}

} // namespace

namespace {

// The last line of a rank's progress file (rankstep_real.lib Recorder): where it stood.
struct RankProgress {
    bool any = false;     // it made a call at all
    bool waiting = false; // inside a communication call
    std::string call;     // "allreduce(layer 0)", "receive from rank 2"
    std::string line;
};

RankProgress progressOf(const fs::path &file)
{
    RankProgress progress;
    std::istringstream lines(readRankFile(file));
    std::string text, last;
    while (std::getline(lines, text))
        if (!text.empty())
            last = text; // a line cut by the kill has no newline and does not parse: skipped
    const auto parsed = io::parseJson(last);
    if (!parsed || !parsed->isObject())
        return progress;
    const io::JsonValue *at = parsed->find("at");
    const io::JsonValue *op = parsed->find("op");
    const io::JsonValue *layer = parsed->find("layer");
    const io::JsonValue *peer = parsed->find("peer");
    const io::JsonValue *line = parsed->find("line");
    if (!at || !op)
        return progress;
    progress.any = true;
    progress.waiting = at->text == "in";
    progress.call = op->text;
    if (op->text == "receive")
        progress.call += peer && !peer->isNull() ? " from rank " + peer->text : " from any rank";
    else if (op->text == "pass_to" && peer && !peer->isNull())
        progress.call += " to rank " + peer->text;
    else if (layer && layer->text != "-1")
        progress.call += "(layer " + layer->text + ")";
    progress.line = line ? line->text : "0";
    return progress;
}

} // namespace

std::string realTimeoutDiagnosis(const std::string &folder, int firstRank, int ranks)
{
    std::vector<RankProgress> progress;
    std::map<std::string, int> waitingIn;
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        progress.push_back(
            progressOf(fs::path(folder) / ("rank-" + std::to_string(rank) + ".progress")));
        if (progress.back().waiting)
            ++waitingIn[progress.back().call];
    }
    // The collective most ranks wait in, and who never called it: the simulator's words.
    std::string collective;
    int most = 0;
    for (const auto &[call, count] : waitingIn)
        if (count > most && call.find(" rank") == std::string::npos) {
            collective = call;
            most = count;
        }
    std::string text;
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        const RankProgress &p = progress[std::size_t(rank - firstRank)];
        if (!collective.empty() && !(p.waiting && p.call == collective))
            text += "rank " + std::to_string(rank) + " never called " + collective + ".\n";
    }
    text += "Where each rank stood:\n";
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        const RankProgress &p = progress[std::size_t(rank - firstRank)];
        text += "  rank " + std::to_string(rank) + ": ";
        if (!p.any)
            text += "made no call of the puzzle\n";
        else if (p.waiting)
            text += "waits in " + p.call + " (line " + p.line + ")\n";
        else
            text += "finished " + p.call + " (line " + p.line + ") and ran on in its own code\n";
    }
    return text;
}

std::string realPackageDir()
{
    if (const char *dir = std::getenv("RANKSTEP_REAL_DIR"); dir && *dir)
        return dir;
    const fs::path installed =
        fs::path(currentExecutable()).parent_path().parent_path() / "share/rankstep/python";
    if (fs::exists(installed / "rankstep_real"))
        return installed.string();
    return RANKSTEP_REAL_SOURCE_DIR;
}

int realCommand(const std::vector<std::string> &args)
{
    const RealOptions o = parse(args);
    catchStopSignals();
    readFile(o.file); // a missing or unreadable file is a usage error before anything starts
    const RunFolder folder;
    const fs::path &out = folder.ranks;
    if (!torchAvailable("real", o.python, folder.dir))
        return kUnavailable;
    if (o.backend == "nccl") // before any rank starts, not a traceback from each of them
        if (const std::string problem = ncclProblem(o.python, o.ranks / o.nnodes, folder.dir);
            !problem.empty())
            throw UsageError{"real: " + problem};

    // 1. The simulation: the same checks and messages as `run`, before any real process starts.
    const fs::path simulated = folder.dir / "simulated.rstb";
    std::vector<std::string> simulate{"run",         o.file,
                                      "--function",  o.function,
                                      "--ranks",     std::to_string(o.ranks),
                                      "--layers",    std::to_string(o.layers),
                                      "--batches",   std::to_string(o.batches),
                                      "--trace-out", simulated.string()};
    const std::vector<std::string> layout = layoutArguments(o.layout);
    simulate.insert(simulate.end(), layout.begin(), layout.end());
    const ChildOutcome simulation =
        runChild(currentExecutable(), simulate, o.timeout, (folder.dir / "simulated.err").string());
    auto trace = io::traceFromBinary(slurp(simulated));
    if (!trace) {
        std::cerr << "rankstep-cli real: the simulation did not finish"
                  << (simulation.stderrText.empty() ? "\n" : ":\n" + simulation.stderrText);
        return simulation.end == ChildOutcome::End::Exited ? simulation.code : kInternal;
    }
    if (!trace->correct()) {
        std::cout << "The simulation of this program does not solve the puzzle, so it was not "
                     "run for real:\n";
        std::cout << (trace->error ? formatError(*trace->error) : trace->check.message + "\n");
        return exitCodeFor(*trace);
    }
    const int perNode = o.ranks / o.nnodes;
    const int firstRank = o.nodeRank * perNode;
    std::cout << "Simulated: correct. Running ";
    if (o.nnodes > 1)
        std::cout << "ranks " << firstRank << " to " << firstRank + perNode - 1 << " of " << o.ranks
                  << " for real on node " << o.nodeRank << " of " << o.nnodes;
    else
        std::cout << o.ranks << " ranks for real";
    std::cout << " (" << o.backend << ", HIDDEN " << o.hidden << ", LENGTH " << o.length << ")...\n"
              << std::flush;

    // 2. One process per rank of this node, on a loopback of their own when on one machine. Each
    // reads the learner's file from the run's folder, the one folder its sandbox shows it.
    fs::copy_file(o.file, out / "learner.py");
    if (o.nnodes == 1) {
        if (const std::string refused = privateLoopback(); !refused.empty())
            std::cerr << "rankstep-cli real: this system refused a network of the ranks' own ("
                      << refused << "): they run on the machine's network.\n";
    }
    const int port = o.masterPort > 0 ? o.masterPort : freePort();
    const Launched launched = launchRanks(o, puzzleRankWords(o, groupsOf(*trace), out), out, port);
    // A rank has joined the group once its progress file exists: it makes it after joining,
    // before any of the learner's code runs (rankstep_real.rank.run). Only the time is taken
    // from it; a learner's code that made another rank's file early would only shorten its own
    // run's time.
    const auto everyRankJoined = [&] {
        for (int rank = firstRank; rank < firstRank + o.ranks / o.nnodes; ++rank)
            if (!fs::exists(out / ("rank-" + std::to_string(rank) + ".progress")))
                return false;
        return true;
    };
    const Ended ended = waitForRanks(launched, o.timeout, everyRankJoined);
    std::ostringstream timedOut; // with where each rank stood, from what they wrote as they went
    timedOut << "Stopped after " << o.timeout
             << " s (--timeout, counted once every rank had joined): every rank process was "
                "ended. The simulation finished, so "
                "a rank was slower than the time allowed, ran on where the simulation did "
                "not, or another node never joined.\n"
             << printable(realTimeoutDiagnosis(out.string(), firstRank, o.ranks / o.nnodes));
    if (const auto code = endOfRanks(ended, out, o.ranks, o.nnodes, timedOut.str()))
        return *code;

    // 3. The check against one process, and the report, in a sandbox of its own.
    std::vector<std::string> verify{
        "--ranks",        std::to_string(o.ranks),        "--nnodes", std::to_string(o.nnodes),
        "--wall-seconds", std::to_string(ended.seconds),  "--kinds",  layerKinds(*trace),
        "--experts",      std::to_string(o.layout.expert)};
    const std::vector<std::string> model = modelArguments(o);
    verify.insert(verify.end(), model.begin(), model.end());
    for (const auto &[name, degree] : {std::pair{"--tensor", o.layout.tensor},
                                       {"--context", o.layout.context},
                                       {"--pipeline", o.layout.pipeline}})
        if (degree != 1) // the report's config says the layout, as a simulated trace does
            verify.insert(verify.end(), {name, std::to_string(degree)});
    if (!o.profile.empty())
        verify.insert(verify.end(), {"--profile", "yes"});
    const CheckOutcome verdict = runCheck(o, folder, "rankstep_real.verify", verify);
    if (!verdict.code) {
        std::cerr << "rankstep-cli real: the check against one process failed:\n"
                  << verdict.failure;
        return kInternal;
    }
    std::cout << verdict.verdict;
    if (*verdict.code == kCheckRefused)
        return kLearnerError;
    if (!o.json.empty())
        writeFile(o.json, readRankFile((folder.check / "report.json").string()));
    if (!o.profile.empty()) {
        const fs::path merged = folder.check / "profile.json";
        if (fs::is_regular_file(merged)) // the verdict above said why when it is not
            writeFile(o.profile, readRankFile(merged.string()));
    }
    return *verdict.code == 0 ? kSolved : kNotSolved;
}

int runReal(const std::vector<std::string> &args)
{
    if (std::find(args.begin(), args.end(), "--help") != args.end() ||
        std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << helpText();
        return kSolved;
    }
    return reportingErrors([&args] { return realCommand(args); });
}

} // namespace rankstep::cli
