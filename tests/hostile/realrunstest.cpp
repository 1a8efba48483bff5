// SPDX-License-Identifier: MIT
// `rankstep-cli real`: the reference solutions train on real processes through
// torch.distributed exactly what one process trains; a program the simulator passes but that
// trains another model is caught; a rank that fails stops every rank; across two node groups on
// the loopback address the same command works. Small sizes (HIDDEN 16, LENGTH 4) keep each run to
// a few seconds. Without PyTorch (not installed here) the tests are skipped, except in CI, which
// installs it (scripts/setup-deps.sh).
#include "clilaunch.h"
#include "torchsupport.h"

#include "core/io/chrometracereader.h"
#include "core/io/jsonparser.h"
#include "core/io/realtrace.h"
#include "core/replay/state.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace rankstep::hostile {
namespace {

using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

std::vector<std::string> realArgs(const std::string &file, const std::string &function, int ranks,
                                  int layers, int batches)
{
    return {"real",       file,
            "--function", function,
            "--ranks",    std::to_string(ranks),
            "--layers",   std::to_string(layers),
            "--batches",  std::to_string(batches),
            "--hidden",   "16",
            "--length",   "4",
            "--timeout",  "120"};
}

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kFirstLoop = "    for layer in range(model.LAYERS):\n";
const std::string kAllreduce =
    "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";

// The DDP lesson's solution with `lines` put before the first `anchor`; empty when the solution no
// longer has the anchor.
std::string ddpWith(const std::string &lines, const std::string &anchor = kFirstLoop)
{
    std::string code = readText(kSource + "/lessons/30-ddp/solution.py");
    const std::size_t at = code.find(anchor);
    return at == std::string::npos ? std::string() : code.insert(at, lines);
}

TEST(RealRuns, DdpTrainsWhatOneProcessTrainsAndWritesTheReport)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::vector<std::string> args =
        realArgs(kSource + "/lessons/30-ddp/solution.py", "ddp", 4, 2, 4);
    args.insert(args.end(), {"--json", (dir.path() / "real.json").string()});
    const ProcessResult run = runCli({args, "", {}}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("match one process trained on every batch"), std::string::npos)
        << run.out;

    const auto report = io::parseJson(readText((dir.path() / "real.json").string()));
    ASSERT_TRUE(report) << report.error().message;
    const io::JsonValue *result = report->find("result");
    ASSERT_NE(result, nullptr);
    EXPECT_TRUE(result->find("weights_match")->boolean);
    EXPECT_TRUE(result->find("correct")->boolean);
    EXPECT_LT(std::stod(result->find("max_abs_diff")->text), 1e-9);
    EXPECT_GT(std::stod(result->find("wall_seconds")->text), 0.0);
    const io::JsonValue *ranks = report->find("ranks");
    ASSERT_NE(ranks, nullptr);
    ASSERT_EQ(ranks->items.size(), 4U);
    // Each rank: two forwards, a loss, two backwards, two allreduces, two updates, in seconds.
    const io::JsonValue &events = *ranks->items[2].find("events");
    ASSERT_EQ(events.items.size(), 9U);
    int allreduces = 0;
    for (const io::JsonValue &event : events.items) {
        allreduces += event.find("op")->text == "allreduce";
        EXPECT_GE(std::stod(event.find("start")->text), 0.0);
        EXPECT_GT(std::stoll(event.find("memory")->text), 0);
    }
    EXPECT_EQ(allreduces, 2);

