// SPDX-License-Identifier: MIT
#include "hostilecases.h"

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace rankstep::hostile {
namespace {

// A correct-looking puzzle function followed by 5 MiB of harmless assignments.
std::string fiveMegabytes()
{
    std::string text =
        "def puzzle(model):\n"
        "    model.weights[0], model.opt_states[0] = model.load_weights(0)\n\n";
    for (int i = 0; text.size() < (5u << 20); ++i)
        text += "FILLER_" + std::to_string(i) + " = 'the same forty characters on every line'\n";
    return text;
}

// 64 KiB of random bytes, the same every run (a picture or an archive opened by mistake).
std::string binaryGarbage()
{
    std::mt19937 random(20261121);
    std::string bytes(64 << 10, '\0');
    for (char &c : bytes)
        c = static_cast<char>(random() & 0xFF);
    return bytes;
}

std::vector<HostileCase> makeCases()
{
    const std::vector<std::string> quick = {"--timeout", "10"};
    return {
        {"Exception", "an exception",
         "def puzzle(model):\n    raise ValueError('the shard is empty')\n", quick, 2,
         "Error (rank 0, line 2): ValueError: the shard is empty"},
        {"SyntaxError", "a syntax error", "def puzzle(model):\n    return model.weights[0\n", quick,
         2, "Error (line 2): SyntaxError: '[' was never closed (line 2, column 25)"},
        {"InfiniteLoop",
         "an infinite loop",
         "def puzzle(model):\n    while True:\n        pass\n",
         {"--timeout", "2"},
         4,
         "Error (rank 0, line 2): The run was stopped after 2 s (the time limit) while rank 0 was "
         "at line 2. Is a loop running forever?"},
        {"InfiniteLoopAtTopLevel",
         "an infinite loop outside any function",
         "while True:\n    pass\n\ndef puzzle(model):\n    pass\n",
         {"--timeout", "2"},
         4,
         "Error (line 1): The run was stopped after 2 s (the time limit) while the file was still "
         "loading (its top-level code was at line 1). Is a loop running forever?"},
        {"InfiniteRecursion", "infinite recursion",
         "def deeper(n):\n    return deeper(n + 1)\n\ndef puzzle(model):\n    deeper(0)\n", quick,
         2, "Error (rank 0, line 2): RecursionError: maximum recursion depth exceeded"},
        {"AllocatingGigabytes", "allocating gigabytes (64 GiB at once)",
         "def puzzle(model):\n    hoard = bytearray(64 * 2**30)\n", quick, 2,
         "Error (rank 0, line 2): The code ran out of memory: it asked for more than the 2048 MiB "
         "a run may use.",
         false, true},
        {"AllocatingGigabytesSlowly",
         "allocating gigabytes, 64 MiB at a time",
         "def puzzle(model):\n    hoard = []\n    while True:\n        hoard.append(b'x' * "
         "2**26)\n",
         {"--timeout", "10", "--memory-limit", "512"},
         2,
         "Error (rank 0, line 4): The code ran out of memory: it asked for more than the 512 MiB a "
         "run may use.",
         false,
         true},
        // Each store goes through the dictionaries' own mapping slot (core/python/pymodel.cpp):
        // the engine's allocation failing there is the run's size, not a SystemError.
        {"StoringForever",
         "storing into a dictionary forever (`--memory-limit 256`)",
         "def puzzle(model):\n    activations = model.storage()[2]\n"
         "    a = model.get_activation(range(model.BATCHES))\n    i = 0\n    while True:\n"
         "        activations[i, i] = a\n        i += 1\n",
         {"--timeout", "20", "--memory-limit", "256", "--max-ops", "100000000"},
         2,
         "Error: The run ran out of memory: the simulation of 2 ranks, 2 layers and 4 "
         "batches needs more than the 256 MiB a run may use.",
         false,
         true},
        {"OsExit", "`os._exit(3)`", "import os\n\ndef puzzle(model):\n    os._exit(3)\n", quick, 2,
         "Error: the code ended the process that runs it (exit code 3, as os._exit or os.abort "
         "do) before the run finished."},
        {"Segfault", "a segfault (`faulthandler._sigsegv()`, as a broken C extension does)",
         "import faulthandler\n\ndef puzzle(model):\n    faulthandler._sigsegv()\n", quick, 2,
         "Error: the code crashed the process that runs it (a segmentation fault, signal 11), for "
         "example in a C extension.",
         false, true},
        {"Ctypes", "`import ctypes` (or `_ctypes`, `cffi`, CPython's test modules)",
         "import ctypes\n\ndef puzzle(model):\n    ctypes.string_at(0)\n", quick, 2,
         "Error (line 1): ImportError: ctypes cannot be used in a Rankstep run: it would let code "
         "read and write the runner's memory (and forge the run's result), so the sandbox does "
         "not load it."},
        {"DeleteKeyTwice", "deleting a key twice",
         "def puzzle(model):\n    model.weights[0], model.opt_states[0] = model.load_weights(0)\n"
         "    del model.weights[0]\n    del model.weights[0]\n",
         quick, 2,
         "Error (rank 0, line 4): KeyError: 'weights of rank 0 has no key 0 to delete; it is "
         "empty'"},
        {"NonPuzzleValue", "storing a non-puzzle value",
         "def puzzle(model):\n    model.weights[0] = 'a string'\n", quick, 2,
         "Error (rank 0, line 2): TypeError: weights takes puzzle objects (Weight, OptState, "
         "Activation, ActivationGrad, WeightGrad), not str"},
        {"ForeignAwaitable", "awaiting a foreign awaitable (asyncio.sleep)",
         "import asyncio\n\nasync def puzzle(model):\n    await asyncio.sleep(1)\n", quick, 2,
         "Error (rank 0, line 4): This line awaits something of asyncio, which does not run here"},
        {"ForeignAwaitableObject", "awaiting a foreign awaitable (an object of the learner's)",
         "class Later:\n    def __await__(self):\n        yield 42\n\n"
         "async def puzzle(model):\n    await Later()\n",
         quick, 2, "Error (rank 0, line 3): Line 3 awaits 42, which Rankstep does not simulate."},
        {"TenMillionOperations",
         "ten million operations",
         "def puzzle(model):\n    for step in range(10_000_000):\n        "
         "model.get_activation([0])\n",
         {"--timeout", "120"},
         4,
         "Error (rank 0, line 3): The run was stopped after 5000000 model calls and storage "
         "changes (the operation budget; 0 operations recorded) while rank 0 was at line 3."},
        {"FiveMegabyteSource", "a 5 MB source file", fiveMegabytes(), quick, 1,
         "No operation took simulated time.\nNot correct yet", true},
        {"BinaryGarbage", "binary garbage as a source file", binaryGarbage(), quick, 2,
         "Error (line 1): This file is not Python source: line 1 holds the byte 0x8B, which is not "
         "UTF-8 text."},
        // The runner describes an exception in C++ from private references: nothing the code
        // patches takes part, and every text taken from it is bounded.
        {"PatchedTraceback", "patching `traceback.format_exception_only`, then raising",
         "import traceback\n\ntraceback.format_exception_only = None\n\n\ndef puzzle(model):\n"
         "    raise ValueError('the shard is empty')\n",
         quick, 2, "Error (rank 0, line 7): ValueError: the shard is empty"},
        {"BrokenStrAndBuiltins",
         "an exception whose `__str__` raises, after replacing `builtins.str`, `builtins.len` and "
         "`sys.modules['sys']`",
         "import builtins\nimport sys\n\n\nclass Broken(Exception):\n    def __str__(self):\n"
         "        raise RuntimeError('no')\n\n\ndef puzzle(model):\n    builtins.str = None\n"
         "    builtins.len = None\n    sys.modules['sys'] = None\n    raise Broken()\n",
         quick, 2, "Error (rank 0, line 14): __rankstep__.Broken: <exception str() failed>"},
        {"SyntaxErrorWithAHugeLine", "raising a `SyntaxError` whose `lineno` is 10**100",
         "error = SyntaxError('bad')\nerror.lineno = 10**100\n\n\ndef puzzle(model):\n"
         "    raise error\n",
         quick, 2, "Error (rank 0): SyntaxError: bad (line 0, column 0)"},
        {"PuzzleErrorWithBrokenStr",
         "raising a `PuzzleError` of the learner's whose `__str__` raises",
         "from lib import PuzzleError\n\n\nclass Mine(PuzzleError):\n    def __str__(self):\n"
         "        raise ValueError('no')\n\n\ndef puzzle(model):\n    raise Mine('x')\n",
         quick, 2, "Error (rank 0, line 10): <exception str() failed>"},
        // What the code prints is kept in C++: sys.stdout is the learner's to reach, not to
        // change what the runner reads back after the run, when no time limit guards it.
        {"ChangedOutputCapture",
         "replacing the attributes and the class methods of `sys.stdout` after printing",
         "import sys\n\n\ndef forever(self):\n    while True:\n        pass\n\n\n"
         "def puzzle(model):\n    print('kept')\n    for name in ('parts', 'close', 'text', "
         "'_echo'):\n        for target in (sys.stdout, type(sys.stdout)):\n"
         "            try:\n                setattr(target, name, forever)\n"
         "            except (AttributeError, TypeError):\n                pass\n",
         quick, 1, "No operation took simulated time.\nNot correct yet", true},
        {"HugeMessage", "an exception with a 300 MB message",
         "def puzzle(model):\n    raise ValueError('x' * 300_000_000)\n", quick, 2,
         "x [cut at 10,000 characters: 299,990,000 more were left out]"},
        {"SwallowedStopThenHugeMessage",
         "catching the time limit's stop, then raising a 300 MB message (`--timeout 2`)",
         "BIG = 'x' * 300_000_000\n\n\ndef puzzle(model):\n    try:\n        while True:\n"
         "            pass\n    except BaseException:\n        pass\n    raise ValueError(BIG)\n",
         {"--timeout", "2"},
         4,
         "Error (rank 0, line 8): The run was stopped after 2 s (the time limit) while rank 0 was "
         "at line 8. Is a loop running forever?"},
        // After the stop every line raises it again, the handler's own first: no number of
        // handlers keeps the code running, and the supervisor need not end it by force.
        {"CatchingTheStopForever",
         "catching the time limit's stop in a loop, forever (`--timeout 2`)",
         "def puzzle(model):\n    while True:\n        try:\n            while True:\n"
         "                pass\n        except BaseException:\n            pass\n",
         {"--timeout", "2"},
         4,
         "Error (rank 0, line 6): The run was stopped after 2 s (the time limit) while rank 0 was "
         "at line 6. Is a loop running forever?"},
        {"CatchingTheStopBehindAnAuditHook",
         "the same after an audit hook that refuses `sys.settrace` (`--timeout 2`)",
         "import sys\n\n\ndef refuse(event, args):\n    if event == 'sys.settrace':\n"
         "        raise RuntimeError('no tracing')\n\n\nsys.addaudithook(refuse)\n\n\n"
         "def puzzle(model):\n    while True:\n        try:\n            while True:\n"
         "                pass\n        except BaseException:\n            pass\n",
         {"--timeout", "2"},
         4,
         "Error (rank 0, line 17): The run was stopped after 2 s (the time limit) while rank 0 "
         "was at line 17. Is a loop running forever?"},
        // Refused before the pieces are read: ten million made 1.1 GB of them first.
        {"TenMillionAlltoallPieces", "`model.alltoall_start([None] * 10_000_000, 0)`",
         "def puzzle(model):\n    model.alltoall_start([None] * 10_000_000, 0)\n", quick, 2,
         "Error (rank 0, line 2): ValueError: alltoall_start(pieces, layer, group=None): pieces "
         "holds 10000000 items, but a group has at most the run's 2 ranks: one piece (or None) for "
         "each"},
        {"NulByte", "a NUL byte in a source file",
         std::string("def puzzle(model):\n    pass\n# ") + '\0' + "\n", quick, 2,
         "Error (line 3): This file is not Python source: line 3 holds a NUL byte, as binary "
         "files do."},
    };
}

} // namespace

const std::vector<HostileCase> &hostileCases()
{
    static const std::vector<HostileCase> cases = makeCases();
    return cases;
}

const HostileCase &hostileCase(const std::string &name)
{
    for (const HostileCase &c : hostileCases())
        if (c.name == name)
            return c;
    throw std::out_of_range("no hostile case " + name);
}

std::string sourceWithFunction(const HostileCase &c, const std::string &function)
{
    std::string text = c.source;
    for (const std::string def : {"async def puzzle(", "def puzzle("}) {
        const auto at = text.find(def);
        if (at != std::string::npos) {
            text.replace(at, def.size(), def.substr(0, def.size() - 7) + function + "(");
            break;
        }
    }
    return text;
}

std::string brokenLessonsFolder(const std::filesystem::path &dir)
{
    namespace fs = std::filesystem;
    const fs::path root = dir / "lessons";
    fs::create_directories(root);
    for (const char *folder : {"10-basic", "30-ddp"})
        fs::copy(fs::path(RANKSTEP_SOURCE_DIR) / "lessons" / folder, root / folder,
                 fs::copy_options::recursive);
    const fs::path config = root / "30-ddp" / "lesson.json";
    std::ostringstream json;
    json << std::ifstream(config, std::ios::binary).rdbuf();
    const std::string text = json.str();
    std::ofstream(config, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() / 2);
    return root.string();
}

} // namespace rankstep::hostile
