// SPDX-License-Identifier: MIT
// The walls around learner code that keep a verdict honest (cli/sandbox.h): it reads no lesson's
// solution, loads neither ctypes nor any machine code (with or without Landlock, with or without
// the finder that says why), types nothing into the terminal it was started from, and writes no
// file past the size limit. Each case runs rankstep-cli as the app does.
#include "clilaunch.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <pty.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

constexpr const char *kWhole = "RANKSTEP_SANDBOX_SKIP=";
constexpr const char *kSkipLandlock = "RANKSTEP_SANDBOX_SKIP=landlock";
constexpr const char *kRefusal =
    "(Rankstep runs your code in a sandbox: it may write files only in "
    "its own folder";

// Runs `code` (a file defining `puzzle`) as `rankstep-cli run`, from a code store.
ProcessResult runCode(const TempDir &dir, const std::string &code,
                      const std::vector<std::string> &environment = {},
                      const std::string &input = "/dev/null")
{
    dir.write("store/puzzle.py", code);
    Launch launch{{"run", "puzzle.py", "--function", "puzzle", "--timeout", "20"},
                  (dir.path() / "store").string(),
                  environment};
    launch.input = input;
    return runCli(launch, dir);
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// A file of the system's shared data that a run has no need of, as the lessons' solutions are
// installed beneath /usr/share/rankstep.
std::string sharedDataFile()
{
    std::error_code error;
    for (fs::recursive_directory_iterator it("/usr/share", error), end; it != end;
         it.increment(error)) {
        if (error)
            break;
        const std::string path = it->path().string();
        if (path.rfind("/usr/share/zoneinfo", 0) != 0 && it->is_regular_file(error) &&
            access(path.c_str(), R_OK) == 0)
            return path;
    }
    return {};
}

TEST(Seal, ReadsNoLessonSolutionAndNothingOfTheSystemsSharedData)
{
    const std::string solution = std::string(RANKSTEP_SOURCE_DIR) + "/lessons/30-ddp/solution.py";
    const std::string shared = sharedDataFile();
    ASSERT_TRUE(fs::exists(solution));
    ASSERT_FALSE(shared.empty());
    for (const std::string &path : {solution, shared}) {
        TempDir dir;
        const ProcessResult run =
            runCode(dir, "def puzzle(model):\n    print(open('" + path + "').read())\n");
        EXPECT_EQ(run.exitCode, 2) << path << run.err;
        EXPECT_TRUE(contains(run.err,
                             "Error (rank 0, line 2): PermissionError: [Errno 13] "
                             "Permission denied: '" +
                                 path + "' " + kRefusal))
            << path << run.err;
        EXPECT_FALSE(contains(run.out, "async def")) << path;
    }
}

TEST(Seal, ReadsPythonsStandardLibraryAndRunsItsModules)
{
    TempDir dir;
    const ProcessResult run =
        runCode(dir,
                "import json, decimal, datetime, random, hashlib, threading, zoneinfo\n\n\n"
                "def puzzle(model):\n"
                "    done = []\n"
                "    worker = threading.Thread(target=lambda: "
                "done.append(json.dumps([str(decimal.Decimal(1))])))\n"
                "    worker.start()\n    worker.join()\n"
                "    print('ran', done[0], hashlib.sha256(b'x').hexdigest()[:8], flush=True)\n");

    EXPECT_EQ(run.exitCode, 1) << run.err; // ran to the end; the check fails, nothing else
    EXPECT_TRUE(contains(run.out, "ran [\"1\"] 2d711642")) << run.out << run.err;
    EXPECT_FALSE(contains(run.err, "warning")) << run.err;
}

struct Refused {
    std::string name;   // of the test
    std::string module; // imported at the top of the learner's file
};

class RawMemoryModule : public ::testing::TestWithParam<Refused>
{};

TEST_P(RawMemoryModule, CannotBeImportedAndSaysWhy)
{
    TempDir dir;
    const ProcessResult run =
        runCode(dir, "import " + GetParam().module + "\n\n\ndef puzzle(model):\n    pass\n");

    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_TRUE(contains(run.err, "Error (line 1): ImportError: " + GetParam().module +
                                      " cannot be used in a Rankstep run: it would let code "
                                      "read and write the runner's memory"))
        << run.err;
    EXPECT_FALSE(contains(run.err, "was loaded before the sandbox closed")) << run.err;
}

INSTANTIATE_TEST_SUITE_P(Seal, RawMemoryModule,
                         ::testing::Values(Refused{"Ctypes", "ctypes"},
                                           Refused{"CtypesExtension", "_ctypes"},
                                           Refused{"Cffi", "_cffi_backend"},
                                           Refused{"TestCapi", "_testcapi"},
                                           Refused{"TestInternalCapi", "_testinternalcapi"}),
                         [](const auto &param) { return param.param.name; });

// The finder is only the words: taken away, with ctypes' entries out of sys.modules, the
// extension still does not load, from lib-dynload or copied into the run's folder (Landlock
// keeps it unreadable; without Landlock, seccomp refuses to map any code the run did not load
// before).
class SealLayers : public ::testing::TestWithParam<std::string>
{};

TEST_P(SealLayers, CtypesDoesNotLoadWithoutTheFinder)
{
    TempDir dir;
    const ProcessResult run =
        runCode(dir,
                "import importlib.machinery, importlib.util, os, sys\n\n\n"
                "def load(path):\n"
                "    spec = importlib.util.spec_from_loader(\n"
                "        '_ctypes', importlib.machinery.ExtensionFileLoader('_ctypes', path))\n"
                "    try:\n"
                "        print('loaded', importlib.util.module_from_spec(spec), flush=True)\n"
                "    except ImportError as error:\n"
                "        print('refused', error, flush=True)\n\n\n"
                "def puzzle(model):\n"
                "    sys.meta_path[:] = [f for f in sys.meta_path if 'Rankstep' not in str(f)]\n"
                "    for name in ('ctypes', '_ctypes'):\n"
                "        sys.modules.pop(name, None)\n"
                "    try:\n"
                "        import _ctypes\n"
                "        print('imported', _ctypes, flush=True)\n"
                "    except ImportError as error:\n"
                "        print('refused', error, flush=True)\n"
                "    found = importlib.machinery.PathFinder.find_spec('_ctypes', sys.path)\n"
                "    load(found.origin)\n"
                "    try:\n"
                "        with open(found.origin, 'rb') as source, open('mine.so', 'wb') as copy:\n"
                "            copy.write(source.read())\n"
                "        load(os.path.abspath('mine.so'))\n"
                "    except PermissionError as error:\n"
                "        print('refused', error, flush=True)\n",
                {GetParam()});

    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_FALSE(contains(run.out, "imported")) << run.out;
    EXPECT_FALSE(contains(run.out, "loaded")) << run.out;
    std::size_t refusals = 0;
    for (std::size_t at = run.out.find("refused"); at != std::string::npos;
         at = run.out.find("refused", at + 1))
        ++refusals;
    EXPECT_EQ(refusals, 3U) << run.out;
}

// Without Landlock the run goes on, but says its result cannot be trusted: it could read the
// lessons' solutions.
TEST_P(SealLayers, SaysWhenTheResultCannotBeTrusted)
{
    TempDir dir;
    const ProcessResult run = runCode(dir, "def puzzle(model):\n    pass\n", {GetParam()});
    EXPECT_EQ(run.exitCode, 1) << run.err;
    EXPECT_EQ(contains(run.err, "the result of this run cannot be trusted"),
              GetParam() == kSkipLandlock)
        << run.err;
}

INSTANTIATE_TEST_SUITE_P(Seal, SealLayers, ::testing::Values(kWhole, kSkipLandlock),
                         [](const auto &param) {
                             return param.index == 0 ? "Whole" : "WithoutLandlock";
                         });

// TIOCSTI pushes bytes into a terminal's input, which the shell that started the run reads once
// it is back: learner code started from a terminal must not type there.
TEST(Seal, TypesNothingIntoTheTerminalItWasStartedFrom)
{
    int terminal = -1, other = -1;
    ASSERT_EQ(openpty(&terminal, &other, nullptr, nullptr, nullptr), 0);
    const std::string name = ttyname(other);
    close(other);
    TempDir dir;
    const ProcessResult run = runCode(dir,
                                      "import fcntl, termios\n\n\n"
                                      "def puzzle(model):\n"
                                      "    fcntl.ioctl(0, termios.TIOCSTI, b'x')\n",
                                      {}, name);

    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_TRUE(contains(run.err,
                         "Error (rank 0, line 5): PermissionError: [Errno 1] Operation "
                         "not permitted " +
                             std::string(kRefusal)))
        << run.err;
    fcntl(terminal, F_SETFL, O_NONBLOCK);
    char typed[16];
    EXPECT_LE(read(terminal, typed, sizeof typed), 0); // the terminal's input holds nothing
    close(terminal);
}

// A file written past the limit fails with the sandbox's sentence. The limits stay as they are:
// raising one is refused (root with CAP_SYS_RESOURCE could), and so is lowering one, which any
// process may do, and which only the sandbox's rule refuses.
TEST(Seal, WritesNoFileLargerThanTheLimitAndKeepsItsLimits)
{
    TempDir dir;
    const ProcessResult run =
        runCode(dir,
                "import resource\n\n\n"
                "def puzzle(model):\n"
                "    for limits in ((-1, -1), (1 << 20, 1 << 20)):\n"
                "        try:\n"
                "            resource.setrlimit(resource.RLIMIT_FSIZE, limits)\n"
                "            print('changed', flush=True)\n"
                "        except (OSError, ValueError):\n"
                "            print('kept', flush=True)\n"
                "    with open('large', 'wb') as large:\n"
                "        large.seek(300 << 20)\n"
                "        large.write(b'x')\n");

    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_EQ(run.out.substr(0, 10), "kept\nkept\n") << run.out;
    EXPECT_TRUE(contains(run.err,
                         "Error (rank 0, line 11): OSError: [Errno 27] File too large "
                         "(Rankstep runs your code in a sandbox: a file it writes may "
                         "hold at most 256 MiB.)"))
        << run.err;
}

} // namespace
} // namespace rankstep::hostile