    // The same run as the app's views show it (core/io/realtrace.h): replayed to the end, every
    // rank holds both layers' weights and optimizer states after one update, and its memory is
    // what the rank measured of its real tensors when it finished (at least the float64 weights
    // and Adam moments: HIDDEN 16, 2048 bytes a weight, twice that its moments).
    const auto trace = io::realTraceFromJson(readText((dir.path() / "real.json").string()));
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(trace->events.size(), 36U);
    EXPECT_FALSE(trace->changes.empty());
    const replay::StopPoints stops(*trace);
    const replay::RunState end = replay::stateAt(*trace, replay::Cursor(stops, stops.last()));
    for (const replay::RankState &rank : end.ranks) {
        const auto &weights = rank.map(core::MapKind::Weights);
        ASSERT_EQ(weights.size(), 2U);
        for (const replay::MapEntry &entry : weights)
            EXPECT_EQ(entry.object().step, 1);
        EXPECT_EQ(rank.map(core::MapKind::OptStates).size(), 2U);
        const auto measured = std::stoll(
            ranks->items[std::size_t(&rank - end.ranks.data())].find("memory_end")->text);
        EXPECT_EQ(rank.memory, measured);
        EXPECT_GE(rank.memory, 2 * (16 * 16 * 8) * 3);
    }
}

TEST(RealRuns, FsdpShardsTrainWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run =
        runCli({realArgs(kSource + "/lessons/50-fsdp/solution.py", "fsdp", 4, 6, 4), "", {}}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_TRUE(std::regex_search(run.out, std::regex("\\n +5  [0-9.e-]+\\n"))) << run.out;
}

// The zero-bubble schedule splits every backward into its input and weight gradients; for real
// the two halves train what one process trains, on every layer.
TEST(RealRuns, ZeroBubbleHalvesOfTheBackwardTrainWhatOneProcessTrains)
{
    REQUIRE_TORCH();
    TempDir dir;
    const ProcessResult run = runCli(
        {realArgs(kSource + "/lessons/96-zero_bubble/solution.py", "zero_bubble", 4, 8, 4), "", {}},
        dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_TRUE(std::regex_search(run.out, std::regex("\\n +7  [0-9.e-]+\\n"))) << run.out;
}

// Summing the gradients twice counts every batch twice: the simulator warns and its check passes
// (the final weights have the right shape and step), but the trained values are not one
// process's. Only the real run can tell.
TEST(RealRuns, AProgramTheSimulatorPassesButThatTrainsAnotherModelIsNamedByItsFirstLayer)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = ddpWith(kAllreduce, kAllreduce);
    ASSERT_FALSE(code.empty());
    const std::string file = dir.write("twice.py", code);

    const ProcessResult simulated = runCli(
        {{"run", file, "--function", "ddp", "--ranks", "4", "--layers", "2", "--batches", "4"},
         "",
         {}},
        dir);
    EXPECT_EQ(simulated.exitCode, 0) << simulated.out;
    const ProcessResult run = runCli({realArgs(file, "ddp", 4, 2, 4), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("Layer 0 is the first that differs"), std::string::npos) << run.out;
}

TEST(RealRuns, AProgramTheSimulatorRefusesIsNotRunForReal)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kSource + "/lessons/30-ddp/solution.py");
    const std::size_t at = code.find(kAllreduce);
    ASSERT_NE(at, std::string::npos);
    code.erase(at, kAllreduce.size()); // the update before any allreduce
    const ProcessResult run =
        runCli({realArgs(dir.write("early.py", code), "ddp", 4, 2, 4), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("not run for real"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("update"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("Running 4 ranks"), std::string::npos) << run.out;
}

// Only in a real run: the rank raises, the others wait in the allreduce it never joins. Its
// message carries terminal controls (erase the line, return, set the clipboard through OSC 52):
// they are printed written out, never sent to the terminal.
TEST(RealRuns, ARankThatRaisesStopsEveryRankAndIsNamedWithItsLine)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = ddpWith(
        "    if model.rank == 2 and hasattr(model, 'recorder'):  # only the real lib has it\n"
        "        raise ValueError('rank two gives up\\x1b[2K\\r\\x1b]52;c;aGk=\\x07')\n");
    ASSERT_FALSE(code.empty());
    const std::size_t raise = code.find("raise ValueError");
    const int line = int(std::count(code.begin(), code.begin() + std::ptrdiff_t(raise), '\n')) + 1;
    const ProcessResult run =
        runCli({realArgs(dir.write("raises.py", code), "ddp", 4, 2, 4), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("Error (rank 2, line " + std::to_string(line) +
                           "): ValueError: rank two gives up\\x1b[2K\\x0d\\x1b]52;c;aGk=\\x07"),
              std::string::npos)
        << run.out;
    EXPECT_EQ(run.out.find_first_of("\x1b\r\x07"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Every rank process was stopped"), std::string::npos) << run.out;
    EXPECT_NE(std::system(
                  ("pgrep -f '[r]ankstep_real.rank --file " + dir.path().string() + "' >/dev/null")
                      .c_str()),
              0)
        << "a rank process outlived the run";
}

// On one machine the ranks have a loopback of their own: a service of the machine (here, one this
// test listens on) is out of their reach, while they still reach each other.
TEST(RealRuns, RanksReachEachOtherButNotTheMachinesServices)
{
    REQUIRE_TORCH();
    TempDir dir;
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    ASSERT_EQ(listen(listener, 4), 0);
    ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length), 0);
    const int port = ntohs(address.sin_port);

    const std::string code = ddpWith(
        "    if hasattr(model, 'recorder'):  # only in the real run\n"
        "        import socket\n"
        "        try:\n"
        "            socket.create_connection(('127.0.0.1', " +
        std::to_string(port) +
        "), timeout=2)\n"
        "        except OSError:\n"
        "            pass\n"
        "        else:\n"
        "            raise ValueError('reached the machine')\n");
    ASSERT_FALSE(code.empty());
    const ProcessResult run =
        runCli({realArgs(dir.write("reach.py", code), "ddp", 2, 2, 2), "", {}}, dir);
    close(listener);
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_EQ(run.out.find("reached the machine"), std::string::npos) << run.out;
    EXPECT_EQ(run.err.find("refused a network"), std::string::npos) << run.err;
}

// A rank runs the learner's code in the runner's sandbox: no file written outside the run's
// folder, no file of the user read, no program started.
TEST(RealRuns, ARanksCodeCannotWriteOrReadTheUsersFilesOrStartPrograms)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string secret = dir.write("secret.txt", "the teacher's answers");
    const std::string escaped = (dir.path() / "escaped.txt").string();
    const std::string code = ddpWith(
        "    if hasattr(model, 'recorder'):  # only in the real run\n"
        "        import subprocess\n"
        "        for attempt in (lambda: open('" +
        escaped +
        "', 'w').write('x'),\n"
        "                        lambda: open('" +
        secret +
        "').read(),\n"
        "                        lambda: subprocess.run(['true'])):\n"
        "            try:\n"
        "                attempt()\n"
        "            except OSError:\n"
        "                continue\n"
        "            raise ValueError('escaped the sandbox')\n");
    ASSERT_FALSE(code.empty());
    const ProcessResult run =
        runCli({realArgs(dir.write("escape.py", code), "ddp", 2, 2, 2), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_EQ(run.out.find("escaped the sandbox"), std::string::npos) << run.out;
    EXPECT_FALSE(std::filesystem::exists(escaped));
    EXPECT_EQ(run.err.find("refused part of the sandbox"), std::string::npos) << run.err;
}

// The check after the ranks reads what they left; a rank's code can replace the writer of its
// final weights (torch.save, or rankstep_real.weightsfile.write) and leave a pickle that runs
// code when loaded. The check never unpickles it, and runs sandboxed: the marker the pickle would
// create in the test's folder never appears.
TEST(RealRuns, AWeightsFileThatIsAMaliciousPickleIsRefusedUnread)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string marker = (dir.path() / "unpickled").string();
    const std::string code = ddpWith(
        "    if hasattr(model, 'recorder'):  # only in the real run\n"
        "        import pickle, torch, rankstep_real\n"
        "        class Payload:\n"
        "            def __reduce__(self):\n"
        "                return (open, ('" +
        marker +
        "', 'w'))\n"
        "        def plant(*args):\n"
        "            path = next(a for a in args if isinstance(a, str))\n"
        "            with open(path, 'wb') as file:\n"
        "                file.write(pickle.dumps(Payload()))\n"
        "        torch.save = plant\n"
        "        try:\n"
        "            import rankstep_real.weightsfile as weightsfile\n"
        "            weightsfile.write = plant\n"
        "        except ImportError:\n"
        "            pass\n");
    ASSERT_FALSE(code.empty());
    const ProcessResult run =
        runCli({realArgs(dir.write("pickle.py", code), "ddp", 1, 2, 1), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("Rank 0's final weights (rank-0.weights) were refused: it is not a "
                           "weights file a rank writes"),
              std::string::npos)
        << run.out << run.err;
    EXPECT_NE(run.out.find("the run does not count"), std::string::npos) << run.out;
    EXPECT_FALSE(std::filesystem::exists(marker)) << "the pickle ran outside the ranks";
}

// A rank gets what a simulated run gets and no more: no unix socket of the machine's (here one
// the test listens on, as an ssh agent or docker.sock would), no variable of the caller's that is
// not on the allow-list, a session of its own without a terminal, no file past the size limit
// (a sparse write past it fails at once), and a 6 GiB tensor is refused with a simulated run's
// sentence. Each escape would end the run with its own error instead.
TEST(RealRuns, ARankHasTheLimitsOfASimulatedRun)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string socketPath = (dir.path() / "agent.sock").string();
    const int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(socketPath.size(), sizeof address.sun_path);
    std::copy(socketPath.begin(), socketPath.end(), address.sun_path);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    ASSERT_EQ(listen(listener, 4), 0);
    const std::string code = ddpWith(
        "    if hasattr(model, 'recorder'):  # only in the real run\n"
        "        import os, socket, torch\n"
        "        try:\n"
        "            socket.socket(socket.AF_UNIX).connect('" +
        socketPath +
        "')\n"
        "        except OSError:\n"
        "            pass\n"
        "        else:\n"
        "            raise ValueError('reached a unix socket')\n"
        "        if 'RANKSTEP_TEST_SECRET' in os.environ:\n"
        "            raise ValueError('saw the caller\\'s secret')\n"
        "        if os.getsid(0) != os.getpid() or os.isatty(0):\n"
        "            raise ValueError('shares a session or a terminal')\n"
        "        big = os.open('big', os.O_WRONLY | os.O_CREAT)\n"
        "        try:\n"
        "            os.pwrite(big, b'x', 8 << 30)\n"
        "        except OSError:\n"
        "            pass\n"
        "        else:\n"
        "            raise ValueError('wrote past the file-size limit')\n"
        "        huge = torch.ones(6 << 30, dtype=torch.uint8)\n");
    ASSERT_FALSE(code.empty());
    const ProcessResult run = runCli({realArgs(dir.write("limits.py", code), "ddp", 1, 2, 1),
                                      "",
                                      {"RANKSTEP_TEST_SECRET=ghp_teacherstoken"}},
                                     dir);
    close(listener);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("): The code ran out of memory: it asked for more than the 2048 MiB a "
                           "rank may use."),
              std::string::npos)
        << run.out << run.err;
}

// The ranks together may write as much into their folder as one may use memory. Two files of
// 1.5 GiB (sparse: the test writes nothing to disk) each pass the file-size limit; the run is
// stopped within a quarter of a second of the second, long before the rank's sleep ends.
TEST(RealRuns, TheRanksFolderHoldsAtMostItsQuota)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = ddpWith(
        "    if hasattr(model, 'recorder'):  # only in the real run\n"
        "        import os, time\n"
        "        here = os.path.dirname(model.recorder.progress.name)\n"
        "        for name in ('a', 'b'):\n"
        "            with open(os.path.join(here, name), 'wb') as file:\n"
        "                os.ftruncate(file.fileno(), 1536 << 20)\n"
        "        time.sleep(30)\n");
    ASSERT_FALSE(code.empty());
    const ProcessResult run =
        runCli({realArgs(dir.write("quota.py", code), "ddp", 1, 2, 1), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("The code wrote more than the 2048 MiB a run's folder may hold"),
              std::string::npos)
        << run.out << run.err;
}

// A rank that runs on only in the real run (the simulation passed): the timeout ends every
// process and says, from what each rank recorded as it went, who never called the collective the
// others wait in.
TEST(RealRuns, ARankThatNeverArrivesIsNamedAfterTheTimeout)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::string code = ddpWith(
        "        while model.rank == 2 and hasattr(model, 'recorder'):\n"
        "            pass\n",
        kAllreduce);
    ASSERT_FALSE(code.empty());
    std::vector<std::string> args = realArgs(dir.write("late.py", code), "ddp", 4, 2, 4);
    // The timeout counts from the moment every rank has joined: starting four ranks (importing
    // torch, joining the group) takes longer than 3 s on two cores, so a timeout counted from
    // the start would end them before any made a call.
    args.back() = "3"; // --timeout
    const ProcessResult run = runCli({args, "", {}}, dir);
    EXPECT_EQ(run.exitCode, 4) << run.out << run.err;
    EXPECT_NE(run.out.find("rank 2 never called allreduce(layer 0)."), std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("rank 0: waits in allreduce(layer 0)"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("rank 2: finished backward(layer 0)"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("rank 1 never called"), std::string::npos) << run.out;
}

// A rank that never arrives: its peers wait in the allreduce. The app's Stop (SIGTERM) ends the
// command at once with every rank; a command killed outright (SIGKILL) takes its ranks along.
TEST(RealRuns, StoppingOrKillingTheCommandEndsEveryRank)
{
    REQUIRE_TORCH();
    for (const int signal : {SIGTERM, SIGKILL}) {
        TempDir dir;
        const std::string code = ddpWith(
            "    while model.rank == 0 and hasattr(model, 'recorder'):\n"
            "        pass\n");
        ASSERT_FALSE(code.empty());
        const std::string file = dir.write("forever.py", code);
        const pid_t cli = startCli({realArgs(file, "ddp", 2, 2, 2), "", {}},
                                   (dir.path() / "out").string(), (dir.path() / "err").string());
        const std::string ranks =
            "pgrep -f '[_]_real-rank .*--source-name " + file + "' >/dev/null";
        bool running = false;
        for (int i = 0; i < 300 && !running; ++i) { // until both ranks are up
            usleep(100'000);
            running = std::system(ranks.c_str()) == 0;
        }
        ASSERT_TRUE(running) << dir.read("out") << dir.read("err");
        usleep(3'000'000); // they load PyTorch and meet
        ASSERT_EQ(kill(cli, signal), 0);
        int status = 0;
        ASSERT_EQ(waitpid(cli, &status, 0), cli);
        if (signal == SIGTERM) {
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 4) << status;
            EXPECT_NE(dir.read("out").find("Stopped on request"), std::string::npos)
                << dir.read("out");
        }
        bool gone = false;
        for (int i = 0; i < 50 && !gone; ++i) {
            gone = std::system(ranks.c_str()) != 0;
            if (!gone)
                usleep(100'000);
        }
        EXPECT_TRUE(gone) << "a rank outlived the command after signal " << signal;
    }
}

// --profile: torch.profiler's trace of every rank in one file that Perfetto opens, a process
// named after each rank, with the collectives gloo ran among PyTorch's operators.
TEST(RealRuns, TheProfileHoldsEveryRanksOperatorsInOneFile)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::vector<std::string> args =
        realArgs(kSource + "/lessons/30-ddp/solution.py", "ddp", 2, 2, 2);
    const std::string profile = (dir.path() / "profile.json").string();
    args.insert(args.end(), {"--profile", profile});
    const ProcessResult run = runCli({args, "", {}}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const auto parsed = io::parseJson(readText(profile));
    ASSERT_TRUE(parsed) << parsed.error().message;
    const io::JsonValue *events = parsed->find("traceEvents");
    ASSERT_NE(events, nullptr);
    std::set<std::string> processes;
    int operators = 0, collectives = 0;
    for (const io::JsonValue &event : events->items) {
        const io::JsonValue *name = event.find("name");
        if (name && name->text == "process_name")
            processes.insert(event.find("args")->find("name")->text);
        else if (name && name->text.rfind("aten::", 0) == 0)
            ++operators;
        else if (name && name->text == "gloo:all_reduce")
            ++collectives;
    }
    EXPECT_EQ(processes, (std::set<std::string>{"rank 0", "rank 1"}));
    EXPECT_GT(operators, 10);
    EXPECT_EQ(collectives, 4); // two layers' gradients on each of the two ranks
    // The lib names each call of the puzzle in the profile, so the app shows them as the run's
    // operations (core/io/chrometracereader.h): per rank two forwards, the loss, two backwards,
    // two allreduces and two updates, not torch's operators.
    auto opened = io::runFromChromeJson(readText(profile));
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(opened->trace.config.ranks, 2);
    ASSERT_EQ(opened->trace.events.size(), 18U);
    std::map<int, std::vector<std::string>> calls;
    for (const core::Event &event : opened->trace.events)
        calls[event.rank].push_back(core::opName(event.op) + std::string(" ") +
                                    std::to_string(event.layer));
    const std::vector<std::string> ddp = {"forward 0",  "forward 1",   "loss -1",
                                          "backward 1", "backward 0",  "allreduce 0",
                                          "update 0",   "allreduce 1", "update 1"};
    EXPECT_EQ(calls[0], ddp);
    EXPECT_EQ(calls[1], ddp);
}

TEST(RealRuns, WithoutPyTorchTheCommandSaysHowToInstallIt)
{
    TempDir dir;
    const ProcessResult run =
        runCli({realArgs(kSource + "/lessons/30-ddp/solution.py", "ddp", 4, 2, 4),
                "",
                {"RANKSTEP_PYTHON=/nonexistent/python3"}},
               dir);
    EXPECT_EQ(run.exitCode, 69) << run.out << run.err;
    EXPECT_NE(run.err.find("apt-get install python3-torch"), std::string::npos) << run.err;
}

// A stand-in for the Python that `real` asks about PyTorch (RANKSTEP_PYTHON): it imports
// nothing and answers that NCCL is `nccl` (0 or 1) with `gpus` GPUs, as the probe
// (cli/realrun.cpp ncclProblem) reads it.
std::string pythonReportingNccl(const TempDir &dir, int nccl, int gpus)
{
    const std::string path =
        dir.write("python-standin", "#!/bin/sh\necho 'rankstep-nccl " + std::to_string(nccl) + " " +
                                        std::to_string(gpus) + "' >&2\nexit 0\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

std::vector<std::string> ncclArgs(int ranks)
{
    std::vector<std::string> args =
        realArgs(kSource + "/lessons/30-ddp/solution.py", "ddp", ranks, 2, 2);
    args.insert(args.end(), {"--backend", "nccl"});
    return args;
}

// Debian's PyTorch has no CUDA: --backend nccl is one sentence and a usage error before anything
// runs, not a traceback from every rank.
TEST(RealRuns, NcclWithoutNcclInPyTorchIsOneSentenceBeforeAnyRankStarts)
{
    TempDir dir;
    const ProcessResult run =
        runCli({ncclArgs(2), "", {"RANKSTEP_PYTHON=" + pythonReportingNccl(dir, 0, 0)}}, dir);
    EXPECT_EQ(run.exitCode, 64) << run.out << run.err;
    EXPECT_NE(run.err.find("--backend nccl needs PyTorch built with CUDA and NCCL"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("Traceback"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("Running"), std::string::npos) << run.out;
}

TEST(RealRuns, NcclWithFewerGpusThanRanksIsOneSentenceBeforeAnyRankStarts)
{
    TempDir dir;
    const ProcessResult run =
        runCli({ncclArgs(2), "", {"RANKSTEP_PYTHON=" + pythonReportingNccl(dir, 1, 1)}}, dir);
    EXPECT_EQ(run.exitCode, 64) << run.out << run.err;
    EXPECT_NE(run.err.find("this machine has 1 GPU for 2 ranks"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("Running"), std::string::npos) << run.out;
}

TEST(RealRuns, DebiansPyTorchRefusesNcclInOneSentence)
{
    REQUIRE_TORCH();
    if (std::system("/usr/bin/python3 -c 'import sys, torch.distributed as d; "
                    "sys.exit(d.is_nccl_available())' >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "this PyTorch has NCCL";
    TempDir dir;
    const ProcessResult run = runCli({ncclArgs(2), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 64) << run.out << run.err;
    EXPECT_NE(run.err.find("has no NCCL"), std::string::npos) << run.err;
}

// Where PyTorch reports NCCL and a GPU per rank, the ranks start and each takes the GPU of its
// LOCAL_RANK before joining: with Debian's PyTorch behind a stand-in that claims two GPUs, that
// is where rank 0 stops.
TEST(RealRuns, WithNcclEachRankTakesItsOwnGpu)
{
    REQUIRE_TORCH();
    if (std::system("/usr/bin/python3 -c 'import sys, torch; sys.exit(torch.cuda.is_available())' "
                    ">/dev/null 2>&1") != 0)
        GTEST_SKIP() << "this PyTorch has CUDA: the stand-in's claim would come true";
    TempDir dir;
    const ProcessResult run =
        runCli({ncclArgs(2), "", {"RANKSTEP_PYTHON=" + pythonReportingNccl(dir, 1, 2)}}, dir);
    EXPECT_NE(run.out.find("Running 2 ranks for real (nccl"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("set_device"), std::string::npos) << run.out;
    EXPECT_NE(run.exitCode, 0);
}

// A port no one listens on now (the kernel picks it), for two node groups to meet on.
int freeLoopbackPort()
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 20000 + int(getpid() % 20000);
    if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

struct NodeRun {
    int exitCode = -1;
    std::string out, err;
};

// torchrun's conventions across machines, tried on one: `real` started twice, as node 0 and node 1
// of two, meeting on the loopback address; each waited for to its end.
std::vector<NodeRun> runOnTwoNodes(const std::string &file, const std::string &function, int ranks,
                                   const TempDir &dir, bool profile = false)
{
    const int port = freeLoopbackPort();
    std::vector<pid_t> nodes;
    for (int node = 0; node < 2; ++node) {
        std::vector<std::string> args = realArgs(file, function, ranks, 2, 4);
        args.insert(args.end(),
                    {"--nnodes", "2", "--node-rank", std::to_string(node), "--master-addr",
                     "127.0.0.1", "--master-port", std::to_string(port)});
        const std::string name = "node" + std::to_string(node);
        if (profile) // each node's merged profile: nodeN.profile.json
            args.insert(args.end(),
                        {"--profile", (dir.path() / (name + ".profile.json")).string()});
        nodes.push_back(startCli({args, "", {}}, (dir.path() / (name + ".out")).string(),
                                 (dir.path() / (name + ".err")).string()));
    }
    std::vector<NodeRun> runs;
    for (int node = 0; node < 2; ++node) {
        int status = 0;
        NodeRun run;
        if (waitpid(nodes[std::size_t(node)], &status, 0) == nodes[std::size_t(node)] &&
            WIFEXITED(status))
            run.exitCode = WEXITSTATUS(status);
        const std::string name = "node" + std::to_string(node);
        run.out = dir.read(name + ".out");
        run.err = dir.read(name + ".err");
        runs.push_back(run);
    }
    return runs;
}

TEST(RealRuns, TwoNodeGroupsOnTheLoopbackAddressTrainOneModel)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::vector<NodeRun> nodes =
        runOnTwoNodes(kSource + "/lessons/30-ddp/solution.py", "ddp", 4, dir);
    for (const NodeRun &node : nodes) {
        EXPECT_EQ(node.exitCode, 0) << node.out << node.err;
        EXPECT_NE(node.out.find("match one process trained on every batch"), std::string::npos)
            << node.out;
    }
}

// FSDP leaves each rank one shard of every layer: a node alone holds half of each weight. Every
// node checks the whole model from every rank's shards (the ranks send theirs to the other
// nodes), says so for the nodes, and merges every rank's profile.
TEST(RealRuns, FsdpOnTwoNodeGroupsIsCheckedWithEveryNodesShards)
{
    REQUIRE_TORCH();
    TempDir dir;
    const std::vector<NodeRun> nodes =
        runOnTwoNodes(kSource + "/lessons/50-fsdp/solution.py", "fsdp", 4, dir, true);
    for (std::size_t node = 0; node < nodes.size(); ++node) {
        const std::string profile = dir.read("node" + std::to_string(node) + ".profile.json");
        for (int rank = 0; rank < 4; ++rank) // every rank's profile on every node
            EXPECT_NE(profile.find("{\"name\": \"rank " + std::to_string(rank) + "\"}"),
                      std::string::npos)
                << "node " << node << " lacks rank " << rank << "'s profile";
        EXPECT_EQ(nodes[node].exitCode, 0) << nodes[node].out << nodes[node].err;
        EXPECT_EQ(nodes[node].out.find("none set"), std::string::npos) << nodes[node].out;
        EXPECT_NE(nodes[node].out.find("The weights of the 4 ranks on 2 nodes, put together, "
                                       "match one process trained on every batch"),
                  std::string::npos)
            << nodes[node].out;
        EXPECT_NE(nodes[node].out.find("Running ranks " + std::to_string(2 * node) + " to " +
                                       std::to_string(2 * node + 1) + " of 4 for real on node " +
                                       std::to_string(node) + " of 2"),
                  std::string::npos)
            << nodes[node].out;
    }
}

// Rank 3 (node 1) counts its gradient of layer 0 twice: the simulator only warns, the real values
// differ. Both nodes name the rank and its node.
TEST(RealRuns, ANodesRankThatTrainsAnotherModelIsNamedWithItsNode)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kSource + "/lessons/50-fsdp/solution.py");
    const std::string anchor =
        "    for layer in range(model.LAYERS):\n        weights[layer], "
        "opt_states[layer] = model.update(";
    const std::size_t at = code.find(anchor);
    ASSERT_NE(at, std::string::npos);
    code.insert(at,
                "    if model.rank == 3:\n"
                "        grad_weights[0] = grad_weights[0] + grad_weights[0]\n");
    const std::vector<NodeRun> nodes = runOnTwoNodes(dir.write("twice.py", code), "fsdp", 4, dir);
    for (const NodeRun &node : nodes) {
        EXPECT_EQ(node.exitCode, 1) << node.out << node.err;
        EXPECT_NE(node.out.find("Layer 0 is the first that differs"), std::string::npos)
            << node.out;
        EXPECT_NE(node.out.find("Its values differ on rank 3 (node 1)."), std::string::npos)
            << node.out;
    }
}

// Rank 3 (node 1) raises after the last collective, for real only: node 1 names its error and
// line; node 0, whose ranks wait for rank 3's files, says that another node stopped, not that a
// rank of its own crashed.
TEST(RealRuns, ANodeWhoseFilesNeverComeIsSaidOnTheOtherNode)
{
    REQUIRE_TORCH();
    TempDir dir;
    std::string code = readText(kSource + "/lessons/50-fsdp/solution.py");
    const std::string anchor =
        "    for layer in range(model.LAYERS):\n        model.set_final_weight";
    const std::size_t at = code.find(anchor);
    ASSERT_NE(at, std::string::npos);
    code.insert(at,
                "    if model.rank == 3 and hasattr(model, 'recorder'):  # a real run's Model\n"
                "        raise ValueError('rank 3 gives up')\n");
    const std::vector<NodeRun> nodes = runOnTwoNodes(dir.write("late.py", code), "fsdp", 4, dir);
    EXPECT_EQ(nodes[1].exitCode, 2) << nodes[1].out << nodes[1].err;
    EXPECT_NE(nodes[1].out.find("Error (rank 3, line "), std::string::npos) << nodes[1].out;
    EXPECT_EQ(nodes[0].exitCode, 2) << nodes[0].out << nodes[0].err;
    EXPECT_NE(nodes[0].out.find("The ranks of another node stopped before every rank's files "
                                "were exchanged"),
              std::string::npos)
        << nodes[0].out;
}

} // namespace
} // namespace rankstep::hostile
